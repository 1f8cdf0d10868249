import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { mirrorE2e, mirrorSocketUrl, openSocket } from '@router/testing';
import { type AudioSpec, createTake } from '@router/vendor-sim';

const { stack, sim, newOrg, calls } = mirrorE2e('vendor_f');
/** The stack gateway's self-signed certificate: the one file a client is told to trust. */
const ca = readFileSync(stack.tlsCertFile);
const PCM_SPEC: AudioSpec = { codec: 'pcm', sampleRate: 16000 };

/**
 * vendor_f's clients dial `https://` and `wss://` only, and a small deployment has no ingress: through the
 * gateway's own TLS port (its certificate trusted, nothing else changed), the REST endpoint and the `/v1/tts`
 * socket answer as they do in the clear, from the same cache.
 */
describe("vendor_f mirror through the gateway's own TLS (e2e)", () => {
  const trusting = new Agent({ connect: { ca } });

  afterAll(() => trusting.close());

  async function tts(base: string, key: string, text: string, dispatcher?: Agent): Promise<Buffer> {
    const answer = await request(`${base}/vendor_f/v1/tts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text, voice: 'coral', output_format: { codec: 'pcm', sample_rate: 16000 } }),
      ...(dispatcher ? { dispatcher } : {}),
    });
    expect(answer.statusCode).toBe(200);
    return Buffer.from(await answer.body.arrayBuffer());
  }

  it("answers POST /v1/tts over HTTPS with the vendor's take, then the same bytes in the clear from the cache", async () => {
    const { key, vendorKey } = await newOrg();
    const text = `Over TLS ${randomUUID().slice(0, 8)}.`;
    const before = await calls(vendorKey);

    const secure = await tts(stack.gatewayTlsUrl, key, text, trusting);
    const takeId = (await sim.calls('vendor_f', { key: vendorKey })).at(-1)?.takeId;
    expect(secure.equals(createTake(text, PCM_SPEC, { takeId }).bytes)).toBe(true);
    const clear = await tts(stack.gatewayUrl, key, text);
    expect(clear.equals(secure)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  it('refuses a client that does not trust the certificate', async () => {
    const { key } = await newOrg();
    await expect(tts(stack.gatewayTlsUrl, key, 'Untrusted.')).rejects.toThrow(/certificate/i);
  });

  it('speaks on a wss:// /v1/tts socket as on ws://, sharing the cache', async () => {
    const { key, vendorKey } = await newOrg();
    const text = `Secure socket ${randomUUID().slice(0, 8)}.`;
    const before = await calls(vendorKey);
    const url = mirrorSocketUrl(
      stack.gatewayTlsUrl,
      'vendor_f',
      '/v1/tts',
      'voice=coral&codec=pcm&sample_rate=16000',
    );
    expect(url.startsWith('wss://localhost:')).toBe(true);

    const socket = await openSocket(url, { headers: { authorization: `Bearer ${key}` }, ca });
    socket.send({ type: 'text.delta', delta: text });
    socket.send({ type: 'text.done' });
    await socket.until((frames) => frames.some((f) => f['type'] === 'audio.done'));
    socket.close();
    const audio = Buffer.concat(
      socket.frames
        .filter((f) => f['type'] === 'audio.delta')
        .map((f) => Buffer.from(f['delta'] as string, 'base64')),
    );
    const takeId = (await sim.calls('vendor_f', { key: vendorKey })).at(-1)?.takeId;
    expect(audio.equals(createTake(text, PCM_SPEC, { takeId }).bytes)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);

    // The sentence said over wss:// is the cache's: over ws:// it comes back with no vendor call.
    const clear = await openSocket(
      mirrorSocketUrl(stack.gatewayUrl, 'vendor_f', '/v1/tts', 'voice=coral&codec=pcm&sample_rate=16000'),
      { headers: { authorization: `Bearer ${key}` } },
    );
    clear.send({ type: 'text.delta', delta: text });
    clear.send({ type: 'text.done' });
    await clear.until((frames) => frames.some((f) => f['type'] === 'audio.done'));
    clear.close();
    const replay = Buffer.concat(
      clear.frames
        .filter((f) => f['type'] === 'audio.delta')
        .map((f) => Buffer.from(f['delta'] as string, 'base64')),
    );
    expect(replay.equals(audio)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);
  });
});
