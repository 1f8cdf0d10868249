import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { Client as MinioClient } from 'minio';
import {
  type ProviderId,
  RouterApiError,
  type RouterClient,
  RouterConnectionError,
  type RouterErrorBody,
  type SpeechRequest,
} from '@router/client';
import { adminCli, createOrgClient, readE2eStack, watchWorkerTakes } from '@router/testing';
import { findTakeIds, parseWav, SimControl } from '@router/vendor-sim';

const stack = readE2eStack();
const sim = new SimControl(stack.simUrl);
/** Every sentence this file speaks, searched for in logs, rows and object names at the end. */
const spoken: string[] = [];

function reply(...sentences: string[]): string {
  const unique = sentences.map((s) => `${s.replace(/[.?!]$/, '')} ${randomUUID().slice(0, 8)}.`);
  spoken.push(...unique);
  return unique.join(' ');
}

async function speakersOf(client: RouterClient, model: string): Promise<string[]> {
  const { providers } = await client.models();
  const vendorA = providers.find((p) => p.id === 'vendor_a')!;
  return vendorA.models.find((m) => m.id === model)!.voices!;
}

/**
 * A speech call through the client: the whole audio and its content type, or the refusal. Bodies are
 * loose on purpose: the refusal tests send what the typed request would not allow.
 */
async function speak(
  client: RouterClient,
  body: Record<string, unknown>,
): Promise<{ status: number; audio: Buffer; type: string | null; error?: RouterErrorBody }> {
  try {
    const audio = await client.speech(body as SpeechRequest);
    return { status: 200, audio: Buffer.from(await audio.bytes()), type: audio.contentType };
  } catch (error) {
    if (!(error instanceof RouterApiError)) throw error;
    if (process.env.DEBUG_SPEECH) console.log(error.body);
    return { status: error.httpStatus ?? 0, audio: Buffer.alloc(0), type: null, error: error.body };
  }
}

/** A speech call whose body may be cut: what arrived and whether the body ended in error. */
async function speakAllowingAbort(
  client: RouterClient,
  body: SpeechRequest,
): Promise<{ aborted: boolean; bytes: number }> {
  const audio = await client.speech(body);
  let bytes = 0;
  try {
    for await (const chunk of audio) bytes += chunk.length;
    return { aborted: false, bytes };
  } catch (error) {
    expect(error).toBeInstanceOf(RouterConnectionError);
    return { aborted: true, bytes };
  }
}

/** A new org with a client, and a vendor key stored for it. */
async function orgWithVendorKey(
  name: string,
  vendor: ProviderId = 'vendor_a',
): Promise<{ orgId: string; key: string; vendorKey: string; client: RouterClient }> {
  const org = createOrgClient(stack, name);
  const vendorKey = `vk-${name}-${randomUUID()}`;
  expect((await org.client.providerKeys.put(vendor, vendorKey)).provider).toBe(vendor);
  return { ...org, vendorKey };
}

