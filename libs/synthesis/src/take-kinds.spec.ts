import type { ResponseHead, SynthRequestTake, SynthRequestTrailer } from '@router/contracts';
import type { DropInAnswer, DropInCall, VendorAdapter } from '@router/vendors-core';
import { Take } from './take';
import { requestTakes } from './take-kinds';

function adapterAnswering(status: number, body: string[], seen: DropInCall[] = []): VendorAdapter {
  return {
    vendor: 'vendor_c',
    contentType: () => 'audio/mpeg',
    synthesize: () => {
      throw new Error('not a sentence take');
    },
    forward: (call): Promise<DropInAnswer> => {
      seen.push(call);
      return Promise.resolve({
        status,
        headers: { 'content-type': status === 200 ? 'audio/mpeg' : 'application/json' },
        body: (async function* () {
          for (const part of body) yield Buffer.from(part);
        })(),
      });
    },
  };
}

const req: SynthRequestTake = {
  orgId: 'org',
  cacheKey: 'a'.repeat(64),
  vendor: 'vendor_c',
  chars: 3,
  cache: true,
  request: {
    method: 'POST',
    path: '/v1/text-to-speech/v1/stream',
    query: 'output_format=mp3_44100_128',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from('{"text":"Hi."}').toString('base64'),
  },
};

async function produce(adapter: VendorAdapter) {
  const take = new Take<ResponseHead, SynthRequestTrailer>();
  const produced = await requestTakes.produce(take, adapter, {
    apiKey: 'vk',
    req,
    signal: new AbortController().signal,
    onData: () => undefined,
  });
  return { take, produced };
}

describe('request takes', () => {
  it('sends the request on with its body bytes and keeps a complete 2xx answer', async () => {
    const seen: DropInCall[] = [];
    const { take, produced } = await produce(adapterAnswering(200, ['ab', 'cd'], seen));
    expect(seen[0]?.request).toMatchObject({ method: 'POST', query: 'output_format=mp3_44100_128' });
    expect(Buffer.from(seen[0]?.request.body ?? []).toString()).toBe('{"text":"Hi."}');
    expect(seen[0]?.apiKey).toBe('vk');
    expect(take.head).toEqual({ status: 200, headers: { 'content-type': 'audio/mpeg' } });
    expect(Buffer.concat(take.audio).toString()).toBe('abcd');
    expect(produced).toMatchObject({ storable: true, contentType: 'audio/mpeg' });
  });

  it('passes a refusal through without storing it', async () => {
    const { take, produced } = await produce(adapterAnswering(422, ['{"detail":"no"}']));
    expect(take.head?.status).toBe(422);
    expect(Buffer.concat(take.audio).toString()).toBe('{"detail":"no"}');
    expect(produced.storable).toBe(false);
  });

  it('stores no empty answer', async () => {
    expect((await produce(adapterAnswering(200, []))).produced.storable).toBe(false);
  });

  it('replays an entry committed without its head as 200 with its content type', async () => {
    const take = requestTakes.replay({ audio: Buffer.from('x'), contentType: 'audio/mpeg', words: null });
    expect(take.head).toEqual({ status: 200, headers: { 'content-type': 'audio/mpeg' } });
    await expect(take.result).resolves.toEqual({ cached: true });
  });
});
