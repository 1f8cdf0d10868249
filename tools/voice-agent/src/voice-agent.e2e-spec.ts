import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ProviderId, RouterClient, type StreamSettings } from '@router/client';
import {
  createOrgWithVendorKey,
  readE2eStack,
  REPO_ROOT,
  sayOnStream,
  vendorSettings,
} from '@router/testing';
import { SPEC_VENDOR_TOKENS } from '@router/spec-facts';
import { REPLIES } from './conversation';

/**
 * The example agent as a user runs it (`node dist/tools/voice-agent/main.js <vendor>`: the framework's
 * AgentSession and FakeLLM, the plugin as its TTS, no LiveKit server) against the e2e stack's router, for
 * every vendor: the replies it wrote are checked against what the router itself says for each reply's text.
 */
const stack = readE2eStack();
const RUN_TIMEOUT_MS = 60_000;
/** The run's own bound, and the router's says to compare with after it: a slow machine meets the first, not Jest's. */
const TEST_TIMEOUT_MS = RUN_TIMEOUT_MS + 30_000;

interface Summary {
  voice: { vendor: ProviderId; model: string; voice: string; language?: string };
  replies: Array<{
    turn: keyof typeof REPLIES;
    interrupted: boolean;
    sentences: Array<{ cached: boolean }>;
    file: string;
  }>;
}

/** Runs the example to its end; rejects with what it printed if it fails. */
function runExample(args: string[], key: string, outDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'dist/tools/voice-agent/main.js'), ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        SPEECH_ROUTER_URL: stack.gatewayUrl,
        SPEECH_ROUTER_API_KEY: key,
        OUT_DIR: outDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(printed);
      else reject(new Error(`the example exited with ${code}:\n${printed}`));
    });
  });
}

describe('the example voice agent (e2e, simulated vendors)', () => {
  it.each(SPEC_VENDOR_TOKENS.map((v) => [v]))(
    '%s: replies in order, a repeat from the cache, an interruption that leaves nothing for the next reply',
    async (vendor: ProviderId) => {
      const org = await createOrgWithVendorKey(stack, vendor, `agent-${vendor}`);
      const outDir = mkdtempSync(join(tmpdir(), 'voice-agent-e2e-'));
      // The router lists no vendor_h or vendor_i voices: those take one from the simulator's own list.
      const voice = ['vendor_h', 'vendor_i'].includes(vendor)
        ? [(await vendorSettings(stack)[vendor](org.vendorKey)).voice]
        : [];
      const printed = await runExample([vendor, ...voice], org.key, outDir);
      const summary = JSON.parse(readFileSync(join(outDir, 'summary.json'), 'utf8')) as Summary;
      const pcm = (file: string): Buffer => readFileSync(file).subarray(44);
      const settings: StreamSettings = {
        model: `${vendor}/${summary.voice.model}`,
        voice: summary.voice.voice,
        ...(summary.voice.language ? { language: summary.voice.language } : {}),
        response_format: 'pcm',
        sample_rate: 24000,
      };
      const router = new RouterClient({ baseUrl: stack.gatewayUrl, apiKey: org.key });
      const says = async (text: string) =>
        Buffer.concat((await sayOnStream(router, settings, text)).map((s) => s.audio));
      const [hello, again, story, after] = summary.replies;

      expect(printed).toContain(`Speaking with ${vendor}/${summary.voice.model} at 24000 Hz`);
      expect(summary.replies.map((r) => [r.turn, r.interrupted])).toEqual([
        ['hello', false],
        ['again', false],
        ['story', true],
        ['after', false],
      ]);
      expect(hello.sentences.map((s) => s.cached)).toEqual([false, false, false]);
      expect(pcm(hello.file).equals(await says(REPLIES.hello))).toBe(true);
      // The same reply again: every sentence from the cache, the same audio.
      expect(again.sentences.map((s) => s.cached)).toEqual([true, true, true]);
      expect(pcm(again.file).equals(pcm(hello.file))).toBe(true);
      // The story stopped early: what played is the start of its audio, and only that. The router keeps the
      // story's sentences whose takes had ended before the interruption; a take it cut is not cached and is said
      // again as a new take, so the bytes are compared over the kept sentences only.
      const storyHeard = await sayOnStream(router, settings, REPLIES.story);
      const wholeStory = Buffer.concat(storyHeard.map((s) => s.audio));
      const firstCut = storyHeard.findIndex((s) => !s.cached);
      const kept = Buffer.concat(
        storyHeard.slice(0, firstCut < 0 ? storyHeard.length : firstCut).map((s) => s.audio),
      );
      const played = pcm(story.file);
      expect(played.length).toBeGreaterThan(0);
      expect(played.length).toBeLessThan(wholeStory.length);
      const compared = Math.min(played.length, kept.length);
      expect(kept.subarray(0, compared).equals(played.subarray(0, compared))).toBe(true);
      // The reply after the interruption has its own audio and nothing of the story's.
      expect(after.sentences.map((s) => s.cached)).toEqual([false, false]);
      expect(pcm(after.file).equals(await says(REPLIES.after))).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
