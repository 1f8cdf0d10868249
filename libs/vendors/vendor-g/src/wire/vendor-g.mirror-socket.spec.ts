import { RouterError } from '@router/contracts';
import {
  handshakeOf,
  sentenceEndOf,
  type SocketCommand,
  type SocketConnection,
  type SocketContextRenderer,
} from '@router/vendors-core';
import { vendorGSocketRoutes } from './vendor-g.mirror-socket';

const [route] = vendorGSocketRoutes;
const CONFIG = {
  model: 'g_model_3',
  language: 'en',
  voice: 'Maren',
  audio_format: 'pcm_s16le',
  sample_rate: 24000,
};

function connect(): SocketConnection {
  if (!route) throw new Error('vendor_g has one socket');
  return route.open(handshakeOf());
}

const say = (c: SocketConnection, message: unknown): SocketCommand[] =>
  c.parse(Buffer.from(JSON.stringify(message)), false);

/** Commands at a glance: their kind and context, a text's text, a flush's tag, a frame sent. */
const kinds = (commands: readonly SocketCommand[]) =>
  commands.map((c) => {
    switch (c.kind) {
      case 'text':
        return `text ${c.context} ${c.text}`;
      case 'flush':
        return `flush ${c.context} ${c.tag ?? ''}`.trim();
      case 'send':
      case 'refuse':
        return `${c.kind} ${c.frame}`;
      default:
        return 'context' in c ? `${c.kind} ${c.context}` : c.kind;
    }
  });

const frames = (sent: readonly (string | Buffer)[]) => sent.map((f) => JSON.parse(String(f)) as unknown);

/** The frames a command list sends at once (`send` commands), read back. */
const sent = (commands: readonly SocketCommand[]) =>
  commands.flatMap((c) => (c.kind === 'send' || c.kind === 'refuse' ? [JSON.parse(c.frame) as unknown] : []));

/** Opens a stream and returns its renderer, as the session creates it at the stream's first command. */
function open(
  c: SocketConnection,
  id: string,
  config: Record<string, unknown> = CONFIG,
): SocketContextRenderer {
  expect(kinds(say(c, { ...config, stream_id: id }))).toEqual([`configure ${id}`]);
  return c.context(id);
}

