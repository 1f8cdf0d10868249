import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import {
  createOrgWithKey,
  createScratchDatabase,
  migrateScratchDatabase,
  REPO_ROOT,
  type RunningStack,
  type ScratchDatabase,
  servicesEnv,
  startStack,
  waitFor,
} from '@router/testing';

/**
 * Clients that go away mid-audio are normal traffic: an operator's error log holds the router's own failures.
 * A stack of this file's own (its logs are only this file's traffic; one worker, so a test can kill it) with
 * vendors paced in real time, so that every cut lands while audio is still flowing.
 */
let db: ScratchDatabase;
let stack: RunningStack;
let logDir: string;
let key: string;
let voiceC: string;

/** Every text said here, none of which may appear in a log line. */
const texts: string[] = [];
const SAID = 'goes on for a little while';
function sentence(what: string): string {
  const text = `The ${what} sentence ${randomUUID().slice(0, 8)} ${SAID}.`;
  texts.push(text);
  return text;
}

type LogLine = { level: string; msg: string; service: string; [field: string]: unknown };

/** Every JSON line the router's apps logged (the simulated vendors are not the router). */
function routerLog(): LogLine[] {
  return readdirSync(logDir)
    .filter((file) => file.endsWith('.log') && file !== 'vendor-sim.log')
    .flatMap((file) => readFileSync(join(logDir, file), 'utf8').split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

const ABOVE_INFO = new Set(['warn', 'error', 'fatal']);

beforeAll(async () => {
  logDir = join(REPO_ROOT, 'tmp', 'e2e', 'client-disconnects');
  rmSync(logDir, { recursive: true, force: true }); // the apps append: only this run's lines
  mkdirSync(logDir, { recursive: true });
  const services = servicesEnv();
  db = await createScratchDatabase('disconnects');
  await migrateScratchDatabase(db);
  stack = await startStack({
    databaseUrl: db.url,
    natsUrl: services.natsUrl,
    s3: { ...services.s3, bucket: `router-disconnects-${db.name.slice(-8)}` },
    logDir,
    workers: 1,
    env: { SIM_PACING: '1', SIM_TTFA_MS: '50', SYNTH_FIRST_AUDIO_TIMEOUT_MS: '10000' },
  });
  ({ key } = createOrgWithKey(stack.adminUrl, 'disconnects'));
  for (const vendor of ['vendor_a', 'vendor_c']) {
    const stored = await fetch(`${stack.gatewayUrl}/v1/provider-keys/${vendor}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: `vk-${randomUUID()}` }),
    });
    expect(stored.status).toBe(200);
  }
  // A loaded machine can make the mirror lag behind the gateway's signature: that answer is a retryable 503,
  // which a client tries again, as this setup does.
  let listed: { status: number; body: string } | undefined;
  await waitFor('the vendor_c voice list', async () => {
    const answer = await fetch(`${stack.gatewayUrl}/vendor_c/v1/voices`, {
      headers: { 'vendor_c-api-key': key },
    });
    listed = { status: answer.status, body: await answer.text() };
    return answer.status !== 503;
  });
  expect(listed).toMatchObject({ status: 200 }); // on failure, the diff shows the answer's body
  voiceC = (JSON.parse(listed!.body) as { voices: Array<{ voice_id: string }> }).voices[0].voice_id;
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await db?.drop();
}, 60_000);

/** An HTTP request cut by its client once the first audio arrived; then said again and heard whole. */
async function cutThenWhole(path: string, headers: Record<string, string>, body: unknown): Promise<void> {
  const request = (signal?: AbortSignal) =>
    fetch(`${stack.gatewayUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  const cut = new AbortController();
  const answer = await request(cut.signal);
  expect(answer.status).toBe(200);
  const first = await answer.body!.getReader().read();
  expect(first.value?.length).toBeGreaterThan(0);
  cut.abort();
  // The cut take finishes at the worker and is shared or replayed: the same request again is heard whole.
  const again = await request();
  expect(again.status).toBe(200);
  expect((await again.arrayBuffer()).byteLength).toBeGreaterThan(first.value!.length);
}

/** A socket closed abruptly by its client once audio arrived; `whole` then says the same again to the end. */
async function socketCut(
  url: string,
  headers: Record<string, string>,
  messages: readonly unknown[],
  isAudio: (data: Buffer, binary: boolean) => boolean,
): Promise<void> {
  const ws = new WebSocket(url, { headers });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const audio = new Promise<void>((resolve) =>
    ws.on('message', (data: Buffer, binary: boolean) => {
      if (isAudio(data, binary)) resolve();
    }),
  );
  for (const message of messages) ws.send(JSON.stringify(message));
  await audio;
  ws.terminate();
}

/** Says `messages` on a socket and waits until the router closes it (the reply's end). */
async function socketWhole(url: string, headers: Record<string, string>, messages: readonly unknown[]) {
  const ws = new WebSocket(url, { headers });
  const closed = new Promise<number>((resolve) => ws.once('close', (code: number) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  for (const message of messages) ws.send(JSON.stringify(message));
  return closed;
}

describe('client disconnects (e2e, a stack of its own)', () => {
  it('logs nothing above info when clients cut requests and sockets mid-audio on every surface', async () => {
    const native = { authorization: `Bearer ${key}` };
    const speech = {
      model: 'vendor_a/a_model_1',
      voice: 'aarila',
      language: 'en-IN',
      response_format: 'pcm',
      input: `${sentence('first speech')} ${sentence('second speech')}`,
    };
    await cutThenWhole('/v1/audio/speech', native, speech);

    const mirror = { 'vendor_c-api-key': key };
    await cutThenWhole(`/vendor_c/v1/text-to-speech/${voiceC}/stream?output_format=pcm_16000`, mirror, {
      text: sentence('mirror stream'),
    });

    const wsBase = stack.gatewayUrl.replace(/^http/, 'ws');
    const streamMessages = [
      {
        type: 'settings',
        model: 'vendor_a/a_model_1',
        voice: 'aarila',
        language: 'en-IN',
        response_format: 'pcm',
      },
      { type: 'text', text: `${sentence('first stream')} ${sentence('second stream')} ` },
    ];
    await socketCut(
      `${wsBase}/v1/stream`,
      native,
      [...streamMessages, { type: 'flush' }],
      (_d, binary) => binary,
    );
    expect(await socketWhole(`${wsBase}/v1/stream`, native, [...streamMessages, { type: 'close' }])).toBe(
      1000,
    );

    const inputUrl = `${wsBase}/vendor_c/v1/text-to-speech/${voiceC}/stream-input?model_id=c_model_1&output_format=pcm_16000`;
    const inputText = `${sentence('first socket')} ${sentence('second socket')} `;
    await socketCut(inputUrl, mirror, [{ text: ' ' }, { text: inputText, flush: true }], (data) =>
      data.toString().includes('"audio":"'),
    );
    expect(await socketWhole(inputUrl, mirror, [{ text: ' ' }, { text: inputText }, { text: '' }])).toBe(
      1000,
    );

    // Each cut was seen and said in the log, at info.
    await waitFor('the cut requests and closed sockets in the log', async () => {
      const lines = routerLog();
      return (
        lines.filter((l) => l.msg === 'request cut by the client').length >= 2 &&
        lines.filter((l) => l.msg === 'socket closed' && l['code'] === 1006).length >= 2
      );
    });
    const loud = routerLog().filter((line) => ABOVE_INFO.has(line.level));
    expect(loud.map((l) => `${l.service} ${l.level} ${l.msg}`)).toEqual([]);
    const logged = readdirSync(logDir)
      .filter((file) => file.endsWith('.log'))
      .map((file) => readFileSync(join(logDir, file), 'utf8'))
      .join('\n');
    expect(logged).not.toContain(SAID);
    for (const text of texts) expect(logged).not.toContain(text.slice(0, text.indexOf(SAID)));
  }, 120_000);

  it("still logs the router's own failure at error: its only worker killed mid-audio", async () => {
    const answer = await fetch(
      `${stack.gatewayUrl}/vendor_c/v1/text-to-speech/${voiceC}/stream?output_format=pcm_16000`,
      {
        method: 'POST',
        headers: { 'vendor_c-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({
          text: [1, 2, 3, 4].map((n) => sentence(`worker ${n}`)).join(' '),
        }),
      },
    );
    expect(answer.status).toBe(200);
    const reader = answer.body!.getReader();
    await reader.read();
    await stack.kill('synthesis-worker');
    await expect(
      (async () => {
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read());
      })(),
    ).rejects.toThrow();
    await waitFor('the failure at error level', async () =>
      routerLog().some((l) => l.level === 'error' && l.msg === 'mirror request failed'),
    );
    expect(
      routerLog()
        .filter((l) => l.level === 'error')
        .map((l) => `${l.service} ${l.msg}`),
    ).toEqual(['mirror-vendor-c mirror request failed']);
  }, 60_000);
});
