import { RouterError } from '@router/contracts';
import { handshakeOf, type SocketCommand } from '@router/vendors-core';
import { Id3Skipper } from './vendor-c.id3';
import { charAlignment } from './vendor-c.mirror-connection';
import { vendorCSocketRoutes } from './vendor-c.mirror-socket';

const [streamInput, multiStreamInput] = vendorCSocketRoutes;
const VOICE_SETTINGS = { stability: 0.4, similarity_boost: 0.6 };

function connection(route: typeof streamInput, query = 'model_id=c_model_1&output_format=pcm_16000') {
  const params = route.path.exec(
    route === streamInput ? '/v1/text-to-speech/v1/stream-input' : '/v1/text-to-speech/v1/multi-stream-input',
  );
  return route.open(handshakeOf(query, { params: params!.slice(1) }));
}

const say = (c: ReturnType<typeof connection>, message: unknown): SocketCommand[] =>
  c.parse(Buffer.from(JSON.stringify(message)), false);

/** Commands without their settings (checked on their own below), for reading a sequence at a glance. */
const kinds = (commands: SocketCommand[]) =>
  commands.map((c) =>
    'context' in c ? `${c.kind} ${c.context}${c.kind === 'text' ? ` ${c.text}` : ''}` : c.kind,
  );

describe('vendor_c mirror sockets', () => {
  it('opens a stream-input stream with its first message, settings from the path, query and message', () => {
    const c = connection(streamInput);
    expect(c.opened()).toEqual([]);
    const opening = say(c, { text: ' ', voice_settings: { stability: 0.4, similarity_boost: 0.6 } });
    expect(kinds(opening)).toEqual(['configure default']);
    const configure = opening[0] as Extract<SocketCommand, { kind: 'configure' }>;
    expect(configure.settings).toMatchObject({
      vendor: 'vendor_c',
      model: 'c_model_1',
      voice: 'v1',
      format: 'pcm',
      sampleRate: 16000,
      options: { voice_settings: { stability: 0.4, similarity_boost: 0.6 } },
    });
    expect(kinds(say(c, { text: 'Hello ' }))).toEqual(['text default Hello ']);
    expect(kinds(say(c, { text: 'there.', flush: true }))).toEqual(['text default there.', 'flush default']);
    expect(kinds(say(c, { text: '' }))).toEqual(['close']);
  });

  it("opens a context with voice_settings {} on the voice's stored settings; later fields override, the rest stay", () => {
    const c = connection(multiStreamInput);
    const settingsOf = (commands: SocketCommand[]) =>
      (commands[0] as Extract<SocketCommand, { kind: 'configure' }>).settings.options['voice_settings'];
    const opening = say(c, { text: ' ', voice_settings: {}, context_id: 'a' });
    expect(kinds(opening)).toEqual(['configure a']);
    expect(settingsOf(opening)).toBeUndefined();
    expect(settingsOf(say(c, { text: 'Hi ', voice_settings: { speed: 1.1 }, context_id: 'a' }))).toEqual({
      speed: 1.1,
    });
    const more = say(c, { text: 'there ', voice_settings: { stability: 0.3 }, context_id: 'a' });
    expect(kinds(more)).toEqual(['configure a', 'text a there ']);
    expect(settingsOf(more)).toEqual({ stability: 0.3, speed: 1.1 });
  });

  it('flushes each message on its own with auto_mode', () => {
    const c = connection(streamInput, 'output_format=pcm_16000&auto_mode=true');
    say(c, { text: ' ' });
    expect(kinds(say(c, { text: 'One piece' }))).toEqual(['text default One piece', 'flush default']);
  });

  it('refuses a bad query on opening, and a message that is not JSON, with 1008', () => {
    const bad = connection(streamInput, 'output_format=mp3_1_2');
    const [refused] = bad.opened();
    expect(refused).toMatchObject({ kind: 'refuse', close: { code: 1008 } });
    expect(JSON.parse((refused as { frame: string }).frame)).toMatchObject({
      error: 'invalid_request',
      code: 1008,
    });
    const c = connection(streamInput);
    expect(c.parse(Buffer.from('not json'), false)).toMatchObject([
      { kind: 'refuse', close: { code: 1008 } },
    ]);
  });

  it.each([
    {
      what: 'nesting past the client-JSON limit',
      frame: `{"text":"Hi. ","x":${'['.repeat(40)}${']'.repeat(40)}}`,
    },
    { what: 'holding a number past a double', frame: '{"text":"Hi. ","voice_settings":{"speed":1e400}}' },
    { what: 'that is a JSON array', frame: '[{"text":"Hi. "}]' },
  ])("refuses a message $what on either socket in vendor_c's error shape, closing with 1008", ({ frame }) => {
    for (const route of [streamInput, multiStreamInput]) {
      const c = connection(route);
      say(c, { text: ' ', voice_settings: VOICE_SETTINGS });
      const [refused, ...rest] = c.parse(Buffer.from(frame), false);
      expect(rest).toEqual([]);
      expect(refused).toMatchObject({ kind: 'refuse', close: { code: 1008, reason: 'invalid_request' } });
      expect(JSON.parse((refused as { frame: string }).frame)).toEqual({
        message: expect.any(String),
        error: 'invalid_request',
        code: 1008,
      });
    }
  });

  it('refuses a binary message with 1008', () => {
    const c = connection(multiStreamInput);
    expect(c.parse(Buffer.from('{"text":" "}'), true)).toMatchObject([
      { kind: 'refuse', close: { code: 1008 } },
    ]);
  });

  it('drains a closed context whatever else its close_context message carries: no text, no new settings', () => {
    const c = connection(multiStreamInput);
    say(c, { text: ' ', voice_settings: VOICE_SETTINGS, context_id: 'a' });
    const closing = {
      context_id: 'a',
      close_context: true,
      text: 'Dropped. ',
      voice_settings: { speed: 1.1 },
    };
    expect(kinds(say(c, closing))).toEqual(['drain a']);
  });

  it('keeps multi-stream-input contexts apart, refuses a sixth, and drains a closed one', () => {
    const c = connection(multiStreamInput);
    for (const id of ['a', 'b', 'c', 'd', 'e'])
      expect(kinds(say(c, { text: ' ', context_id: id }))).toEqual([`configure ${id}`]);
    const sixth = say(c, { text: ' ', context_id: 'f' });
    expect(sixth).toHaveLength(1);
    expect(JSON.parse((sixth[0] as { frame: string }).frame)).toMatchObject({
      error: 'max_active_contexts',
      context_id: 'f',
    });
    expect(kinds(say(c, { text: 'Hi. ', context_id: 'b' }))).toEqual(['text b Hi. ']);
    expect(kinds(say(c, { text: 'Unflushed', context_id: 'b' }))).toEqual(['text b Unflushed']);
    expect(kinds(say(c, { text: '', context_id: 'b', flush: true }))).toEqual(['flush b']);
    expect(kinds(say(c, { context_id: 'b', close_context: true }))).toEqual(['drain b']);
    expect(kinds(say(c, { text: ' ', context_id: 'f' }))).toEqual(['configure f']);
    expect(kinds(say(c, { close_socket: true }))).toEqual(['close']);
  });

  it('keeps a context refused on opening refused: each later message gets its error, close_context frees it', () => {
    const c = connection(multiStreamInput);
    const errorOf = (commands: SocketCommand[]) => {
      expect(commands).toMatchObject([{ kind: 'send' }]);
      return JSON.parse((commands[0] as { frame: string }).frame) as Record<string, unknown>;
    };
    const refusal = errorOf(say(c, { text: ' ', voice_settings: { stability: 7 }, context_id: 'a' }));
    expect(refusal).toMatchObject({ error: 'invalid_request', code: 1008, context_id: 'a' });
    expect(refusal['message']).toContain('stability');
    expect(errorOf(say(c, { text: 'Never said. ', context_id: 'a', flush: true }))).toEqual(refusal);
    expect(errorOf(say(c, { text: ' ', voice_settings: VOICE_SETTINGS, context_id: 'a' }))).toEqual(refusal);
    // Settings refused once resolved (more dictionaries than the vendor takes) are remembered the same way.
    const locators = ['d1', 'd2', 'd3', 'd4'].map((id) => ({ pronunciation_dictionary_id: id }));
    const tooMany = errorOf(
      say(c, { text: ' ', pronunciation_dictionary_locators: locators, context_id: 'b' }),
    );
    expect(tooMany['message']).toBe(
      'pronunciation_dictionary_locators: ensure this value has at most 3 items',
    );
    expect(errorOf(say(c, { text: 'Hi. ', context_id: 'b' }))).toEqual(tooMany);
    // Refused contexts count against the limit until closed.
    for (const id of ['c', 'd', 'e']) say(c, { text: ' ', context_id: id });
    expect(errorOf(say(c, { text: ' ', context_id: 'f' }))).toMatchObject({ error: 'max_active_contexts' });
    expect(errorOf(say(c, { context_id: 'a', close_context: true }))).toEqual(refusal);
    expect(kinds(say(c, { text: ' ', voice_settings: VOICE_SETTINGS, context_id: 'a' }))).toEqual([
      'configure a',
    ]);
  });

  it('keeps an open context on its settings when later ones are refused', () => {
    const c = connection(multiStreamInput);
    say(c, { text: ' ', voice_settings: VOICE_SETTINGS, context_id: 'a' });
    expect(say(c, { text: 'Hi. ', voice_settings: { stability: 7 }, context_id: 'a' })).toMatchObject([
      { kind: 'send' },
    ]);
    expect(kinds(say(c, { text: 'Hi. ', context_id: 'a' }))).toEqual(['text a Hi. ']);
  });

  it('tags multi-stream-input frames with both spellings of the context, and ends a context with isFinal', () => {
    const render = connection(multiStreamInput).context('ctx-1');
    const [audio] = render.audio(Buffer.from('abc'), { sentence: 0, first: true, cached: false });
    expect(JSON.parse(audio as string)).toEqual({
      audio: Buffer.from('abc').toString('base64'),
      alignment: null,
      normalizedAlignment: null,
      contextId: 'ctx-1',
      context_id: 'ctx-1',
    });
    expect(render.finished({ kind: 'finish' }).map((f) => JSON.parse(f as string))).toEqual([
      { isFinal: true, contextId: 'ctx-1', context_id: 'ctx-1' },
    ]);
  });

  it("closes a single stream on a sentence's failure, but keeps a multi-context socket open", () => {
    const failure = new RouterError('provider_rejected', 'A voice for the voice_id v1 was not found.', {
      providerStatus: 400,
    });
    const single = connection(streamInput).context('default').failed(failure);
    expect(single.close).toEqual({ code: 1008, reason: 'invalid_request' });
    expect(JSON.parse(single.frames[0] as string)).toEqual({
      message: 'A voice for the voice_id v1 was not found.',
      error: 'invalid_request',
      code: 1008,
    });
    expect(connection(multiStreamInput).context('a').failed(failure).close).toBeUndefined();
  });

  it("names an org's missing vendor_c key as its REST does, invalid_api_key, on either socket", () => {
    const missing = new RouterError('provider_key_missing', 'No vendor_c key is stored for this org.');
    const single = connection(streamInput).context('default').failed(missing);
    expect(single.close).toEqual({ code: 1008, reason: 'invalid_api_key' });
    expect(JSON.parse(single.frames[0] as string)).toEqual({
      message: 'No vendor_c key is stored for this org.',
      error: 'invalid_api_key',
      code: 1008,
    });
    const multi = connection(multiStreamInput).context('a').failed(missing);
    expect(JSON.parse(multi.frames[0] as string)).toMatchObject({ error: 'invalid_api_key', code: 1008 });
  });

  it('closes a socket idle for inactivity_timeout with 1008, its clock counting audio sent as the vendor does', () => {
    const idle = streamInput.idle(handshakeOf('inactivity_timeout=30', { params: ['v1'] }));
    expect(idle).toEqual({
      ms: 30_000,
      code: 1008,
      reason: 'Have not received new text for 30 seconds. Closing the connection.',
      clock: 'either',
    });
  });
});