describe('POST /v1/audio/speech (e2e, simulated vendors, two workers)', () => {
  let voices: string[];
  let voice: string;

  beforeAll(async () => {
    voices = await speakersOf(createOrgClient(stack, 'speech-catalogue').client, 'a_model_1');
    voice = voices[0];
  });

  const base = () => ({
    model: 'vendor_a/a_model_1',
    voice,
    language: 'en-IN',
    response_format: 'wav' as const,
    sample_rate: 16000 as const,
  });

  it('says a three-sentence reply, then replays it from the cache with no vendor call and identical bytes', async () => {
    const org = await orgWithVendorKey('speech-replay');
    const input = reply('The first sentence is here.', 'A second one follows it.', 'And this is the third!');
    const takes = await watchWorkerTakes(stack, org.orgId);
    try {
      const first = await speak(org.client, { ...base(), input });
      expect(first.status).toBe(200);
      expect(first.type).toBe('audio/wav');
      const wav = parseWav(first.audio);
      expect(wav.sampleRate).toBe(16000);
      expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(3);
      expect(new Set(findTakeIds(first.audio.subarray(44))).size).toBe(3);
      const askedForTheMiss = await takes.asked();
      expect(askedForTheMiss).toBeGreaterThanOrEqual(3);

      const second = await speak(org.client, { ...base(), input });
      expect(second.status).toBe(200);
      expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(3);
      expect(second.audio.equals(first.audio)).toBe(true);
      // Served by native-api from the index: its key filter heard of the three commits (a filter that had
      // not would rule the keys out, and a worker would replay them instead).
      expect(await takes.asked()).toBe(askedForTheMiss);
    } finally {
      await takes.close();
    }

    // Usage: the characters the vendor synthesized, and as many again served from the cache.
    // The pieces' characters: the input less the two spaces between its three sentences.
    const chars = [...input].length - 2;
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      let usage: { s: number; c: number } = { s: 0, c: 0 };
      // Usage is written in batches, so one poll can see some of the sentences counted: wait for all.
      for (let i = 0; i < 40 && (usage.s < chars || usage.c < chars); i += 1) {
        await new Promise((r) => setTimeout(r, 100));
        const rows = await db.query(
          "SELECT synthesized_chars::int AS s, served_from_cache_chars::int AS c FROM usage_counters WHERE org_id = $1 AND provider = 'vendor_a'",
          [org.orgId],
        );
        usage = rows.rows[0] ?? usage;
      }
      expect(usage.s).toBe(chars);
      expect(usage.c).toBe(usage.s);
    } finally {
      await db.end();
    }
  });

  it("says a sentence longer than the vendor's input limit, cut at a word into pieces the vendor takes", async () => {
    const org = await orgWithVendorKey('speech-long');
    // 4,004 characters: within the 20,000 of the speech body, over the 2,500 vendor_a takes in one request.
    const input = `${'word '.repeat(800)}end.`;
    const said = await speak(org.client, { ...base(), input });
    expect(said.error).toBeUndefined();
    expect(said.status).toBe(200);
    expect(new Set(findTakeIds(said.audio.subarray(44))).size).toBe(2);
    const calls = await sim.calls('vendor_a', { key: org.vendorKey });
    // Both pieces are asked for at once (look-ahead), so the calls may come in either order.
    expect(calls.map((c) => c.chars).sort((x, y) => x - y)).toEqual([1504, 2499]);
  });

  it('lets running takes finish and be cached when the client leaves, and drops the pieces never asked for', async () => {
    const org = await orgWithVendorKey('speech-client-gone');
    const input = reply(
      'One goes first.',
      'Two is next.',
      'Three follows.',
      'Four waits.',
      'Five waits too.',
    );
    // The first sentence stalls at the vendor after some audio, so the client leaves while it is in progress.
    const first = input.split('. ')[0];
    const stall = await sim.injectFault({
      vendor: 'vendor_a',
      key: org.vendorKey,
      kind: 'stall',
      afterBytes: 1000,
      stallMs: 1500,
      textIncludes: first,
    });
    try {
      const abort = new AbortController();
      const audio = await org.client.speech({ ...base(), input }, { signal: abort.signal });
      const reader = audio[Symbol.asyncIterator]();
      await reader.next(); // the first audio arrived; sentences two and three are resolving ahead (LOOK_AHEAD 2)
      abort.abort();
      await expect(reader.next()).rejects.toMatchObject({ name: 'AbortError' });
      await new Promise((r) => setTimeout(r, 2500)); // the stall ends and the running take completes
      // Sentences one to three reached the vendor; four and five were never asked for.
      expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(3);
    } finally {
      await sim.removeFault(stall.id);
    }
    const again = await speak(org.client, { ...base(), input });
    expect(again.status).toBe(200);
    // Every piece went to the vendor exactly once: those running when the client left finished and were cached.
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(5);
  });

  it('calls the vendor again when any one setting changes, not when an option is sent at its default', async () => {
    const org = await orgWithVendorKey('speech-settings');
    const input = reply('Settings decide the take.');
    await speak(org.client, { ...base(), input });
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(1);
    expect((await speak(org.client, { ...base(), input, temperature: 0.6 })).status).toBe(200); // the default
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(1);
    const variants: Array<Record<string, unknown>> = [
      { speed: 1.2 },
      { sample_rate: 24000 },
      { response_format: 'pcm' },
      { temperature: 0.3 },
      { voice: voices[1] },
    ];
    let expected = 1;
    for (const change of variants) {
      const res = await speak(org.client, { ...base(), input, ...change });
      expect([JSON.stringify(change), res.status]).toEqual([JSON.stringify(change), 200]);
      expected += 1;
      expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(expected);
    }
  });

  it("never serves one org's audio to another: org B's sentence goes to the vendor with org B's key", async () => {
    const a = await orgWithVendorKey('speech-org-a');
    const b = await orgWithVendorKey('speech-org-b');
    const input = reply('Shared words, separate caches.');
    const fromA = await speak(a.client, { ...base(), input });
    const fromB = await speak(b.client, { ...base(), input });
    expect(await sim.callCount('vendor_a', { key: a.vendorKey })).toBe(1);
    expect(await sim.callCount('vendor_a', { key: b.vendorKey })).toBe(1);
    expect(fromB.audio.equals(fromA.audio)).toBe(false);
  });

  it('aborts the body on a fault in sentence 2, caches none of sentence 2, and synthesizes it afresh next time', async () => {
    const org = await orgWithVendorKey('speech-fault');
    const marker = `faultmark${randomUUID().slice(0, 6)}`;
    const input = reply('Sentence one is fine.', `Sentence two ${marker} breaks.`, 'Sentence three is fine.');
    await sim.injectFault({
      vendor: 'vendor_a',
      kind: 'cut',
      key: org.vendorKey,
      textIncludes: marker,
      afterBytes: 200,
      times: 1,
    });
    const broken = await speakAllowingAbort(org.client, { ...base(), input });
    expect(broken.aborted).toBe(true);
    const callsAfterFault = await sim.callCount('vendor_a', { key: org.vendorKey });

    const again = await speak(org.client, { ...base(), input });
    expect(again.status).toBe(200);
    const calls = await sim.calls('vendor_a', { key: org.vendorKey });
    const retried = calls.slice(callsAfterFault);
    // Only sentence two went to the vendor again: one and three (if they completed) came from the cache.
    expect(retried.length).toBeGreaterThanOrEqual(1);
    expect(retried.every((c) => c.chars === [...input.split(/(?<=\.) /)[1]].length)).toBe(true);
    const third = await speak(org.client, { ...base(), input });
    expect(third.audio.equals(again.audio)).toBe(true);
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(calls.length);
  });

  it('at retention 0 sends every sentence to the vendor and stores nothing', async () => {
    const org = await orgWithVendorKey('speech-retention0');
    expect(adminCli(stack.adminUrl, ['org', 'retention', org.orgId, '0']).code).toBe(0);
    await new Promise((r) => setTimeout(r, 1500)); // the org-settings TTL of the e2e stack
    const input = reply('Nothing is kept.', 'Not this either.');
    expect((await speak(org.client, { ...base(), input })).status).toBe(200);
    expect((await speak(org.client, { ...base(), input })).status).toBe(200);
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(4);
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const rows = await db.query('SELECT count(*)::int AS n FROM cache_entries WHERE org_id = $1', [
        org.orgId,
      ]);
      expect(rows.rows[0].n).toBe(0);
    } finally {
      await db.end();
    }
    const objects = await listObjects(`${org.orgId}/`);
    expect(objects).toEqual([]);
  });

  it('makes one vendor call for ten identical requests at once across two workers', async () => {
    const org = await orgWithVendorKey('speech-coalesce');
    // Only this org's calls wait before their first audio, so the ten requests meet while the take runs.
    const wait = await sim.injectFault({
      vendor: 'vendor_a',
      key: org.vendorKey,
      kind: 'stall',
      stallMs: 300,
      times: 'always',
    });
    try {
      const input = reply('Ten voices, one take.');
      const results = await Promise.all(
        Array.from({ length: 10 }, () => speak(org.client, { ...base(), input })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(1);
      for (const r of results) expect(r.audio.equals(results[0].audio)).toBe(true);
    } finally {
      await sim.removeFault(wait.id);
    }
  });

  it('refuses a request for a vendor the org has no key for with provider_key_missing', async () => {
    const org = createOrgClient(stack, 'speech-nokey');
    const res = await speak(org.client, { ...base(), input: reply('No key here.') });
    expect(res.status).toBe(400);
    expect(res.error).toEqual({
      code: 'provider_key_missing',
      message: expect.stringContaining('vendor_a'),
      retryable: false,
    });
  });

  it('passes a vendor refusal through as provider_rejected with the vendor status', async () => {
    const org = createOrgClient(stack, 'speech-badkey');
    await org.client.providerKeys.put('vendor_a', 'bad-key-for-vendor');
    const res = await speak(org.client, { ...base(), input: reply('Refused.') });
    expect(res.status).toBe(400);
    expect(res.error?.code).toBe('provider_rejected');
    expect(res.error?.provider_status).toBe(403);
  });

  it('refuses bad bodies with bad_request naming the field', async () => {
    const org = createOrgClient(stack, 'speech-bad');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base(), input: '' }, 'input'],
      [{ ...base(), input: 'x'.repeat(20001) }, 'input'],
      [{ ...base(), input: 'Hi.', response_format: 'flac' }, 'flac'],
      [{ ...base(), input: 'Hi.', stream_format: 'sse' }, 'stream_format'],
      [{ ...base(), input: 'Hi.', colour: 'blue' }, 'colour'],
      [
        { ...base(), model: 'vendor_b/b_model_1', input: 'Hi.', response_format: undefined, language: 'hi' },
        'mp3',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await speak(org.client, body);
      expect([field, res.status, res.error?.code]).toEqual([field, 400, 'bad_request']);
      expect(res.error?.message).toContain(field);
    }
  });

  it('replays vendor_b (SSE upstream) and vendor_c (mp3 with timings) takes byte for byte', async () => {
    const b = await orgWithVendorKey('speech-vendor-b', 'vendor_b');
    const bVoice = (await (
      await fetch(`${stack.simUrl}/vendor_b/v1/voices`, { headers: { 'x-api-key': b.vendorKey } })
    ).json()) as {
      voices: Array<{ voice_id: string; model: string; language: string }>;
    };
    const hindi = bVoice.voices.find((v) => v.model === 'b_model_1' && v.language === 'hi')!;
    const bBody = {
      model: 'vendor_b/b_model_1',
      voice: hindi.voice_id,
      language: 'hi',
      response_format: 'pcm',
      input: reply('Namaste duniya.', 'Dusra vaakya.'),
    };
    const bFirst = await speak(b.client, bBody);
    expect(bFirst.status).toBe(200);
    expect(bFirst.type).toBe('audio/pcm');
    expect(await sim.callCount('vendor_b', { key: b.vendorKey })).toBe(2);
    expect((await speak(b.client, bBody)).audio.equals(bFirst.audio)).toBe(true);
    expect(await sim.callCount('vendor_b', { key: b.vendorKey })).toBe(2);

    const c = await orgWithVendorKey('speech-vendor-c', 'vendor_c');
    const cVoices = (await (
      await fetch(`${stack.simUrl}/vendor_c/v1/voices`, { headers: { 'vendor_c-api-key': c.vendorKey } })
    ).json()) as {
      voices: Array<{ voice_id: string }>;
    };
    const cBody = {
      model: 'vendor_c/c_model_1',
      voice: cVoices.voices[0].voice_id,
      response_format: 'mp3',
      sample_rate: 44100,
      input: reply('Hello from the third vendor.'),
    };
    const cFirst = await speak(c.client, cBody);
    expect(cFirst.status).toBe(200);
    expect(cFirst.type).toBe('audio/mpeg');
    const frameStart =
      cFirst.audio.toString('latin1', 0, 3) === 'ID3' ? cFirst.audio.indexOf(Buffer.from([0xff])) : 0;
    expect(cFirst.audio[frameStart]).toBe(0xff);
    expect((cFirst.audio[frameStart + 1] & 0xe0) === 0xe0).toBe(true);
    expect((await speak(c.client, cBody)).audio.equals(cFirst.audio)).toBe(true);
    expect(await sim.callCount('vendor_c', { key: c.vendorKey })).toBe(1);
  });

  it('answers provider_timeout (504, retryable) when the vendor sends no audio in time, and caches nothing', async () => {
    const org = await orgWithVendorKey('speech-timeout');
    const marker = `stallmark${randomUUID().slice(0, 6)}`;
    await sim.injectFault({
      vendor: 'vendor_a',
      kind: 'stall',
      key: org.vendorKey,
      textIncludes: marker,
      stallMs: 8000,
      times: 1,
    });
    const input = reply(`A stalled ${marker} sentence.`);
    const res = await speak(org.client, { ...base(), input });
    expect(res.status).toBe(504);
    expect(res.error).toEqual({ code: 'provider_timeout', message: expect.any(String), retryable: true });
    const retry = await speak(org.client, { ...base(), input });
    expect(retry.status).toBe(200);
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(2);
  });

  it('removes a blob left without an index row (a worker that died before committing) at the next sweep', async () => {
    const org = await orgWithVendorKey('speech-orphan');
    const orphan = `${org.orgId}/${'ab'.repeat(32)}.audio`;
    await s3().putObject(stack.env.S3_BUCKET, orphan, Buffer.alloc(64, 7), 64);
    expect(await listObjects(`${org.orgId}/`)).toEqual([orphan]);
    // The stack's orphan grace (15 s), then a sweep (every second).
    const deadline = Date.now() + 45_000;
    while ((await listObjects(`${org.orgId}/`)).length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 250));
    expect(await listObjects(`${org.orgId}/`)).toEqual([]);
  });

  it('synthesizes afresh a sentence whose indexed blob has gone, and caches the new take under a name of its own', async () => {
    const org = await orgWithVendorKey('speech-blob-gone');
    const input = reply('This blob is removed behind the index.');
    const first = await speak(org.client, { ...base(), input });
    expect(first.status).toBe(200);
    const [firstName, ...others] = await listObjects(`${org.orgId}/`);
    expect(others).toEqual([]);
    // What a sweep racing a reader looks like: the index row is read, then its blob is not there.
    await s3().removeObject(stack.env.S3_BUCKET, firstName ?? '');

    const second = await speak(org.client, { ...base(), input });
    expect(second.status).toBe(200);
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(2);
    expect(findTakeIds(second.audio.subarray(44))).not.toEqual(findTakeIds(first.audio.subarray(44)));
    const names = await listObjects(`${org.orgId}/`);
    expect(names).toHaveLength(1);
    expect(names[0]).not.toBe(firstName);

    const third = await speak(org.client, { ...base(), input });
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(2);
    expect(third.audio.equals(second.audio)).toBe(true);
  });

  it('leaves no test sentence in any log line, database row or object name', async () => {
    expect(spoken.length).toBeGreaterThan(5);
    // Plain loops collecting what leaked, one expectation at the end: the stack's logs, rows and objects
    // are the whole shard's, too many for an expectation per value.
    const leaks: string[] = [];
    const leaked = (text: string, chars: number): boolean =>
      spoken.some((sentence) => text.includes(sentence.slice(0, chars)));
    for (const file of readdirSync(stack.logDir)) {
      if (leaked(readFileSync(join(stack.logDir, file), 'utf8'), 20)) leaks.push(`log ${file}`);
    }
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const columns = await db.query<{ table_name: string; column_name: string }>(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
      );
      for (const { table_name, column_name } of columns.rows) {
        const rows = await db.query<{ v: string | null }>(
          `SELECT "${column_name}"::text AS v FROM "${table_name}"`,
        );
        if (rows.rows.some((row) => leaked(row.v ?? '', 20)))
          leaks.push(`column ${table_name}.${column_name}`);
      }
    } finally {
      await db.end();
    }
    const names = await listObjects('');
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) if (leaked(name, 10)) leaks.push(`object ${name}`);
    expect(leaks).toEqual([]);
  });
});

function s3(): MinioClient {
  const endpoint = new URL(stack.env.S3_ENDPOINT);
  return new MinioClient({
    endPoint: endpoint.hostname,
    port: Number(endpoint.port),
    useSSL: false,
    accessKey: stack.env.S3_ACCESS_KEY,
    secretKey: stack.env.S3_SECRET_KEY,
    region: 'us-east-1',
  });
}

async function listObjects(prefix: string): Promise<string[]> {
  const names: string[] = [];
  const stream = s3().listObjects(stack.env.S3_BUCKET, prefix, true);
  for await (const item of stream as AsyncIterable<{ name?: string }>) if (item.name) names.push(item.name);
  return names;
}
