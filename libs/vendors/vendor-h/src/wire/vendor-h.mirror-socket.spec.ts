import { RouterError, type SynthSettings } from '@router/contracts';
import {
  handshakeOf,
  resolveSettings,
  sayOnSocket as say,
  sentenceEndOf,
  type SocketCommand,
} from '@router/vendors-core';
import { vendorH } from '../vendor-h.definition';
import { VendorHConnection, vendorHSocketRoutes } from './vendor-h.mirror-socket';

const [route] = vendorHSocketRoutes;
const VOICE = { voice_id: 'h1_voice_f1' };

/** A connection whose ids are `id-0` (the session), `id-1`, `id-2` … (its requests), in the order made. */
function connection(): VendorHConnection {
  let next = 0;
  return new VendorHConnection(() => `id-${next++}`);
}

/** Commands at a glance: kind, context (`-` for the connection's own), and the text or the flush's tag. */
const kinds = (commands: SocketCommand[]): string[] =>
  commands.map((c) => {
    if (!('context' in c)) return c.kind;
    const detail = c.kind === 'text' ? ` ${c.text}` : c.kind === 'flush' ? ` ${c.tag}` : '';
    return `${c.kind} ${c.context === '' ? '-' : c.context}${detail}`;
  });

const settingsOf = (commands: SocketCommand[]): SynthSettings | undefined =>
  commands.flatMap((c) => (c.kind === 'configure' ? [c.settings] : []))[0];

const framesOf = (commands: SocketCommand[]): unknown[] =>
  commands.flatMap((c) => (c.kind === 'send' || c.kind === 'refuse' ? [JSON.parse(c.frame) as unknown] : []));

const read = (frames: (string | Buffer)[]): unknown[] =>
  frames.map((f) => JSON.parse(f.toString()) as unknown);

