import { randomUUID } from 'node:crypto';
import { ReadableStream } from 'node:stream/web';
import WebSocket from 'ws';
import { type APIConnectOptions, initializeLogger, type TTSMetrics, tts as ttslib } from '@livekit/agents';
import type { AudioFrame } from '@livekit/rtc-node';
import { type ProviderId, RouterClient, type StreamSettings } from '@router/client';
import { createOrgWithVendorKey, readE2eStack, sayOnStream, vendorSettings } from '@router/testing';
import { SPEC_VENDOR_TOKENS } from '@router/spec-facts';
import { SimControl } from '@router/vendor-sim';
import {
  type FrameSentence,
  isRouterTTSMetrics,
  type RouterTTSMetrics,
  TTS,
  type TTSOptions,
  USERDATA_SENTENCE,
} from '../src';

/**
 * The plugin driven as the framework drives a TTS, against the e2e stack's router and simulated vendors, for
 * every vendor. The framework's own TTS test helper (agents-js `plugins/test`, not published) streams a text in
 * 1-, 2- and 4-character deltas through `updateInputStream` and reads the packets up to END_OF_STREAM; this does
 * the same through the framework's public interfaces, and checks the audio against what the router itself
 * says for the same text and settings (`/v1/stream` read with the client), instead of with a speech-to-text.
 */
initializeLogger({ pretty: false, level: 'silent' });

const stack = readE2eStack();
const sim = new SimControl(stack.simUrl);
const SETTINGS = vendorSettings(stack);
/** The vendors whose `/v1/stream` sentences come with word timings (docs/stream-protocol.md, `words`). */
const WORDS = new Set<ProviderId>(['vendor_c', 'vendor_i']);
const unique = (): string => randomUUID().slice(0, 8);

interface Voice {
  options: TTSOptions;
  /** The same settings as `/v1/stream` takes them, for the router's own say. */
  settings: StreamSettings;
  sampleRate: number;
}

/** A voice for `vendor` from the shared per-vendor settings (the speech body's shape). */
async function voiceFor(vendor: ProviderId, vendorKey: string): Promise<Voice> {
  const { model, voice, language, sample_rate, instructions } = await SETTINGS[vendor](vendorKey);
  const sampleRate = sample_rate ?? 24000;
  const options = instructions === undefined ? undefined : { instructions };
  const settings: StreamSettings = {
    model,
    voice,
    ...(language === undefined ? {} : { language }),
    response_format: 'pcm',
    sample_rate: sampleRate,
    ...(options ? { options } : {}),
  };
  const tts = {
    vendor,
    model: model.split('/')[1],
    voice,
    ...(language === undefined ? {} : { language }),
    sampleRate,
    ...(options ? { options } : {}),
  } as TTSOptions;
  return { options: tts, settings, sampleRate };
}

/** A TTS on the stack's gateway whose sockets are counted. */
function routerTts(voice: Voice, key: string): { tts: TTS; sockets: () => number } {
  let sockets = 0;
  class CountedWebSocket extends WebSocket {
    constructor(url: string, options: WebSocket.ClientOptions) {
      super(url, options);
      sockets += 1;
    }
  }
  const tts = new TTS({
    ...voice.options,
    baseUrl: stack.gatewayUrl,
    apiKey: key,
    WebSocket: CountedWebSocket,
  });
  return { tts, sockets: () => sockets };
}

/** The text in 1-, 2- and 4-character deltas, as the framework's helper streams it. */
function deltas(text: string): ReadableStream<string> {
  const chunks: string[] = [];
  for (let at = 0, i = 0; at < text.length; i++) {
    const size = [1, 2, 4][i % 3];
    chunks.push(text.slice(at, at + size));
    at += size;
  }
  return new ReadableStream<string>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

interface Heard {
  packets: ttslib.SynthesizedAudio[];
  metrics: RouterTTSMetrics[];
}

/** One streamed reply through `stream()`, read to END_OF_STREAM, with the metrics it emitted. */
async function streamReply(tts: TTS, text: string, connOptions?: APIConnectOptions): Promise<Heard> {
  const metrics: RouterTTSMetrics[] = [];
  const collect = (m: TTSMetrics): void => void (isRouterTTSMetrics(m) && metrics.push(m));
  tts.on('metrics_collected', collect);
  const stream = tts.stream(connOptions ? { connOptions } : {});
  stream.updateInputStream(deltas(text));
  const packets: ttslib.SynthesizedAudio[] = [];
  try {
    for await (const packet of stream) {
      if (packet === ttslib.SynthesizeStream.END_OF_STREAM) break;
      packets.push(packet);
    }
  } finally {
    stream.close();
    tts.off('metrics_collected', collect);
  }
  // Only this reply's records (an interrupted reply before it may still report its cut sentence).
  const requestIds = new Set(packets.map((p) => p.requestId));
  return { packets, metrics: metrics.filter((m) => requestIds.has(m.requestId)) };
}

const pcmOf = (frames: AudioFrame[]): Buffer =>
  Buffer.concat(frames.map((f) => Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength)));

