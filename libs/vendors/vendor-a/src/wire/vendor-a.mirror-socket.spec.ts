import { RouterError } from '@router/contracts';
import {
  commandsAtAGlance as read,
  handshakeOf,
  sayOnSocket as say,
  sentenceEndOf,
} from '@router/vendors-core';
import { vendorASocketRoutes } from './vendor-a.mirror-socket';
import { parseVendorASettings } from './vendor-a.requests';
import { vendorASocketSettings } from './vendor-a.settings';
import { VENDOR_A_IDLE } from './vendor-a.socket';

const [ws, wsV2] = vendorASocketRoutes;

function open(query = 'model=a_model_1&send_completion_event=true', route = ws) {
  if (!route) throw new Error('no route');
  return route.open(handshakeOf(query));
}

const frames = (list: (string | Buffer)[]): unknown[] => list.map((f) => JSON.parse(f.toString()) as unknown);
const error = (message: string, code = 'invalid_request_error') => ({
  send: { type: 'error', data: { message, code } },
});
const HINDI = { target_language_code: 'hi-IN', speaker: 'aarila' };

describe('vendor_a mirror sockets', () => {
  it('serves /text-to-speech/ws and /ws/v2, closing a quiet socket with the idle error and 1008', () => {
    expect(ws?.path.test('/text-to-speech/ws')).toBe(true);
    expect(ws?.path.test('/text-to-speech/ws/v2')).toBe(false);
    expect(wsV2?.path.test('/text-to-speech/ws/v2')).toBe(true);
    expect(ws?.idle(handshakeOf())).toBe(VENDOR_A_IDLE);
    expect({ ...VENDOR_A_IDLE, frames: frames([...(VENDOR_A_IDLE.frames ?? [])]) }).toEqual({
      ms: 60_000,
      frames: [
        {
          type: 'error',
          data: { message: 'Connection closed after 60 s without messages', code: 'idle_timeout_error' },
        },
      ],
      code: 1008,
      reason: 'idle timeout',
    });
  });

  it("refuses a socket without its model, or with the other socket's, with an error and 1008", () => {
    expect(read(open('').opened())).toEqual([
      {
        refuse: {
          type: 'error',
          data: { message: 'model query parameter is required', code: 'invalid_request_error' },
        },
        close: { code: 1008, reason: 'model required' },
      },
    ]);
    expect(read(open('model=a_model_1', wsV2).opened())).toEqual([
      {
        refuse: {
          type: 'error',
          data: {
            message: 'model a_model_1 is not served on this socket; use /text-to-speech/ws',
            code: 'invalid_request_error',
          },
        },
        close: { code: 1008, reason: 'unsupported model' },
      },
    ]);
    expect(open('model=a_model_2', wsV2).opened()).toEqual([]);
  });

  it('configures on a config (again only when it changes), speaks text, flushes, ignores ping', () => {
    const c = open();
    const configured = say(c, { type: 'config', data: HINDI });
    const parsed = parseVendorASettings(HINDI, 'ws', 'a_model_1');
    if (!parsed.ok) throw new Error('config refused');
    expect(configured).toEqual([
      { kind: 'configure', context: 'stream', settings: vendorASocketSettings(HINDI, parsed.settings) },
    ]);
    // The same settings spelled otherwise (numbers as strings, a model naming the socket's) change nothing.
    expect(
      say(c, { type: 'config', data: { ...HINDI, speech_sample_rate: '24000', model: 'a_model_1' } }),
    ).toEqual([]);
    expect(read(say(c, { type: 'text', data: { text: 'Namaste. ' } }))).toEqual(['text stream Namaste. ']);
    expect(read(say(c, { type: 'text', data: { text: '' } }))).toEqual([]);
    expect(read(say(c, { type: 'flush' }))).toEqual(['flush stream']);
    expect(read(say(c, { type: 'flush' }))).toEqual(['flush stream']);
    expect(read(say(c, { type: 'ping' }))).toEqual([]);
    expect(read(say(c, { type: 'config', data: { ...HINDI, pace: 1.5 } }))).toEqual(['configure stream']);
  });

  it('answers what the vendor refuses with its error, keeping the socket open and the settings before it', () => {
    const c = open();
    expect(read(say(c, { type: 'text', data: { text: 'Hi.' } }))).toEqual([
      error('Send a config message before text'),
    ]);
    expect(read(say(c, { type: 'flush' }))).toEqual([error('Send a config message before flush')]);
    expect(read(say(c, { type: 'config', data: { speaker: 'aarila' } }))).toEqual([
      error('target_language_code: Field required', 'unprocessable_entity_error'),
    ]);
    expect(read(say(c, { type: 'config', data: { ...HINDI, speaker: 'Nobody' } }))).toEqual([
      error("Speaker 'Nobody' is not compatible with model a_model_1"),
    ]);
    say(c, { type: 'config', data: HINDI });
    expect(read(say(c, { type: 'text', data: {} }))).toEqual([
      error('text: Field required', 'unprocessable_entity_error'),
    ]);
    expect(read(say(c, { type: 'text', data: { text: 'x'.repeat(2501) } }))).toEqual([
      error('text must be at most 2500 characters per message'),
    ]);
    expect(read(say(c, { type: 'sing' }))).toEqual([error('Unknown message type sing')]);
    expect(read(say(c, 'not json'))).toEqual([error('Messages must be JSON')]);
    expect(read(c.parse(Buffer.from([1, 2]), true))).toEqual([
      error('Messages must be JSON text, not binary frames'),
    ]);
    expect(read(say(c, { type: 'text', data: { text: 'Still configured.' } }))).toEqual([
      'text stream Still configured.',
    ]);
  });

  it('renders audio under a request id per sentence, the warning after it, and a final per flush', () => {
    const render = open().context('stream');
    const first = frames(
      render.audio(Buffer.from([1, 2]), {
        sentence: 0,
        first: true,
        cached: false,
        contentType: 'audio/wav',
      }),
    );
    const second = frames(
      render.audio(Buffer.from([3]), { sentence: 0, first: false, cached: false, contentType: 'audio/wav' }),
    );
    expect(first).toEqual([
      {
        type: 'audio',
        data: {
          request_id: expect.stringMatching(/^\d{8}_[0-9a-f]{12}$/),
          audio: 'AQI=',
          content_type: 'audio/wav',
        },
      },
    ]);
    const requestId = (first[0] as { data: { request_id: string } }).data.request_id;
    expect(second).toEqual([
      { type: 'audio', data: { request_id: requestId, audio: 'Aw==', content_type: 'audio/wav' } },
    ]);
    const end = sentenceEndOf({ text: 'x', bytes: 3 });
    expect(
      frames(
        render.sentenceEnd({
          ...end,
          warning: { code: 'not_found_error', message: 'Pronunciation dictionary not found' },
        }),
      ),
    ).toEqual([
      {
        type: 'error',
        data: {
          message: 'Pronunciation dictionary not found',
          code: 'not_found_error',
          request_id: requestId,
        },
      },
    ]);
    expect(render.sentenceEnd({ ...end, warning: null })).toEqual([]);
    expect(frames(render.flushed(undefined))).toEqual([{ type: 'event', data: { event_type: 'final' } }]);
    expect(open('model=a_model_1').context('stream').flushed(undefined)).toEqual([]);
    expect(render.finished({ kind: 'finish' })).toEqual([]);
  });

  it.each(['true', 'True', 'TRUE', '1'])(
    'answers each flush with a final when send_completion_event=%s, as the vendor reads the flag',
    (flag) => {
      const render = open(`model=a_model_1&send_completion_event=${flag}`).context('stream');
      expect(frames(render.flushed(undefined))).toEqual([{ type: 'event', data: { event_type: 'final' } }]);
    },
  );

  it.each(['false', 'False', '0', 'maybe'])('sends no final when send_completion_event=%s', (flag) => {
    expect(
      open(`model=a_model_1&send_completion_event=${flag}`).context('stream').flushed(undefined),
    ).toEqual([]);
  });

  it("renders a failed sentence as the vendor's error for its status and keeps the socket open", () => {
    const render = open().context('stream');
    const failure = render.failed(
      new RouterError('provider_rejected', 'speaker busy', { providerStatus: 429 }),
      {
        sentence: 0,
      },
    );
    expect(failure.close).toBeUndefined();
    expect(failure.drop).toBeUndefined();
    expect(frames(failure.frames)).toEqual([
      {
        type: 'error',
        data: {
          message: 'speaker busy',
          code: 'rate_limit_exceeded_error',
          request_id: expect.stringMatching(/^\d{8}_/),
        },
      },
    ]);
    expect(frames(render.failed(RouterError.badRequest('cannot plan')).frames)).toEqual([
      { type: 'error', data: { message: 'cannot plan', code: 'invalid_request_error' } },
    ]);
  });
});
