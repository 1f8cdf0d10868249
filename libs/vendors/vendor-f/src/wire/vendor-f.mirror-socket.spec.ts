import { RouterError } from '@router/contracts';
import {
  commandsAtAGlance as read,
  handshakeOf,
  sayOnSocket as say,
  sentenceEndOf,
} from '@router/vendors-core';
import { VENDOR_F_IDLE, vendorFSocketRoutes } from './vendor-f.mirror-socket';
import { vendorFSocketSettings } from './vendor-f.settings';

const [route] = vendorFSocketRoutes;
const QUERY = 'voice=coral&codec=pcm&sample_rate=16000';

function open(query = QUERY) {
  return route.open(handshakeOf(query));
}

const frames = (list: (string | Buffer)[]): unknown[] => list.map((f) => JSON.parse(f.toString()) as unknown);

describe('vendor_f mirror socket', () => {
  it('serves /v1/tts only, and closes a quiet socket normally', () => {
    expect(route.path.test('/v1/tts')).toBe(true);
    expect(route.path.test('/v1/tts/voices')).toBe(false);
    expect(vendorFSocketRoutes).toHaveLength(1);
    expect(route.idle(handshakeOf())).toBe(VENDOR_F_IDLE);
    expect(VENDOR_F_IDLE).toEqual({ ms: 300_000, code: 1000, reason: 'idle timeout' });
  });

  it('configures the utterance from the query as it opens, with the settings of the query', () => {
    const c = open();
    const opened = c.opened();
    expect(read(opened)).toEqual(['configure utterance']);
    const settings = vendorFSocketSettings(new URLSearchParams(QUERY));
    expect(opened[0]).toEqual({
      kind: 'configure',
      context: 'utterance',
      settings: settings.ok && settings.settings,
    });
  });

  it('speaks text.delta as it comes, ends an utterance at text.done and drops it at text.clear', () => {
    const c = open();
    c.opened();
    expect(read(say(c, { type: 'text.delta', delta: 'Hello there, ' }))).toEqual([
      'text utterance Hello there, ',
    ]);
    expect(read(say(c, { type: 'text.delta', delta: '' }))).toEqual([]);
    expect(read(say(c, { type: 'text.done' }))).toEqual(['flush utterance text.done']);
    expect(read(say(c, { type: 'text.clear' }))).toEqual(['cancel utterance']);
    // The clear ended the context: the next utterance gets the socket's settings again, once.
    expect(read(say(c, { type: 'text.delta', delta: 'Next.' }))).toEqual([
      'configure utterance',
      'text utterance Next.',
    ]);
    expect(read(say(c, { type: 'text.done' }))).toEqual(['flush utterance text.done']);
    say(c, { type: 'text.clear' });
    expect(read(say(c, { type: 'text.done' }))).toEqual(['configure utterance', 'flush utterance text.done']);
  });

  it('answers a message it cannot read with an error and keeps the socket open', () => {
    const c = open();
    c.opened();
    for (const message of [{ type: 'text.delta' }, { type: 'text.delta', delta: 5 }]) {
      expect(read(say(c, message))).toEqual([
        { send: { type: 'error', message: 'text.delta needs a string delta' } },
      ]);
    }
    for (const message of ['not json', '[1]', { type: 'speak', text: 'x' }, { delta: 'x' }]) {
      const [answer] = read(say(c, message)) as Array<{ send: { type: string; message: string } }>;
      expect(answer).toEqual({ send: { type: 'error', message: expect.any(String) } });
    }
    expect(read(c.parse(Buffer.from([1, 2]), true))).toEqual([
      { send: { type: 'error', message: expect.stringContaining('binary') } },
    ]);
  });

  it('refuses settings the vendor refuses at the upgrade with its 400, and on a socket opened anyway', () => {
    expect(route.refuse?.(handshakeOf(QUERY))).toBeUndefined();
    const refused = route.refuse?.(handshakeOf('codec=opus'));
    expect(refused?.status).toBe(400);
    expect(JSON.parse(refused?.body.toString() ?? '')).toEqual({
      code: 'Bad Request',
      error: expect.stringContaining('codec'),
    });
    const c = open('codec=opus');
    expect(read(c.opened())).toEqual([
      {
        refuse: { type: 'error', message: expect.stringContaining('codec') },
        close: { code: 1008, reason: 'invalid settings' },
      },
    ]);
    expect(say(c, { type: 'text.delta', delta: 'Hi.' })).toEqual([]);
  });

  it('renders audio as base64 audio.delta, audio.done after text.done, audio.clear after every clear', () => {
    const c = open();
    c.opened();
    const render = c.context('utterance');
    expect(frames(render.audio(Buffer.from([1, 2, 3]), { sentence: 0, first: true, cached: false }))).toEqual(
      [{ type: 'audio.delta', delta: 'AQID' }],
    );
    expect(render.audio(Buffer.alloc(0), { sentence: 0, first: false, cached: false })).toEqual([]);
    expect(render.sentenceEnd(sentenceEndOf({ text: 'Hi.', bytes: 3 }))).toEqual([]);
    say(c, { type: 'text.done' });
    expect(frames(render.flushed('text.done'))).toEqual([{ type: 'audio.done' }]);
    expect(render.flushed(undefined)).toEqual([]);
    expect(
      frames(render.finished({ kind: 'cancel', stopped: true, spoken: [], remaining: [], unanswered: [] })),
    ).toEqual([{ type: 'audio.clear' }]);
    expect(
      frames(render.finished({ kind: 'cancel', stopped: false, spoken: [], remaining: [], unanswered: [] })),
    ).toEqual([{ type: 'audio.clear' }]);
  });

  describe('a failed sentence ends its utterance, as the vendor’s error does', () => {
    const refusal = new RouterError('provider_rejected', 'invalid voice: nobody', { providerStatus: 400 });

    it('after its text.done: an error, the rest dropped through that text.done, and no audio.done for it', () => {
      const c = open();
      c.opened();
      const render = c.context('utterance');
      say(c, { type: 'text.delta', delta: 'One. Two. ' });
      say(c, { type: 'text.done' });
      say(c, { type: 'text.delta', delta: 'Next utterance.' });
      say(c, { type: 'text.done' });
      const failure = render.failed(refusal, { sentence: 0 });
      expect(frames(failure.frames)).toEqual([{ type: 'error', message: 'invalid voice: nobody' }]);
      expect(failure.close).toBeUndefined();
      expect(failure.drop).toEqual({ through: 'text.done' });
      // The failed utterance's text.done is answered by its error; the next one's by audio.done.
      expect(render.flushed('text.done')).toEqual([]);
      expect(frames(render.flushed('text.done'))).toEqual([{ type: 'audio.done' }]);
    });

    it('before its text.done: what the client still writes of it, and its text.done, are dropped', () => {
      const c = open();
      c.opened();
      const render = c.context('utterance');
      say(c, { type: 'text.delta', delta: 'One. ' });
      expect(render.failed(refusal, { sentence: 0 }).drop).toEqual({ through: 'text.done' });
      expect(say(c, { type: 'text.delta', delta: 'Two.' })).toEqual([]);
      expect(say(c, { type: 'text.done' })).toEqual([]);
      // The next utterance is spoken as usual.
      expect(read(say(c, { type: 'text.delta', delta: 'Three.' }))).toEqual(['text utterance Three.']);
      expect(read(say(c, { type: 'text.done' }))).toEqual(['flush utterance text.done']);
      expect(frames(render.flushed('text.done'))).toEqual([{ type: 'audio.done' }]);
    });

    it('a barge-in forgets a failure; a failed command is an error alone', () => {
      const c = open();
      c.opened();
      const render = c.context('utterance');
      say(c, { type: 'text.delta', delta: 'One. ' });
      render.failed(refusal, { sentence: 0 });
      say(c, { type: 'text.clear' });
      expect(read(say(c, { type: 'text.delta', delta: 'Two.' }))).toEqual([
        'configure utterance',
        'text utterance Two.',
      ]);
      const failed = render.failed(RouterError.badRequest('a flush came before the settings'));
      expect(failed.drop).toBeUndefined();
      expect(frames(failed.frames)).toEqual([{ type: 'error', message: 'a flush came before the settings' }]);
    });
  });
});
