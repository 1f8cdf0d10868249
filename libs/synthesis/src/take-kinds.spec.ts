import type {
  ResponseHead,
  SynthRequestTake,
  SynthRequestTrailer,
  SynthTakeHeader,
  SynthTakeTrailer,
} from '@router/contracts';
import {
  AUDIO_NOT_WHOLE,
  type AudioLayout,
  type DropInAnswer,
  type DropInCall,
  type DropInWire,
  jsonReply,
  NO_LABELS,
  NOT_WHOLE,
  sseAnswer,
  type SynthesisEvent,
  type VendorAdapter,
  wholeBodyAnswer,
} from '@router/vendors-core';
import { Take } from './take';
import { cacheable, pieceTakes, requestTakeKind, type Produced } from './take-kinds';

interface Answer {
  status: number;
  body: string[];
  headers?: Record<string, string>;
}

function adapterAnswering(answer: Answer, seen: DropInCall[] = []): VendorAdapter {
  return {
    vendor: 'vendor_b',
    contentType: () => 'audio/mpeg',
    synthesize: () => {
      throw new Error('not a sentence take');
    },
    forward: (call): Promise<DropInAnswer> => {
      seen.push(call);
      return Promise.resolve({
        status: answer.status,
        headers: answer.headers ?? {
          'content-type': answer.status === 200 ? 'audio/mpeg' : 'application/json',
        },
        body: (async function* () {
          for (const part of answer.body) yield Buffer.from(part);
        })(),
      });
    },
  };
}

/**
 * A wire as a vendor with an event stream writes it: `/stream` answers with `chunk` events and a final `done`
 * (an `error` event once the stream began), replayed without `step_time`; `x-request-id` is live only.
 */
const wire: DropInWire = {
  endpoints: [],
  keying: () => ({ cacheable: false }),
  labels: () => NO_LABELS,
  headers: {
    keyed: [],
    passed: ['content-type', 'x-request-id'],
    liveOnly: ['x-request-id'],
  },
  readAnswer: (request) =>
    request.path.endsWith('/stream')
      ? sseAnswer({
          event: ({ event }) => (event === 'done' ? 'final' : event === 'error' ? 'error' : 'part'),
          stored: (event) => {
            if (event.event !== 'chunk') return event;
            const { step_time: _time, ...rest } = JSON.parse(event.data) as Record<string, unknown>;
            return { event: event.event, data: JSON.stringify(rest) };
          },
        })
      : wholeBodyAnswer(),
  invalidBody: () => jsonReply(422, {}),
};

const kind = requestTakeKind((vendor) => (vendor === 'vendor_b' ? wire : undefined));

function request(path = '/v1/text-to-speech'): SynthRequestTake {
  return {
    orgId: 'org',
    cacheKey: 'a'.repeat(64),
    vendor: 'vendor_b',
    chars: 3,
    cache: true,
    request: {
      method: 'POST',
      path,
      query: 'codec=mp3',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"text":"Hi."}').toString('base64'),
    },
  };
}

async function produce(
  adapter: VendorAdapter,
  req = request(),
): Promise<{ take: Take<ResponseHead, SynthRequestTrailer>; produced: Produced }> {
  const take = new Take<ResponseHead, SynthRequestTrailer>();
  const produced = await kind.produce(take, adapter, {
    apiKey: 'vk',
    req,
    signal: new AbortController().signal,
    onData: () => undefined,
  });
  return { take, produced };
}

const SSE = { 'content-type': 'text/event-stream', 'x-request-id': 'req-1', 'set-cookie': 'a=b' };
const chunk = (data: string) => `event: chunk\ndata: {"data":"${data}","step_time":41.7}\n\n`;
const done = 'event: done\ndata: {"done":true}\n\n';