describe('charAlignment', () => {
  it("spreads each word's time over its characters; characters between words take none", () => {
    const alignment = charAlignment('Hi yo.', [
      { start: 0, end: 2, startMs: 0, endMs: 200 },
      { start: 3, end: 5, startMs: 300, endMs: 500 },
    ]);
    expect(alignment).toEqual({
      chars: ['H', 'i', ' ', 'y', 'o', '.'],
      charStartTimesMs: [0, 100, 200, 300, 400, 500],
      charDurationsMs: [100, 100, 0, 100, 100, 0],
    });
  });
});

describe('Id3Skipper', () => {
  const tag = (size: number) =>
    Buffer.concat([
      Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, (size >> 7) & 0x7f, size & 0x7f]),
      Buffer.alloc(size, 7),
    ]);
  const frames = Buffer.from([0xff, 0xfb, 0x90, 0x64, 1, 2, 3]);

  it('skips exactly the tag, however the bytes are cut into chunks', () => {
    const whole = Buffer.concat([tag(200), frames]);
    for (const cut of [1, 3, 9, 10, 11, 150, 209, 210, 211]) {
      const skipper = new Id3Skipper();
      const out = Buffer.concat([skipper.push(whole.subarray(0, cut)), skipper.push(whole.subarray(cut))]);
      expect([cut, out.equals(frames)]).toEqual([cut, true]);
    }
  });

  it('passes audio without a tag untouched', () => {
    expect(new Id3Skipper().push(frames).equals(frames)).toBe(true);
  });
});
