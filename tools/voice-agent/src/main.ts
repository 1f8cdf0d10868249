import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { initializeLogger } from '@livekit/agents';
import { type ProviderId, RouterClient, VENDOR_TRAITS } from '@speech-router/client';
import { API_KEY_ENV, BASE_URL_ENV, TTS, type TTSOptions } from '@speech-router/livekit-plugin';
import { runConversation } from './conversation';
import { type LocalRouter, startLocalRouter } from './local-router';
import { wavFile } from './wav-output';

/**
 * `node dist/tools/voice-agent/main.js [vendor] [voice]`: a voice agent on the framework's own test utilities, speaking
 * through the router plugin, with no LiveKit server. It uses the router at SPEECH_ROUTER_URL with the key
 * SPEECH_ROUTER_API_KEY, or else starts the standalone router (simulated vendors) and uses its demo org. The
 * replies are written as WAV files to OUT_DIR (default ./voice-agent-replies), with a summary.json of the run.
 */
async function main(): Promise<void> {
  initializeLogger({ pretty: false, level: 'warn' });
  const vendor = (process.argv[2] ?? 'vendor_c') as ProviderId;
  if (!(vendor in VENDOR_TRAITS))
    throw new Error(`Unknown vendor ${vendor}: one of ${Object.keys(VENDOR_TRAITS).join(', ')}`);
  const outDir = resolve(process.env['OUT_DIR'] ?? 'voice-agent-replies');
  let local: LocalRouter | undefined;
  let baseUrl = process.env[BASE_URL_ENV];
  let apiKey = process.env[API_KEY_ENV];
  if (!baseUrl || !apiKey) {
    process.stdout.write('Starting a local router with simulated vendors…\n');
    local = await startLocalRouter();
    ({ baseUrl, apiKey } = local);
  }
  try {
    const voice = await voiceFor(new RouterClient({ baseUrl, apiKey }), vendor, process.argv[3]);
    const tts = new TTS({ ...voice, baseUrl, apiKey });
    process.stdout.write(`Speaking with ${tts.model} at ${tts.sampleRate} Hz through ${baseUrl}\n\n`);
    const replies = await runConversation(tts);
    await tts.close();
    mkdirSync(outDir, { recursive: true });
    const files = replies.map((reply, i) => join(outDir, `${i + 1}-${reply.turn}.wav`));
    replies.forEach((reply, i) => {
      const file = files[i];
      writeFileSync(file, wavFile(reply.pcm, reply.sampleRate));
      const cached = reply.sentences.filter((s) => s.cached).length;
      const seconds = (reply.pcm.length / 2 / reply.sampleRate).toFixed(2);
      process.stdout.write(
        `${reply.turn.padEnd(6)} ${reply.sentences.length} sentence(s), ${cached} from the cache, ${seconds} s played` +
          `${reply.interrupted ? ' (interrupted)' : ''} → ${file}\n`,
      );
    });
    // What was said and with which settings, for a program that checks the run.
    const summary = replies.map(({ pcm: _pcm, ...reply }, i) => ({ ...reply, file: files[i] }));
    writeFileSync(join(outDir, 'summary.json'), `${JSON.stringify({ voice, replies: summary }, null, 2)}\n`);
  } finally {
    await local?.stop();
  }
}

/**
 * The vendor's first model with `voiceId`, else the first voice the router knows for it: the catalogue's
 * (`GET /v1/models`) or the vendor's live list (`GET /v1/voices`, vendor_a to vendor_g); a language where the
 * vendor requires one.
 */
async function voiceFor(
  router: RouterClient,
  vendor: ProviderId,
  voiceId: string | undefined,
): Promise<TTSOptions> {
  const { providers } = await router.models();
  const model = providers.find((p) => p.id === vendor)?.models[0];
  if (!model) throw new Error(`The router has no model of ${vendor}`);
  const voice = voiceId ?? model.voices?.[0] ?? (await listedVoice(router, vendor, model.id));
  const language = VENDOR_TRAITS[vendor].languageRule === 'required' ? model.languages[0] : undefined;
  // The vendor is chosen at run time, so the settings are typed as any vendor's.
  return { vendor, model: model.id, voice, ...(language ? { language } : {}) } as TTSOptions;
}

async function listedVoice(router: RouterClient, vendor: ProviderId, model: string): Promise<string> {
  if (vendor === 'vendor_h' || vendor === 'vendor_i') {
    throw new Error(`The router lists no ${vendor} voices: pass a voice id after the vendor`);
  }
  const { voices } = await router.voices({ provider: vendor, model });
  if (voices.length === 0) throw new Error(`The router lists no voice of ${vendor}/${model}`);
  return voices[0].id;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
