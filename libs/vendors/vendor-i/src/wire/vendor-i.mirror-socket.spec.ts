import { RouterError } from '@router/contracts';
import { handshakeOf, sayOnSocket as say, sentenceEndOf, type SocketCommand } from '@router/vendors-core';
import { VendorIConnection, vendorISocketRoutes } from './vendor-i.mirror-socket';

const [route] = vendorISocketRoutes;

const base = {
  model_id: 'i_model_2',
  voice: { mode: 'id', id: 'v1' },
  output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 },
  language: 'en',
};

/** Commands at a glance: kind, context, and the text, the flush's tag or the wait's time. */
const kinds = (commands: SocketCommand[]): string[] =>
  commands.map((c) => {
    if (c.kind === 'when-quiet') return `when-quiet ${c.context} ${c.ms} ${kinds([...c.commands]).join(',')}`;
    if (!('context' in c)) return c.kind;
    const detail = c.kind === 'text' ? ` ${c.text}` : c.kind === 'flush' ? ` ${c.tag}` : '';
    return `${c.kind} ${c.context}${detail}`;
  });

const framesOf = (commands: SocketCommand[]): unknown[] =>
  commands.flatMap((c) => (c.kind === 'send' ? [JSON.parse(c.frame) as unknown] : []));

const read = (frames: (string | Buffer)[]): unknown[] =>
  frames.map((f) => JSON.parse(f.toString()) as unknown);

const end = sentenceEndOf;

describe('vendor_i mirror socket: messages to commands', () => {
  it('configures a context from its message as /v1/stream would, then buffers its text by the delay', () => {
    const c = new VendorIConnection();
    const commands = say(c, { ...base, context_id: 'a', transcript: 'Hello ', continue: true });
    expect(kinds(commands)).toEqual(['configure a', 'text a Hello ', 'when-quiet a 3000 flush a timed']);
    expect(commands[0]).toMatchObject({
      settings: {
        vendor: 'vendor_i',
        model: 'i_model_2',
        voice: 'v1',
        language: 'en',
        speed: null,
        sampleRate: 24000,
        format: 'pcm',
        options: { word_timestamps: true },
      },
    });
    // The same settings again need no configure; max_buffer_delay_ms 0 speaks the message at once.
    expect(
      kinds(
        say(c, { ...base, context_id: 'a', transcript: 'there', continue: true, max_buffer_delay_ms: 0 }),
      ),
    ).toEqual(['text a there', 'flush a timed']);
  });

  it("numbers a context's flushes from 1, ends it on continue false (an empty transcript too), and keeps contexts apart", () => {
    const c = new VendorIConnection();
    expect(
      kinds(say(c, { ...base, context_id: 'a', transcript: 'One', continue: true, flush: true })),
    ).toEqual(['configure a', 'text a One', 'flush a flush:1']);
    const slower = { ...base, generation_config: { speed: 0.8, volume: 1.5 }, context_id: 'b' };
    const b = say(c, { ...slower, transcript: 'Other', continue: true, flush: true });
    expect(kinds(b)).toEqual(['configure b', 'text b Other', 'flush b flush:1']);
    expect(b[0]).toMatchObject({ settings: { speed: 0.8, options: { volume: 1.5 } } });
    expect(
      kinds(say(c, { ...base, context_id: 'a', transcript: 'Two', continue: true, flush: true })),
    ).toEqual(['text a Two', 'flush a flush:2']);
    c.context('a');
    expect(kinds(say(c, { ...base, context_id: 'a', transcript: '', continue: false }))).toEqual([
      'finish a',
    ]);
    // The id named again is a new context.
    expect(kinds(say(c, { ...base, context_id: 'a', transcript: 'Anew' }))).toEqual([
      'configure a',
      'text a Anew',
      'finish a',
    ]);
  });

  it('keys the older speed word, a dictionary and an unknown field as the vendor reads them', () => {
    const c = new VendorIConnection();
    const [configure] = say(c, {
      ...base,
      context_id: 'a',
      transcript: 'Hi.',
      speed: 'slow',
      pronunciation_dict_id: 'd1',
      normalization: 'off',
    });
    expect(configure).toMatchObject({
      settings: { speed: 0.8, options: { pronunciation_dict_id: 'd1', normalization: 'off' } },
    });
  });

  it('speaks a context with a regional locale, configured apart from its language; refuses it beside a language', () => {
    const c = new VendorIConnection();
    const { language: _language, ...noLanguage } = base;
    const commands = say(c, { ...noLanguage, context_id: 'gb', transcript: 'Hi.', locale: 'en-GB' });
    expect(kinds(commands).slice(0, 2)).toEqual(['configure gb', 'text gb Hi.']);
    expect(commands[0]).toMatchObject({ settings: { language: 'en', options: { language: 'en-GB' } } });
    expect(framesOf(say(c, { ...base, context_id: 'both', transcript: 'Hi.', locale: 'en-GB' }))).toEqual([
      expect.objectContaining({ type: 'error', context_id: 'both', status_code: 400 }),
    ]);
  });

  it('cancels a context it knows (nothing for one it does not), and refuses what it cannot take for that context', () => {
    const c = new VendorIConnection();
    say(c, { ...base, context_id: 'a', transcript: 'Hi', continue: true });
    expect(kinds(say(c, { context_id: 'a', cancel: true }))).toEqual(['cancel a']);
    expect(say(c, { context_id: 'a', cancel: true })).toEqual([]);
    expect(
      framesOf(say(c, { ...base, context_id: 'p', transcript: 'Hi', add_phoneme_timestamps: true })),
    ).toEqual([
      expect.objectContaining({
        type: 'error',
        context_id: 'p',
        status_code: 400,
        error_code: 'invalid_request',
      }),
    ]);
    expect(framesOf(say(c, { ...base, context_id: 'm', transcript: 'Hi', model_id: 'nope' }))).toEqual([
      expect.objectContaining({ type: 'error', context_id: 'm', error_code: 'model_not_found' }),
    ]);
    expect(framesOf(say(c, { ...base, transcript: 'Hi' }))).toEqual([
      expect.objectContaining({ type: 'error', context_id: null, message: 'context_id is required' }),
    ]);
    expect(framesOf(say(c, '{"nested":' + '['.repeat(100) + ']'.repeat(100) + '}'))).toEqual([
      expect.objectContaining({ type: 'error', context_id: null, status_code: 400 }),
    ]);
  });
});