describe('request takes', () => {
  it('sends the request on with its body bytes and keeps a complete 2xx answer', async () => {
    const seen: DropInCall[] = [];
    const { take, produced } = await produce(adapterAnswering({ status: 200, body: ['ab', 'cd'] }, seen));
    expect(seen[0]?.request).toMatchObject({ method: 'POST', query: 'codec=mp3' });
    expect(Buffer.from(seen[0]?.request.body ?? []).toString()).toBe('{"text":"Hi."}');
    expect(seen[0]?.apiKey).toBe('vk');
    expect(take.head).toEqual({ status: 200, headers: { 'content-type': 'audio/mpeg' } });
    expect(Buffer.concat(take.audio).toString()).toBe('abcd');
    expect(produced).toMatchObject({ storable: true, contentType: 'audio/mpeg' });
    expect(produced.notWhole).toBeUndefined();
  });

  it('passes the headers the wire passes on live, and stores the head without its live-only ones', async () => {
    const { take, produced } = await produce(
      adapterAnswering({ status: 200, body: [chunk('QQ'), done], headers: SSE }),
      request('/v1/text-to-speech/stream'),
    );
    expect(take.head).toEqual({
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req-1' },
    });
    expect(produced.head).toEqual({ status: 200, headers: { 'content-type': 'text/event-stream' } });
  });

  it("stores a whole event stream in the wire's stored form, while the take keeps what the vendor sent", async () => {
    const sent = [chunk('QQ').slice(0, 20), chunk('QQ').slice(20) + chunk('Qg'), done];
    const { take, produced } = await produce(
      adapterAnswering({ status: 200, body: sent, headers: SSE }),
      request('/v1/text-to-speech/stream'),
    );
    expect(produced.storable).toBe(true);
    const body = Buffer.concat(take.audio);
    expect(body.toString()).toBe(sent.join(''));
    expect(produced.storedBody?.(body).toString()).toBe(
      `event: chunk\ndata: {"data":"QQ"}\n\nevent: chunk\ndata: {"data":"Qg"}\n\n${done}`,
    );
  });

  it('passes an event stream with an error inside it on as it came, and stores none of it', async () => {
    const sent = [chunk('QQ'), 'event: error\ndata: {"status_code":500}\n\n'];
    const { take, produced } = await produce(
      adapterAnswering({ status: 200, body: sent, headers: SSE }),
      request('/v1/text-to-speech/stream'),
    );
    expect(Buffer.concat(take.audio).toString()).toBe(sent.join(''));
    expect(produced).toMatchObject({ storable: false, notWhole: NOT_WHOLE.error });
  });

  it('stores none of an event stream that ended before its final event', async () => {
    const { produced } = await produce(
      adapterAnswering({ status: 200, body: [chunk('QQ'), chunk('Qg')], headers: SSE }),
      request('/v1/text-to-speech/stream'),
    );
    expect(produced).toMatchObject({ storable: false, notWhole: NOT_WHOLE.noFinal });
  });

  it('passes a refusal through without reading or storing it', async () => {
    const { take, produced } = await produce(
      adapterAnswering({ status: 422, body: ['{"detail":"no"}'] }),
      request('/v1/text-to-speech/stream'),
    );
    expect(take.head?.status).toBe(422);
    expect(Buffer.concat(take.audio).toString()).toBe('{"detail":"no"}');
    expect(produced.storable).toBe(false);
    expect(produced.notWhole).toBeUndefined();
  });

  it('stores no empty answer', async () => {
    expect((await produce(adapterAnswering({ status: 200, body: [] }))).produced.storable).toBe(false);
  });

  it('fails a take of a vendor without a drop-in wire', async () => {
    await expect(
      produce(adapterAnswering({ status: 200, body: ['ab'] }), { ...request(), vendor: 'vendor_e' }),
    ).rejects.toMatchObject({ code: 'internal' });
  });

  it('replays an entry committed without its head as 200 with its content type', async () => {
    const take = kind.replay({ audio: Buffer.from('x'), contentType: 'audio/mpeg', words: null });
    expect(take.head).toEqual({ status: 200, headers: { 'content-type': 'audio/mpeg' } });
    await expect(take.result).resolves.toEqual({ cached: true });
  });
});

