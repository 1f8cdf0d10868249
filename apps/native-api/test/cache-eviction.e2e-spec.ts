import { randomUUID } from 'node:crypto';
import type { SpeechRequest } from '@router/client';
import {
  adminCli,
  call,
  createOrgWithVendorKey,
  mirrorSocketUrl,
  openSocket,
  readE2eStack,
  sayOnStream,
} from '@router/testing';
import { SimControl } from '@router/vendor-sim';

const stack = readE2eStack();
const sim = new SimControl(stack.simUrl);
const unique = (words: string): string => `${words} ${randomUUID().slice(0, 8)}.`;

const VOICE = 'h1_voice_f1';
/** vendor_h on the native surfaces, equal to its socket's `{voice_id, sample_rate: 16000}` (pcm, en). */
const native = (input: string, overrides: Partial<SpeechRequest> = {}): SpeechRequest => ({
  model: 'vendor_h/h_model_1',
  voice: VOICE,
  response_format: 'pcm',
  sample_rate: 16000,
  input,
  ...overrides,
});

const STREAM = {
  model: 'vendor_h/h_model_1',
  voice: VOICE,
  response_format: 'pcm',
  sample_rate: 16000,
} as const;

type Org = Awaited<ReturnType<typeof createOrgWithVendorKey>>;

const newOrg = (): Promise<Org> =>
  createOrgWithVendorKey(stack, 'vendor_h', `evict-${randomUUID().slice(0, 8)}`);
const calls = (org: Org): Promise<number> => sim.callCount('vendor_h', { key: org.vendorKey });

async function speak(org: Org, body: SpeechRequest): Promise<Buffer> {
  return Buffer.from(await (await org.client.speech(body)).bytes());
}

/** One sentence on vendor_h's mirror socket, as its clients say it; its audio. */
async function onSocket(org: Org, text: string): Promise<Buffer> {
  const socket = await openSocket(mirrorSocketUrl(stack.gatewayUrl, 'vendor_h', '/waves/v1/tts/live'), {
    headers: { authorization: `Bearer ${org.key}` },
  });
  socket.send({ voice_id: VOICE, text, sample_rate: 16000 });
  await socket.next((f) => f['status'] === 'complete');
  socket.close();
  return Buffer.concat(
    socket.frames
      .filter((f) => f['status'] === 'chunk')
      .map((f) => Buffer.from(f['data']['audio'] as string, 'base64')),
  );
}