/** A whole text through `synthesize()`, its packets as the framework's iterator gives them. */
async function synthesized(tts: TTS, text: string): Promise<ttslib.SynthesizedAudio[]> {
  const packets: ttslib.SynthesizedAudio[] = [];
  for await (const packet of tts.synthesize(text)) packets.push(packet);
  return packets;
}

/** The first audio packet of a reply (what plays before the listener barges in). */
async function firstPacket(
  stream: AsyncIterator<ttslib.SynthesizedAudio | typeof ttslib.SynthesizeStream.END_OF_STREAM>,
): Promise<ttslib.SynthesizedAudio> {
  const next = await stream.next();
  if (next.done || next.value === ttslib.SynthesizeStream.END_OF_STREAM) throw new Error('no audio came');
  return next.value;
}

/** The words of timed transcripts (or texts), without punctuation, space-separated. */
const wordsOf = (texts: Array<string | { text: string }>): string =>
  texts
    .map((t) => (typeof t === 'string' ? t : t.text))
    .join(' ')
    .replace(/[^\w ]/g, '')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');

/** The router's own audio for `text` with these settings (a native `/v1/stream` say), sentence by sentence. */
async function routerSays(voice: Voice, key: string, text: string) {
  return sayOnStream(new RouterClient({ baseUrl: stack.gatewayUrl, apiKey: key }), voice.settings, text);
}

