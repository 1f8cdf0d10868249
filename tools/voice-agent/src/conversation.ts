import { voice } from '@livekit/agents';
import { isRouterTTSMetrics, type RouterTTSMetrics, type TTS } from '@speech-router/livekit-plugin';
import { RecordingAudioOutput } from './wav-output';

/** What the fake LLM answers to each user turn of the conversation. */
export const REPLIES = {
  hello: 'Hello there! I speak through the speech router. Every sentence is cached for next time.',
  again: 'Hello there! I speak through the speech router. Every sentence is cached for next time.',
  story:
    'Let me tell you a long story. It starts on a quiet morning. The kettle was on. ' +
    'Nobody expected a visitor. Then the doorbell rang twice.',
  after: 'Sorry, you wanted to say something? Go ahead.',
} as const;
export type Turn = keyof typeof REPLIES;

/** One reply as the agent spoke it. */
export interface SpokenReply {
  turn: Turn;
  text: string;
  /** The router's sentences, each from the cache or the vendor. */
  sentences: Array<{ index: number; characters: number; cached: boolean; ttfbMs: number }>;
  /** Its audio as the loudspeaker played it (16-bit PCM). */
  pcm: Buffer;
  sampleRate: number;
  interrupted: boolean;
}

/**
 * A voice agent built on the framework's own test utilities, no LiveKit server: an AgentSession whose LLM is
 * the framework's FakeLLM (scripted replies, streamed in small deltas as an LLM would) and whose TTS is the
 * router plugin, speaking into a recording loudspeaker. Four turns: a greeting, the same greeting again (from
 * the cache), a story the listener interrupts after its first audio, and the reply after the interruption.
 */
export async function runConversation(
  tts: TTS,
  options: { playbackSpeed?: number } = {},
): Promise<SpokenReply[]> {
  const output = new RecordingAudioOutput(tts.sampleRate, options.playbackSpeed ?? 20);
  const llm = new voice.testing.FakeLLM(
    Object.entries(REPLIES).map(([input, content]) => ({ input, content })),
  );
  const session = new voice.AgentSession({ llm, tts });
  session.output.audio = output;
  const metrics: RouterTTSMetrics[] = [];
  tts.on('metrics_collected', (m) => void (isRouterTTSMetrics(m) && metrics.push(m)));
  await session.start({
    agent: new voice.Agent({ instructions: 'A voice agent speaking through the speech router.' }),
  });
  const spoken: SpokenReply[] = [];
  // A reply's sentences are told apart by their request id: an interrupted reply may still report its cut
  // sentence after the next reply began.
  const turnOf = new Map<string, number>();
  try {
    for (const turn of Object.keys(REPLIES) as Turn[]) {
      const played = output.segments.length;
      const handle = session.generateReply({ userInput: turn });
      if (turn === 'story') {
        await output.firstFrame();
        session.interrupt();
      }
      await handle.waitForPlayout();
      for (const m of metrics) if (!turnOf.has(m.requestId)) turnOf.set(m.requestId, spoken.length);
      const segment = output.segments[played];
      spoken.push({
        turn,
        text: REPLIES[turn],
        sentences: metrics
          .filter((m) => turnOf.get(m.requestId) === spoken.length)
          .map((m) => ({
            index: m.sentence,
            characters: m.charactersCount,
            cached: m.cached,
            ttfbMs: m.ttfbMs,
          })),
        pcm: segment?.pcm ?? Buffer.alloc(0),
        sampleRate: tts.sampleRate,
        interrupted: handle.interrupted,
      });
    }
  } finally {
    await session.close();
  }
  return spoken;
}