describe('vendor_h mirror socket: messages to commands', () => {
  it('speaks a message without continue as one request: its settings, its text, then the flush ending it', () => {
    const c = connection();
    expect(c.opened()).toEqual([]);
    const commands = say(c, { ...VOICE, text: 'Hello there. How are you?' });
    expect(kinds(commands)).toEqual(['configure -', 'text - Hello there. How are you?', 'flush - id-1']);
    expect(settingsOf(commands)).toEqual({
      vendor: 'vendor_h',
      model: 'h_model_1',
      voice: 'h1_voice_f1',
      language: 'en',
      speed: 1,
      sampleRate: 24000,
      format: 'pcm',
      options: {},
    });
    // The next request on the same settings needs no configure, and gets a request id of its own.
    expect(kinds(say(c, { ...VOICE, text: 'Again.' }))).toEqual(['text - Again.', 'flush - id-2']);
  });

  it('buffers continuations until one without continue; a flush ends only the sentence in progress', () => {
    const c = connection();
    const settings = { ...VOICE, sample_rate: 16000, output_format: 'pcm' };
    expect(kinds(say(c, { ...settings, text: 'Hello ', continue: true, flush: false }))).toEqual([
      'configure -',
      'text - Hello ',
    ]);
    expect(kinds(say(c, { ...settings, text: 'there', continue: true, flush: true }))).toEqual([
      'text - there',
      'flush - flush',
    ]);
    expect(kinds(say(c, { ...settings, text: '', continue: false, flush: true }))).toEqual([
      'flush - flush',
      'flush - id-1',
    ]);
  });

  it('reads its control flags as every mirror reads a boolean: "True" and 1 too', () => {
    const c = connection();
    expect(kinds(say(c, { ...VOICE, text: 'Hello ', continue: 'True', flush: 1 }))).toEqual([
      'configure -',
      'text - Hello ',
      'flush - flush',
    ]);
    expect(kinds(say(c, { ...VOICE, text: 'there.', continue: 'false' }))).toEqual([
      'text - there.',
      'flush - id-1',
    ]);
  });

  it('configures a context again when a message changes its settings', () => {
    const c = connection();
    say(c, { ...VOICE, text: 'One. ', continue: true });
    const faster = say(c, { ...VOICE, text: 'Two.', speed: 1.5, continue: true });
    expect(kinds(faster)).toEqual(['configure -', 'text - Two.']);
    expect(settingsOf(faster)).toMatchObject({ speed: 1.5 });
  });

  it('keeps contexts apart, each with its own settings; context_close ends one, and its id opens afresh after', () => {
    const c = connection();
    const a = say(c, { ...VOICE, context_id: 'a', text: 'First of a. ', continue: true });
    const b = say(c, {
      voice_id: 'h2_voice_m1',
      model: 'h_model_2',
      language: 'ja',
      context_id: 'b',
      text: 'First of b. ',
      continue: true,
    });
    expect(kinds(a)).toEqual(['configure a', 'text a First of a. ']);
    expect(kinds(b)).toEqual(['configure b', 'text b First of b. ']);
    expect(settingsOf(b)).toMatchObject({ model: 'h_model_2', voice: 'h2_voice_m1', language: 'ja' });
    expect(kinds(say(c, { ...VOICE, context_id: 'a', text: 'Last of a.', continue: false }))).toEqual([
      'text a Last of a.',
      'flush a id-1',
    ]);
    expect(kinds(say(c, { context_id: 'b', context_close: true }))).toEqual(['finish b']);
    // A closed context is unknown: closing it again says nothing; speaking on its id opens it afresh.
    expect(say(c, { context_id: 'b', context_close: true })).toEqual([]);
    expect(kinds(say(c, { ...VOICE, context_id: 'b', text: 'New b.' }))).toEqual([
      'configure b',
      'text b New b.',
      'flush b id-3',
    ]);
    // context_close with text speaks it, then ends the context.
    expect(kinds(say(c, { ...VOICE, context_id: 'a', text: 'Bye.', context_close: true }))).toEqual([
      'text a Bye.',
      'finish a',
    ]);
  });

  it('cancels a context on cancel_request, and nothing for one it does not know', () => {
    const c = connection();
    say(c, { ...VOICE, context_id: 'x', text: 'A long sentence. ', continue: true });
    expect(kinds(say(c, { context_id: 'x', cancel_request: true }))).toEqual(['cancel x']);
    expect(say(c, { context_id: 'x', cancel_request: true })).toEqual([]);
    expect(say(c, { cancel_request: true })).toEqual([]);
  });

  it('answers a ping with a pong', () => {
    expect(framesOf(say(connection(), { type: 'ping' }))).toEqual([{ type: 'pong' }]);
  });

  it("refuses a message the vendor's parser refuses with an error for its request; the socket stays open", () => {
    const c = connection();
    const noVoice = say(c, { text: 'Hi.' });
    expect(noVoice).toEqual([{ kind: 'send', frame: expect.any(String) }]);
    expect(framesOf(noVoice)).toEqual([
      { status: 'error', message: 'voice_id is required', session_id: 'id-0' },
    ]);
    say(c, { ...VOICE, text: 'Open. ', continue: true, request_id: 'mine' });
    expect(framesOf(say(c, { ...VOICE, text: 'Bad.', sample_rate: 22050 }))).toEqual([
      {
        status: 'error',
        message: 'sample_rate must be one of 8000, 16000, 24000, 44100',
        request_id: 'id-1',
        session_id: 'id-0',
        external_request_id: 'mine',
      },
    ]);
  });

  it.each([
    ['text that is not JSON', 'not json', false],
    ['a JSON array', '[1]', false],
    ['a binary frame', '{"text":"Hi."}', true],
    ['nesting past the client-JSON limit', `{"text":"Hi.","x":${'['.repeat(40)}${']'.repeat(40)}}`, false],
  ])("answers %s with the vendor's error frame, never a close", (_label, frame, binary) => {
    const commands = connection().parse(Buffer.from(frame), binary);
    expect(commands).toEqual([{ kind: 'send', frame: expect.any(String) }]);
    expect(framesOf(commands)).toEqual([{ status: 'error', message: expect.any(String) }]);
  });

  it("closes an idle socket after the query's timeout, up to 180 s, with the vendor's idle error first", () => {
    const idle = (query: string) => route.idle(handshakeOf(query));
    expect(idle('')).toEqual({
      ms: 60_000,
      frames: [
        JSON.stringify({
          status: 'error',
          message: 'Connection timed out after 60 seconds of inactivity',
        }),
      ],
      code: 1000,
      reason: 'idle timeout',
    });
    // Only the client's messages restart the clock (the seam's default): the vendor counts inactivity so.
    expect(idle('').clock).toBeUndefined();
    expect(idle('timeout=1')).toMatchObject({ ms: 1000 });
    expect(idle('timeout=180')).toMatchObject({ ms: 180_000 });
  });

  it("refuses a timeout past 180 s, or one that is no whole number of seconds, at the handshake with the vendor's 400", () => {
    for (const query of ['timeout=181', 'timeout=0', 'timeout=1.5', 'timeout=soon']) {
      const refused = route.refuse?.(handshakeOf(query));
      expect([query, refused?.status]).toEqual([query, 400]);
      expect(JSON.parse(String(refused?.body))).toEqual({
        error: 'timeout must be an integer between 1 and 180',
      });
    }
    for (const query of ['', 'timeout=1', 'timeout=180', 'other=1']) {
      expect(route.refuse?.(handshakeOf(query))).toBeUndefined();
    }
    expect(connection().opened()).toEqual([]);
  });
});