describe('vendor_i mirror socket: events to frames', () => {
  it("sends chunks, each sentence's timestamps running on across the context where asked, flush_done and done", () => {
    const c = new VendorIConnection();
    say(c, { ...base, context_id: 'a', transcript: 'Hi there. Bye.', add_timestamps: true, continue: true });
    const r = c.context('a');
    expect(read(r.audio(Buffer.from([1, 2]), { sentence: 0, first: true, cached: true }))).toEqual([
      { type: 'chunk', data: 'AQI=', step_time: 0, done: false, status_code: 200, context_id: 'a' },
    ]);
    const words = [
      { start: 0, end: 2, startMs: 0, endMs: 200 },
      { start: 3, end: 9, startMs: 250, endMs: 600 },
    ];
    expect(read(r.sentenceEnd(end({ text: 'Hi there.', words, durationMs: 700 })))).toEqual([
      {
        type: 'timestamps',
        word_timestamps: { words: ['Hi', 'there.'], start: [0, 0.25], end: [0.2, 0.6] },
        done: false,
        status_code: 200,
        context_id: 'a',
      },
    ]);
    const second = [{ start: 0, end: 4, startMs: 10, endMs: 300 }];
    expect(read(r.sentenceEnd(end({ sentence: 1, text: 'Bye.', words: second, durationMs: 400 })))).toEqual([
      expect.objectContaining({ word_timestamps: { words: ['Bye.'], start: [0.71], end: [1] } }),
    ]);
    expect(read(r.flushed('flush:2'))).toEqual([
      { type: 'flush_done', flush_done: true, flush_id: 2, done: false, status_code: 200, context_id: 'a' },
    ]);
    expect(r.flushed('timed')).toEqual([]);
    const done = { type: 'done', done: true, status_code: 200, context_id: 'a' };
    expect(read(r.finished({ kind: 'finish' }))).toEqual([done]);
    expect(
      read(r.finished({ kind: 'cancel', stopped: true, spoken: [], remaining: [], unanswered: [] })),
    ).toEqual([done]);
  });

  it("renders a context opened and ended by one message with that message's choices", () => {
    const c = new VendorIConnection();
    expect(kinds(say(c, { ...base, context_id: 'a', transcript: 'Hi.', add_timestamps: true }))).toEqual([
      'configure a',
      'text a Hi.',
      'finish a',
    ]);
    const words = [{ start: 0, end: 3, startMs: 0, endMs: 200 }];
    expect(read(c.context('a').sentenceEnd(end({ text: 'Hi.', words, durationMs: 300 })))).toEqual([
      expect.objectContaining({ type: 'timestamps', context_id: 'a' }),
    ]);
    // Forgotten once rendered: the id named again is a new context, configured afresh.
    expect(kinds(say(c, { ...base, context_id: 'a', transcript: '', continue: true, flush: true }))).toEqual([
      'configure a',
      'flush a flush:1',
    ]);
  });

  it('sends no timestamps where the client did not ask for them', () => {
    const c = new VendorIConnection();
    say(c, { ...base, context_id: 'a', transcript: 'Hi.' });
    const words = [{ start: 0, end: 3, startMs: 0, endMs: 200 }];
    expect(c.context('a').sentenceEnd(end({ text: 'Hi.', words, durationMs: 300 }))).toEqual([]);
  });

  it("answers a failed sentence with the context's error and drops the rest; a command's failure drops nothing", () => {
    const c = new VendorIConnection();
    say(c, { ...base, context_id: 'a', transcript: 'Hi.', continue: true });
    const r = c.context('a');
    const error = new RouterError('provider_rejected', 'Voice v1 was not found', { providerStatus: 404 });
    const failure = r.failed(error, { sentence: 0 });
    expect(read(failure.frames)).toEqual([
      {
        type: 'error',
        context_id: 'a',
        status_code: 404,
        done: true,
        title: 'Not Found',
        message: 'Voice v1 was not found',
        error_code: 'not_found',
        request_id: expect.any(String),
      },
    ]);
    expect(failure.drop).toEqual({});
    expect(r.finished({ kind: 'finish' })).toEqual([]);
    expect(r.failed(RouterError.badRequest('no plan')).drop).toBeUndefined();
  });

  it("passes the vendor's own error_code on where its refusal named one", () => {
    const c = new VendorIConnection();
    say(c, { ...base, context_id: 'a', transcript: 'Hi.', continue: true });
    const error = new RouterError('provider_rejected', 'Voice v1 was not found', {
      providerStatus: 404,
      providerCode: 'voice_not_found',
    });
    expect(read(c.context('a').failed(error, { sentence: 0 }).frames)).toMatchObject([
      { type: 'error', status_code: 404, title: 'Not Found', error_code: 'voice_not_found' },
    ]);
  });

  it('refuses a handshake without a version the vendor serves, and idles out after 5 minutes', () => {
    expect(
      route?.refuse?.(handshakeOf('', { headers: { 'vendor_i-version': '2026-08-14' } })),
    ).toBeUndefined();
    expect(route?.refuse?.(handshakeOf('vendor_i_version=2024-11-13'))).toBeUndefined();
    const refused = route?.refuse?.(handshakeOf());
    expect(refused?.status).toBe(400);
    expect(JSON.parse(refused?.body ?? '{}')).toMatchObject({ error_code: 'invalid_version' });
    expect(route?.idle(handshakeOf())).toEqual({ ms: 300_000, code: 1000, reason: 'idle timeout' });
  });

  it("declares the clients' openings, the version in its header and in its query form, each accepted", () => {
    expect(route?.openings).toEqual([
      { headers: { 'vendor_i-version': '2026-08-14' } },
      { query: [['vendor_i_version', '2024-06-10']] },
    ]);
    for (const opening of route?.openings ?? []) {
      const query = new URLSearchParams(
        opening.query?.map(([name, value]): [string, string] => [name, value]),
      );
      expect(route?.refuse?.({ params: [], query, headers: opening.headers ?? {} })).toBeUndefined();
    }
  });
});