describe('sentence takes', () => {
  function speaking(events: SynthesisEvent[], layout?: AudioLayout): VendorAdapter {
    return {
      vendor: 'vendor_a',
      contentType: () => 'audio/pcm',
      synthesize: async function* () {
        yield* events;
      },
      ...(layout ? { audioLayout: () => layout } : {}),
    };
  }
  /** One second of 16-bit samples at 16 kHz: whole, and far longer than `Namaste.` can be spoken. */
  const SECOND = Buffer.alloc(32_000, 1);

  async function produceSentence(adapter: VendorAdapter, format = 'pcm') {
    const take = new Take<SynthTakeHeader, SynthTakeTrailer>();
    take.open({ contentType: 'audio/pcm' });
    const produced = await pieceTakes.produce(take, adapter, {
      apiKey: 'vk',
      req: {
        orgId: 'org',
        cacheKey: 'c'.repeat(64),
        settings: {
          vendor: 'vendor_a',
          model: 'a_model_1',
          voice: 'v',
          language: 'hi-IN',
          speed: 1,
          sampleRate: 16000,
          format,
          options: {},
        },
        text: 'Namaste.',
        cache: true,
      },
      signal: new AbortController().signal,
      onData: () => undefined,
    });
    return { take, produced };
  }

  it("keeps the vendor's warning about a take it spoke whole, for the listener's trailer", async () => {
    const warning = { code: 'not_found_error', message: 'Pronunciation dictionary not found' };
    const { take, produced } = await produceSentence(
      speaking([
        { kind: 'warning', warning },
        { kind: 'audio', data: SECOND },
      ]),
    );
    expect(Buffer.concat(take.audio).equals(SECOND)).toBe(true);
    expect(produced).toMatchObject({ storable: true, warning });
    expect(pieceTakes.result(produced, false)).toEqual({ words: null, chars: null, cached: false, warning });
    // Its usage is counted as synthesized (storable), yet it never enters the cache.
    expect(cacheable(produced)).toBe(false);
  });

  it('has no warning for a take the vendor reported nothing about', async () => {
    const { produced } = await produceSentence(speaking([{ kind: 'audio', data: SECOND }]));
    expect(produced.warning).toBeUndefined();
    expect(pieceTakes.result(produced, true)).toEqual({ words: null, chars: null, cached: true });
    expect(cacheable(produced)).toBe(true);
  });

  it('fails a take whose body ended cleanly but early: less audio than its text needs, or inside a sample', async () => {
    for (const audio of [SECOND.subarray(0, 400), SECOND.subarray(0, 32_001 - 2)]) {
      await expect(produceSentence(speaking([{ kind: 'audio', data: audio }]))).rejects.toMatchObject({
        code: 'provider_unavailable',
        message: expect.stringContaining('ended early'),
      });
    }
  });

  it("reads the audio in the adapter's layout where the vendor has formats of its own", async () => {
    const float = { kind: 'samples', sampleRate: 16000, frameBytes: 4 } as const;
    // 32,002 bytes: whole 16-bit samples, but not whole 32-bit ones.
    const odd = Buffer.alloc(32_002);
    await expect(produceSentence(speaking([{ kind: 'audio', data: odd }]), 'pcm')).resolves.toMatchObject({
      produced: { storable: true },
    });
    await expect(
      produceSentence(speaking([{ kind: 'audio', data: odd }], float), 'pcm_f32le'),
    ).rejects.toMatchObject({ code: 'provider_unavailable' });
  });

  it('plays a take in a format nothing can tell whole, and never stores it', async () => {
    const { produced } = await produceSentence(speaking([{ kind: 'audio', data: SECOND }]), 'speex');
    expect(produced).toMatchObject({ storable: false, notWhole: AUDIO_NOT_WHOLE.unknown });
    expect(cacheable(produced)).toBe(false);
  });
});