describe('vendor_h mirror socket: settings', () => {
  const settings = (message: Record<string, unknown>) =>
    settingsOf(say(connection(), { ...message, text: 'Hi.' }));

  it("gives a message's settings those /v1/stream gives a native client's equal ones, defaults left out or spelled out", () => {
    const native = resolveSettings(
      vendorH,
      {
        model: 'h_model_2',
        voice: 'h2_voice_f1',
        language: 'hi',
        speed: 1.25,
        sampleRate: 16000,
        format: 'pcm',
        options: {},
      },
      'stream',
    );
    expect(
      settings({
        voice_id: 'h2_voice_f1',
        model: 'h_model_2',
        language: 'hi',
        speed: 1.25,
        sample_rate: 16000,
      }),
    ).toEqual(native);
    const bare = settings(VOICE);
    for (const same of [
      { ...VOICE, model: 'h_model_1', language: 'en', sample_rate: 24000, speed: 1.0, output_format: 'pcm' },
      { ...VOICE, model: null, language: null, sample_rate: null, speed: null },
    ]) {
      expect(settings(same)).toEqual(bare);
    }
  });

  it('takes any output_format the vendor takes as PCM, which its socket always sends', () => {
    expect(settings({ ...VOICE, output_format: 'wav' })).toMatchObject({ format: 'pcm' });
  });

  it('leaves the streaming controls, correlation ids and word_timestamps out of the settings', () => {
    expect(
      settings({
        ...VOICE,
        continue: true,
        flush: true,
        context_id: 'c',
        session_id: 's',
        request_id: 'r',
        word_timestamps: true,
        max_buffer_flush_ms: 100,
        max_buffer_delay_ms: 100,
        complete_backoff_ms: 0,
      }),
    ).toEqual(settings(VOICE));
  });

  it('keeps dictionaries, auto language and fields the router does not know as options, sent on to the vendor', () => {
    expect(
      settings({
        ...VOICE,
        pronunciation_dicts: ['d1', 'd2'],
        number_pronunciation_language: 'hi',
        future: 1,
      }),
    ).toMatchObject({
      options: { pronunciation_dicts: ['d1', 'd2'], number_pronunciation_language: 'hi', future: 1 },
    });
    expect(settings({ ...VOICE, language: 'auto' })).toMatchObject({
      language: 'en',
      options: { language: 'auto' },
    });
  });
});