/** vendor_h's mirror REST, a whole-request take. */
async function onRest(org: Org, text: string): Promise<Buffer> {
  const answer = await fetch(`${stack.gatewayUrl}/vendor_h/waves/v1/tts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text, voice_id: VOICE, output_format: 'pcm', sample_rate: 16000 }),
  });
  expect(answer.status).toBe(200);
  return Buffer.from(await answer.arrayBuffer());
}

function evict(org: Org, body: unknown) {
  return call<{ evicted?: number; error?: { code: string; message: string } }>(
    stack.gatewayUrl,
    'POST',
    '/v1/cache/evict',
    { key: org.key, body },
  );
}

/**
 * An org's evictions of its own cache (docs/cache-eviction.md), through the API and the admin CLI: by the
 * speech request that played it, by sentence (every entry of it on every surface), or all; each takes effect
 * at once on every surface (the hot tiers, whose entries otherwise live a minute, hear of it over the bus).
 */
describe('cache eviction (e2e)', () => {
  it('evicts every entry of a sentence, on every surface, and only that sentence, only that org', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const sentence = unique('The sentence to forget is here');
    const kept = unique('The sentence to keep is here');
    // The sentence on native HTTP in two formats (two entries), /v1/stream and vendor_h's socket share the pcm
    // one; vendor_h's REST stores it as a whole request of its own. Another sentence, and another org's same
    // sentence, stay.
    await speak(org, native(sentence));
    await speak(org, native(sentence, { response_format: 'wav' }));
    await onRest(org, sentence);
    await speak(org, native(kept));
    await speak(other, native(sentence));
    const before = await calls(org);
    await onSocket(org, sentence);
    expect(await calls(org)).toBe(before);

    // Whitespace runs are collapsed, as in the cache key.
    const answer = await evict(org, { sentence: `  ${sentence.replace(' ', '   ')}` });
    expect([answer.status, answer.body]).toEqual([200, { evicted: 3 }]);

    // Every surface asks the vendor again, at once (the hot tiers, which keep an entry a minute, dropped it):
    // /v1/stream first, whose take native HTTP and the socket then share; the wav entry and the REST one too.
    const [streamed] = await sayOnStream(org.client, STREAM, sentence);
    expect(streamed?.cached).toBe(false);
    expect(await calls(org)).toBe(before + 1);
    await onSocket(org, sentence);
    await speak(org, native(sentence));
    expect(await calls(org)).toBe(before + 1);
    await speak(org, native(sentence, { response_format: 'wav' }));
    await onRest(org, sentence);
    expect(await calls(org)).toBe(before + 3);
    await speak(org, native(kept));
    expect(await calls(org)).toBe(before + 3);
    const otherCalls = await calls(other);
    await speak(other, native(sentence));
    expect(await calls(other)).toBe(otherCalls);
  });

  it('evicts the entries a speech request plays, and nothing else; evicting again evicts nothing', async () => {
    const org = await newOrg();
    const texts = [unique('First of two'), unique('Second of two')];
    const request = native(texts.join(' '));
    const audio = await speak(org, request);
    await speak(org, native(texts[0] ?? '', { response_format: 'wav' }));
    const before = await calls(org);

    expect((await evict(org, { request })).body).toEqual({ evicted: 2 });
    expect((await evict(org, { request })).body).toEqual({ evicted: 0 });
    const again = await speak(org, request);
    expect(again.equals(audio)).toBe(false);
    expect(await calls(org)).toBe(before + 2);
    await speak(org, native(texts[0] ?? '', { response_format: 'wav' }));
    expect(await calls(org)).toBe(before + 2);
  });

  it('evicts all of the org’s entries, through DELETE /v1/cache and through the admin CLI', async () => {
    const org = await newOrg();
    const text = unique('Everything goes');
    await speak(org, native(text));
    await onRest(org, text);
    const before = await calls(org);

    const purged = await call<{ evicted: number }>(stack.gatewayUrl, 'DELETE', '/v1/cache', { key: org.key });
    expect([purged.status, purged.body]).toEqual([200, { evicted: 2 }]);
    await speak(org, native(text));
    await onRest(org, text);
    expect(await calls(org)).toBe(before + 2);

    const cli = adminCli(stack.adminUrl, ['cache', 'evict', org.orgId, '--all', '--json']);
    expect([cli.code, cli.json]).toEqual([0, { evicted: 2 }]);
    await speak(org, native(text));
    expect(await calls(org)).toBe(before + 3);

    const bySentence = adminCli(stack.adminUrl, ['cache', 'evict', org.orgId, '--sentence', text]);
    expect([bySentence.code, bySentence.out.trim()]).toEqual([0, 'evicted 1 cache entries']);
    const unknownOrg = adminCli(stack.adminUrl, ['cache', 'evict', randomUUID(), '--all']);
    expect(unknownOrg.code).toBe(1);
  });

  it('refuses an eviction that names nothing, several things or a bad request, naming the field', async () => {
    const org = await newOrg();
    for (const [body, names] of [
      [{}, 'exactly one of request, sentence, all'],
      [{ all: true, sentence: 'Hi.' }, 'exactly one of request, sentence, all'],
      [{ everything: true }, 'unknown field "everything"'],
      [{ all: false }, 'all must be true'],
      [{ sentence: '   ' }, 'sentence must be a text'],
      [{ request: { model: 'vendor_h/h_model_1', voice: VOICE } }, 'request: '],
    ] as const) {
      const answer = await evict(org, body);
      expect([answer.status, answer.body.error?.code]).toEqual([400, 'bad_request']);
      expect(answer.body.error?.message).toContain(names);
    }
  });

  it('is in the OpenAPI document: both operations, the body with its three forms, the answer', async () => {
    const openapi = await call(stack.gatewayUrl, 'GET', '/openapi.json');
    const evictOp = openapi.body.paths['/v1/cache/evict']?.post;
    expect(Object.keys(openapi.body.paths['/v1/cache'] ?? {})).toEqual(['delete']);
    const ref = evictOp.requestBody.content['application/json'].schema.$ref as string;
    const schema = openapi.body.components.schemas[ref.split('/').pop() ?? ''];
    expect(Object.keys(schema.properties).sort()).toEqual(['all', 'request', 'sentence']);
    const answer = evictOp.responses['200'].content['application/json'].schema.$ref as string;
    expect(Object.keys(openapi.body.components.schemas[answer.split('/').pop() ?? ''].properties)).toEqual([
      'evicted',
    ]);
  });
});