describe('vendor_g mirror socket', () => {
  it('opens a stream with its config, speaks its text and answers text_end with audio_end and terminated', () => {
    const c = connect();
    expect(c.opened()).toEqual([]);
    const [configure] = say(c, { ...CONFIG, stream_id: 's1' });
    expect(configure).toMatchObject({
      kind: 'configure',
      context: 's1',
      settings: { vendor: 'vendor_g', model: 'g_model_3', voice: 'Maren', format: 'pcm', sampleRate: 24000 },
    });
    const render = c.context('s1');
    expect(kinds(say(c, { stream_id: 's1', text: 'Hello there. ', text_end: false }))).toEqual([
      'text s1 Hello there. ',
    ]);
    expect(kinds(say(c, { stream_id: 's1', text: 'Bye.', text_end: true }))).toEqual([
      'text s1 Bye.',
      'flush s1 text_end',
    ]);
    expect(frames(render.audio(Buffer.from([1, 2, 3]), { sentence: 0, first: true, cached: false }))).toEqual(
      [{ stream_id: 's1', audio: 'AQID' }],
    );
    expect(render.sentenceEnd(sentenceEndOf({ text: 'Hello there.', bytes: 3 }))).toEqual([]);
    expect(frames(render.flushed('text_end'))).toEqual([
      { stream_id: 's1', audio: '', audio_end: true },
      { stream_id: 's1', terminated: true },
    ]);
    // The id is free again; the ended stream's context is released at the next message.
    expect(kinds(say(c, { ...CONFIG, stream_id: 's1' }))).toEqual(['cancel s1', 'configure s1']);
  });

  it('keeps two interleaved streams apart, each with its own settings', () => {
    const c = connect();
    const a = say(c, { ...CONFIG, stream_id: 'a' });
    const b = say(c, { ...CONFIG, stream_id: 'b', voice: 'Tobin', audio_format: 'mp3', speed: 1.2 });
    expect(a).toMatchObject([{ context: 'a', settings: { voice: 'Maren', format: 'pcm', speed: 1 } }]);
    expect(b).toMatchObject([{ context: 'b', settings: { voice: 'Tobin', format: 'mp3', speed: 1.2 } }]);
    expect(kinds(say(c, { stream_id: 'a', text: 'One. ' }))).toEqual(['text a One. ']);
    expect(kinds(say(c, { stream_id: 'b', text: 'Two. ', text_end: true }))).toEqual([
      'text b Two. ',
      'flush b text_end',
    ]);
    expect(kinds(say(c, { stream_id: 'a', text: 'Three.', text_end: true }))).toEqual([
      'text a Three.',
      'flush a text_end',
    ]);
    expect(
      frames(c.context('b').audio(Buffer.from([9]), { sentence: 0, first: true, cached: false })),
    ).toEqual([{ stream_id: 'b', audio: 'CQ==' }]);
  });

  it('answers a cancel with terminated alone once the stream has stopped, and frees the id', () => {
    const c = connect();
    const render = open(c, 's1');
    say(c, { stream_id: 's1', text: 'A long reply. ' });
    expect(kinds(say(c, { stream_id: 's1', cancel: true }))).toEqual(['cancel s1']);
    // A second cancel while the first is under way asks nothing more.
    expect(say(c, { stream_id: 's1', cancel: true })).toEqual([]);
    expect(frames(render.finished({ kind: 'finish' }))).toEqual([{ stream_id: 's1', terminated: true }]);
    expect(kinds(say(c, { ...CONFIG, stream_id: 's1' }))).toEqual(['configure s1']);
  });

  it('cancels a stream after its text_end, before its audio has all been sent: terminated without audio_end', () => {
    const c = connect();
    const render = open(c, 's1');
    say(c, { stream_id: 's1', text: 'Said and then stopped.', text_end: true });
    expect(kinds(say(c, { stream_id: 's1', cancel: true }))).toEqual(['cancel s1']);
    expect(frames(render.finished({ kind: 'finish' }))).toEqual([{ stream_id: 's1', terminated: true }]);
  });

  it('ends a stream whose sentence failed with the vendor error and terminated; nothing of it is sent after', () => {
    const c = connect();
    const render = open(c, 's1');
    const refused = new RouterError('provider_rejected', 'Voice not found', { providerStatus: 400 });
    expect(render.failed(refused)).toEqual({
      frames: [
        JSON.stringify({ stream_id: 's1', error_code: 400, error_message: 'Voice not found' }),
        JSON.stringify({ stream_id: 's1', terminated: true }),
      ],
      drop: {},
    });
    expect(render.audio(Buffer.from([1]), { sentence: 1, first: true, cached: false })).toEqual([]);
    expect(render.flushed('text_end')).toEqual([]);
    expect(render.finished({ kind: 'finish' })).toEqual([]);
    // Its text is for a stream the vendor no longer has; its context is released first.
    expect(kinds(say(c, { stream_id: 's1', text: 'More.' })).slice(0, 1)).toEqual(['cancel s1']);
    expect(sent(say(c, { stream_id: 's1', text: 'More.' }))).toEqual([
      { stream_id: 's1', error_code: 400, error_message: expect.stringContaining('Unknown stream_id') },
      { stream_id: 's1', terminated: true },
    ]);
  });

  it.each([
    { error: new RouterError('provider_timeout', 'slow'), code: 408 },
    { error: new RouterError('provider_unavailable', 'down'), code: 503 },
    { error: new RouterError('provider_rate_limited', 'busy', { providerStatus: 429 }), code: 429 },
    { error: new RouterError('provider_key_missing', 'no key'), code: 401 },
    { error: new RouterError('internal', 'oops'), code: 500 },
  ])("gives a failure the vendor's error_code $code", ({ error, code }) => {
    const c = connect();
    const [frame] = frames(open(c, 's1').failed(error).frames);
    expect(frame).toMatchObject({ stream_id: 's1', error_code: code });
  });

  it('refuses a sixth stream with 429 and terminated, and a config for an active stream without ending it', () => {
    const c = connect();
    for (const id of ['a', 'b', 'c', 'd', 'e']) open(c, id);
    expect(sent(say(c, { ...CONFIG, stream_id: 'f' }))).toEqual([
      { stream_id: 'f', error_code: 429, error_message: expect.stringContaining('5 streams') },
      { stream_id: 'f', terminated: true },
    ]);
    expect(sent(say(c, { ...CONFIG, stream_id: 'a' }))).toEqual([
      { stream_id: 'a', error_code: 400, error_message: "stream_id 'a' is already active" },
    ]);
    expect(kinds(say(c, { stream_id: 'a', text: 'Still here.' }))).toEqual(['text a Still here.']);
  });

  it('refuses a config the vendor refuses with its error and terminated, leaving the id free', () => {
    const c = connect();
    const refused = say(c, { ...CONFIG, stream_id: 's1', sample_rate: undefined });
    expect(sent(refused)).toEqual([
      { stream_id: 's1', error_code: 400, error_message: 'sample_rate is required for raw pcm formats' },
      { stream_id: 's1', terminated: true },
    ]);
    expect(kinds(say(c, { ...CONFIG, stream_id: 's1' }))).toEqual(['configure s1']);
  });

  it('ends a stream that sends text after its text_end, as the vendor does: its error, then terminated', () => {
    const c = connect();
    const render = open(c, 's1');
    say(c, { stream_id: 's1', text: 'Done.', text_end: true });
    expect(kinds(say(c, { stream_id: 's1', text: 'Late.' }))).toEqual(['cancel s1']);
    expect(frames(render.finished({ kind: 'finish' }))).toEqual([
      { stream_id: 's1', error_code: 400, error_message: 'Text after text_end' },
      { stream_id: 's1', terminated: true },
    ]);
  });

  it('answers text and cancels of unknown streams with an error and terminated', () => {
    const c = connect();
    for (const message of [
      { stream_id: 'x', text: 'Hi.' },
      { stream_id: 'x', cancel: true },
    ]) {
      expect(sent(say(c, message))).toEqual([
        { stream_id: 'x', error_code: 400, error_message: expect.stringContaining('Unknown stream_id') },
        { stream_id: 'x', terminated: true },
      ]);
    }
  });

  it('takes a keep-alive without answering it', () => {
    expect(say(connect(), { keep_alive: true })).toEqual([]);
  });

  it.each([
    { what: 'a binary frame', frame: Buffer.from('{}'), binary: true },
    { what: 'text that is not JSON', frame: Buffer.from('hello'), binary: false },
    { what: 'a JSON array', frame: Buffer.from('[]'), binary: false },
    {
      what: 'nesting past the client-JSON limit',
      frame: Buffer.from(`{"x":${'['.repeat(40)}${']'.repeat(40)}}`),
      binary: false,
    },
    { what: 'no stream_id', frame: Buffer.from('{"text":"Hi."}'), binary: false },
  ])(
    "answers $what with the vendor's error for the connection, keeping the socket open",
    ({ frame, binary }) => {
      const commands = connect().parse(frame, binary);
      expect(commands).toHaveLength(1);
      expect(commands[0]).toMatchObject({ kind: 'send' });
      expect(sent(commands)).toEqual([{ error_code: 400, error_message: expect.any(String) }]);
    },
  );

  it('closes a connection after a minute without a message, normally', () => {
    expect(route?.idle(handshakeOf())).toEqual({
      ms: 60_000,
      code: 1000,
      reason: 'idle timeout',
    });
    expect(route?.path.test('/tts-websocket')).toBe(true);
    expect(route?.path.test('/tts-websocket/x')).toBe(false);
  });
});