describe('vendor_h mirror socket: events to frames', () => {
  const ids = (request: string, extra: Record<string, string> = {}) => ({
    request_id: request,
    session_id: 'id-0',
    ...extra,
  });
  const chunk = Buffer.from([1, 2, 3]);
  const at = { sentence: 0, first: true, cached: false };
  const end = sentenceEndOf({ text: 'Hi.', bytes: 3 });

  it("sends every sentence's audio as chunks, then one complete for the request at its end, with the request's ids and the client's", () => {
    const c = connection();
    say(c, { ...VOICE, context_id: 'c', text: 'Hi. Bye.', session_id: 'their-s', request_id: 'their-r' });
    const render = c.context('c');
    const tagged = ids('id-1', {
      external_request_id: 'their-r',
      external_session_id: 'their-s',
      context_id: 'c',
    });
    expect(read(render.audio(chunk, at))).toEqual([{ status: 'chunk', data: { audio: 'AQID' }, ...tagged }]);
    // A sentence's end is no frame: a client that stops at the first complete reads the whole request.
    expect(render.sentenceEnd(end)).toEqual([]);
    expect(read(render.audio(chunk, { ...at, sentence: 1 }))).toEqual([
      { status: 'chunk', data: { audio: 'AQID' }, ...tagged },
    ]);
    expect(render.sentenceEnd({ ...end, sentence: 1 })).toEqual([]);
    expect(read(render.flushed('id-1'))).toEqual([{ status: 'complete', ...tagged }]);
  });

  it('renders the requests of a context in order, each ended by one complete, a client flush ending none', () => {
    const c = connection();
    say(c, { ...VOICE, text: 'First request.' });
    say(c, { ...VOICE, text: '...' });
    say(c, { ...VOICE, text: 'Third request.' });
    const render = c.context('');
    expect(read(render.audio(chunk, at))).toMatchObject([{ status: 'chunk', request_id: 'id-1' }]);
    expect(render.flushed('flush')).toEqual([]);
    expect(render.sentenceEnd(end)).toEqual([]);
    expect(read(render.flushed('id-1'))).toEqual([{ status: 'complete', ...ids('id-1') }]);
    expect(read(render.flushed('id-2'))).toEqual([{ status: 'complete', ...ids('id-2') }]);
    expect(read(render.audio(chunk, at))).toMatchObject([{ status: 'chunk', request_id: 'id-3' }]);
    expect(read(render.flushed('id-3'))).toEqual([{ status: 'complete', ...ids('id-3') }]);
  });

  it("sends a failed sentence's error for its request and drops the rest of that request, up to its end", () => {
    const c = connection();
    say(c, { ...VOICE, text: 'Fails. Never said.', context_id: 'f' });
    say(c, { ...VOICE, text: 'The next request.', context_id: 'f' });
    const render = c.context('f');
    const failed = render.failed(new RouterError('provider_rejected', "voice_id 'x' not found"), {
      sentence: 0,
    });
    expect(failed.close).toBeUndefined();
    expect(failed.drop).toEqual({ through: 'id-1' });
    expect(read(failed.frames)).toEqual([
      { status: 'error', message: "voice_id 'x' not found", ...ids('id-1', { context_id: 'f' }) },
    ]);
    // No complete for the failed request; the next one plays.
    expect(render.flushed('id-1')).toEqual([]);
    expect(read(render.audio(chunk, at))).toMatchObject([{ status: 'chunk', request_id: 'id-2' }]);
  });

  it('drops the text a failed request is sent after its failure, and still ends it where the client does', () => {
    const c = connection();
    say(c, { ...VOICE, text: 'It fails. ', continue: true });
    c.context('').failed(new RouterError('provider_unavailable', 'boom'), { sentence: 0 });
    expect(kinds(say(c, { ...VOICE, text: 'More of it.', continue: true, flush: true }))).toEqual([
      'flush - flush',
    ]);
    expect(kinds(say(c, { ...VOICE, text: 'Its end.' }))).toEqual(['flush - id-1']);
    expect(kinds(say(c, { ...VOICE, text: 'A new request.' }))).toEqual([
      'text - A new request.',
      'flush - id-2',
    ]);
  });

  it("reports a command's failure for the newest request, dropping nothing", () => {
    const c = connection();
    say(c, { ...VOICE, text: 'First.' });
    say(c, { ...VOICE, text: 'Second.', speed: 1.5 });
    const failed = c.context('').failed(new RouterError('internal', 'cannot plan'));
    expect(failed.drop).toBeUndefined();
    expect(read(failed.frames)).toEqual([{ status: 'error', message: 'cannot plan', ...ids('id-2') }]);
  });

  it('ends a closed context with a complete for its open request, and a cancelled one with nothing', () => {
    const c = connection();
    say(c, { ...VOICE, context_id: 'closed', text: 'Said, then closed.', continue: true });
    const closed = c.context('closed');
    say(c, { context_id: 'closed', context_close: true });
    expect(read(closed.finished({ kind: 'finish' }))).toEqual([
      { status: 'complete', ...ids('id-1', { context_id: 'closed' }) },
    ]);
    say(c, { ...VOICE, context_id: 'cancelled', text: 'Stopped', continue: true });
    const render = c.context('cancelled');
    say(c, { context_id: 'cancelled', cancel_request: true });
    expect(
      render.finished({ kind: 'cancel', stopped: true, spoken: [], remaining: [], unanswered: [] }),
    ).toEqual([]);
  });
});