describe('the LiveKit Agents TTS plugin against the router (e2e, simulated vendors)', () => {
  describe.each(SPEC_VENDOR_TOKENS.map((v) => [v]))('%s', (vendor) => {
    let org: { key: string; vendorKey: string };
    let voice: Voice;

    beforeAll(async () => {
      org = await createOrgWithVendorKey(stack, vendor, `lk-${vendor}`);
      voice = await voiceFor(vendor, org.vendorKey);
    });

    it('stream(): a reply plays in order in 100 ms frames, then again wholly from the cache, byte for byte, on one connection', async () => {
      const { tts, sockets } = routerTts(voice, org.key);
      try {
        const text = `The first words for ${vendor}. A second sentence ${unique()} follows. And a third one.`;
        const before = await sim.callCount(vendor, { key: org.vendorKey });
        const first = await streamReply(tts, text);
        const calls = await sim.callCount(vendor, { key: org.vendorKey });
        const second = await streamReply(tts, text);

        const said = await routerSays(voice, org.key, text);
        expect(said.length).toBeGreaterThanOrEqual(3);
        // The router's own say of it came whole from the cache (each sentence stored once the reply spoke it).
        expect(said.map((s) => s.cached)).toEqual(said.map(() => true));
        // One framework metrics record per sentence, each saying it came from the vendor, with its characters.
        expect(first.metrics.map((m) => [m.cached, m.charactersCount])).toEqual(
          said.map((s) => [false, s.text.length]),
        );
        const frames = first.packets.map((p) => p.frame);
        expect(pcmOf(frames).equals(Buffer.concat(said.map((s) => s.audio)))).toBe(true);
        // Frames of the framework's size at the TTS's rate, mono; only the last is shorter, and final.
        expect(frames.every((f) => f.sampleRate === tts.sampleRate && f.channels === 1)).toBe(true);
        expect(frames.slice(0, -1).every((f) => f.samplesPerChannel === voice.sampleRate / 10)).toBe(true);
        expect(first.packets.map((p) => p.final)).toEqual(frames.map((_, i) => i === frames.length - 1));
        expect(first.metrics.every((m) => m.ttfbMs >= 0 && m.label === 'speech-router.TTS')).toBe(true);
        expect(calls - before).toBe(said.length);

        // Said again: every sentence from the cache, the same bytes, no vendor call.
        expect(pcmOf(second.packets.map((p) => p.frame)).equals(pcmOf(frames))).toBe(true);
        expect(second.metrics.map((m) => m.cached)).toEqual(said.map(() => true));
        const sentences = second.packets.map((p) => p.frame.userdata[USERDATA_SENTENCE] as FrameSentence);
        expect(sentences.every((s) => s.cached)).toBe(true);
        expect(await sim.callCount(vendor, { key: org.vendorKey })).toBe(calls);
        expect(sockets()).toBe(1);
      } finally {
        await tts.close();
      }
    });

    it("synthesize(): a whole text gives the vendor's audio, then the same bytes from the cache, with the framework's metrics", async () => {
      const { tts, sockets } = routerTts(voice, org.key);
      const metrics: TTSMetrics[] = [];
      tts.on('metrics_collected', (m: TTSMetrics) => void metrics.push(m));
      try {
        const text = `Synthesized whole for ${vendor}. With a second sentence ${unique()}.`;
        const before = await sim.callCount(vendor, { key: org.vendorKey });
        const first = await synthesized(tts, text);
        const calls = await sim.callCount(vendor, { key: org.vendorKey });
        // Said again, read with the framework's own collect(): one frame of the whole text.
        const again = await tts.synthesize(text).collect();
        const said = await routerSays(voice, org.key, text);

        expect(calls - before).toBe(2);
        expect(said.map((s) => s.cached)).toEqual([true, true]);
        const frames = first.map((p) => p.frame);
        expect(pcmOf(frames).equals(Buffer.concat(said.map((s) => s.audio)))).toBe(true);
        expect(frames.every((f) => f.sampleRate === voice.sampleRate && f.channels === 1)).toBe(true);
        const sentences = frames.map((f) => f.userdata[USERDATA_SENTENCE] as FrameSentence);
        expect(sentences.every((s) => !s.cached)).toBe(true);
        expect([...new Set(sentences.map((s) => s.index))]).toHaveLength(2);

        // Again: the same bytes, from the cache (no vendor call; the simulators' takes differ each time).
        expect([again.sampleRate, again.channels]).toEqual([voice.sampleRate, 1]);
        expect(pcmOf([again]).equals(pcmOf(frames))).toBe(true);
        expect(await sim.callCount(vendor, { key: org.vendorKey })).toBe(calls);

        // The framework's one record per call: its TTFB and the text's characters.
        expect(metrics.map((m) => [m.type, m.charactersCount, m.streamed])).toEqual([
          ['tts_metrics', text.length, false],
          ['tts_metrics', text.length, false],
        ]);
        expect(metrics.every((m) => m.type === 'tts_metrics' && m.ttfbMs >= 0)).toBe(true);
        expect(metrics[0].requestId).toBe(first[0].requestId);

        const timed = first.flatMap((p) => p.timedTranscripts ?? []);
        expect(timed.length > 0).toBe(WORDS.has(vendor));
        if (WORDS.has(vendor)) expect(wordsOf(timed)).toBe(wordsOf([text]));
        expect(sockets()).toBe(1);
      } finally {
        await tts.close();
      }
    });

    it('an interruption stops the reply, and the next reply on the same instance gets only its own audio', async () => {
      const { tts, sockets } = routerTts(voice, org.key);
      const metrics: RouterTTSMetrics[] = [];
      tts.on('metrics_collected', (m: TTSMetrics) => void (isRouterTTSMetrics(m) && metrics.push(m)));
      const id = unique();
      // The first sentence of each cut reply trickles in from the vendor after some audio (slower than it plays,
      // never long enough for the router to give up on it), so the interruption comes while it plays.
      const fault = await sim.injectFault({
        vendor,
        key: org.vendorKey,
        kind: 'trickle',
        afterBytes: 12000,
        trickleMs: 500,
        textIncludes: id,
        times: 2,
      });
      try {
        // stream(): the listener barges in after the first frame; the framework closes the stream.
        const stream = tts.stream();
        stream.updateInputStream(
          deltas(`This first sentence trickles ${id}. Then another sentence. And one more.`),
        );
        const cut = await firstPacket(stream);
        stream.close();
        expect(cut.frame.samplesPerChannel).toBeGreaterThan(0);
        // It ends: what the framework had queued before the close is the rest of the playing sentence only.
        const rest: Array<ttslib.SynthesizedAudio | typeof ttslib.SynthesizeStream.END_OF_STREAM> = [];
        for await (const packet of stream) rest.push(packet);
        const sentenceOf = (p: ttslib.SynthesizedAudio): number =>
          (p.frame.userdata[USERDATA_SENTENCE] as FrameSentence).index;
        expect(
          rest.filter(
            (p) =>
              p === ttslib.SynthesizeStream.END_OF_STREAM ||
              p.requestId !== cut.requestId ||
              sentenceOf(p) !== sentenceOf(cut),
          ),
        ).toEqual([]);

        const text = `The next reply for ${vendor} ${unique()}. Only this.`;
        const next = await streamReply(tts, text);
        const said = await routerSays(voice, org.key, text);
        expect(pcmOf(next.packets.map((p) => p.frame)).equals(Buffer.concat(said.map((s) => s.audio)))).toBe(
          true,
        );
        expect(next.metrics.map((m) => m.cached)).toEqual([false, false]);
        // The cut reply's one record: the sentence playing, cancelled; nothing of the sentences after it played.
        const cutRecords = metrics.filter((m) => m.requestId === cut.requestId);
        expect(cutRecords.map((m) => [m.sentence, m.cancelled])).toEqual([[sentenceOf(cut), true]]);

        // synthesize(): closed after its first frame (the framework's abort), then a whole text.
        const chunked = tts.synthesize(`A whole text that trickles ${id}. And goes on.`);
        const cutWhole = await firstPacket(chunked);
        chunked.close();
        expect(cutWhole.frame.samplesPerChannel).toBeGreaterThan(0);
        const whole = `A whole reply for ${vendor} ${unique()}. Nothing else.`;
        const wholeFrames = (await synthesized(tts, whole)).map((p) => p.frame);
        const wholeSaid = await routerSays(voice, org.key, whole);
        expect(pcmOf(wholeFrames).equals(Buffer.concat(wholeSaid.map((s) => s.audio)))).toBe(true);
        expect(sockets()).toBe(1);
      } finally {
        await sim.removeFault(fault.id);
        await tts.close();
      }
    });

    it(`word timings ${WORDS.has(vendor) ? "arrive as the framework's timed transcripts" : 'are not given'}`, async () => {
      const { tts } = routerTts(voice, org.key);
      try {
        expect(tts.capabilities.alignedTranscript).toBe(WORDS.has(vendor));
        const text = `Timed words for ${vendor} ${unique()}. Another sentence here.`;
        const { packets } = await streamReply(tts, text);
        const timed = packets.flatMap((p) => p.timedTranscripts ?? []);
        if (!WORDS.has(vendor)) {
          expect(timed).toEqual([]);
          return;
        }
        expect(wordsOf(timed)).toBe(wordsOf([text]));
        const seconds = pcmOf(packets.map((p) => p.frame)).length / 2 / voice.sampleRate;
        const starts = timed.map((t) => t.startTime ?? -1);
        expect(starts).toEqual([...starts].sort((a, b) => a - b));
        expect(starts[0]).toBeGreaterThanOrEqual(0);
        expect(timed.every((t) => (t.endTime ?? Infinity) <= seconds + 0.001)).toBe(true);
      } finally {
        await tts.close();
      }
    });
  });

  it('keeps its one connection across replies further apart than its timeouts', async () => {
    const org = await createOrgWithVendorKey(stack, 'vendor_a', 'lk-idle');
    const voice = await voiceFor('vendor_a', org.vendorKey);
    const { tts, sockets } = routerTts(voice, org.key);
    const short: APIConnectOptions = { maxRetry: 0, retryIntervalMs: 0, timeoutMs: 1000 };
    try {
      expect((await streamReply(tts, `The first reply ${unique()}.`, short)).packets.length).toBeGreaterThan(
        0,
      );
      await new Promise((resolve) => setTimeout(resolve, 1.5 * short.timeoutMs));
      const second = await streamReply(tts, `The second reply ${unique()}.`, short);
      expect(second.packets.length).toBeGreaterThan(0);
      expect(sockets()).toBe(1);
    } finally {
      await tts.close();
    }
  });
});
