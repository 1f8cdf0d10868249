import { layoutOfFormat, leastSpokenMs } from './audio-completeness';
import { NOT_WHOLE } from './drop-in.answers';
import { readInChunks } from './drop-in.fixtures';
import { eventsOrAudioAnswer, exactly, filled, LIVE, textBodyAudio, textBodyKeying } from './drop-in.kit';
import type { DropInRequest } from './drop-in.types';

const post = (path: string, body: string, method = 'POST'): DropInRequest => ({
  method,
  path,
  query: '',
  headers: {},
  body: Buffer.from(body),
});

describe('the drop-in keying kit', () => {
  const keying = textBodyKeying({
    paths: ['/v1/speech', '/v1/speech/stream'],
    text: 'input',
    shape: { body: { speed: filled(1), format: { default: 'mp3' } } },
  });

  it('keys a POST at a listed path whose body holds text, defaults filled, characters counted', () => {
    expect(keying(post('/v1/speech/stream', '{"input":"Héllo 👋","speed":null}'))).toEqual({
      cacheable: true,
      canonical: {
        method: 'POST',
        path: '/v1/speech/stream',
        query: {},
        body: { input: 'Héllo 👋', speed: 1, format: 'mp3' },
      },
      stored: [],
      chars: 7,
      text: 'Héllo 👋',
    });
  });

  it.each([
    ['another path', post('/v1/voices', '{"input":"a"}')],
    ['another method', post('/v1/speech', '{"input":"a"}', 'PUT')],
    ['a body that is not a JSON object', post('/v1/speech', '["input"]')],
    ['a body that is not JSON', post('/v1/speech', 'input=a')],
    ['no text field', post('/v1/speech', '{"text":"a"}')],
    ['a text field that is not a string', post('/v1/speech', '{"input":["a"]}')],
  ])('leaves %s live', (_what, request) => {
    expect(keying(request)).toBe(LIVE);
  });

  it('asks `cacheable`, builds the shape from the request and keys the body as `keyed` gives it', () => {
    const seen: string[] = [];
    const custom = textBodyKeying({
      paths: ['/tts'],
      text: 'text',
      cacheable: (text, body) => text !== '' && body['save'] !== true,
      shape: (request, body) => {
        seen.push(`${request.path} ${JSON.stringify(body['format'])}`);
        return { body: { rate: filled(body['format'] === 'wav' ? 24000 : 44100) } };
      },
      keyed: ({ note: _note, ...rest }) => rest,
    });
    expect(custom(post('/tts', '{"text":""}'))).toBe(LIVE);
    expect(custom(post('/tts', '{"text":"a","save":true}'))).toBe(LIVE);
    const keyed = custom(post('/tts', '{"text":"a","format":"wav","note":"x"}'));
    expect(keyed.cacheable && keyed.canonical.body).toEqual({ text: 'a', format: 'wav', rate: 24000 });
    expect(seen).toEqual(['/tts "wav"']);
  });

  it('matches an endpoint at exactly its path', () => {
    const endpoint = exactly('GET', '/v1/voices');
    expect(endpoint.method).toBe('GET');
    expect(endpoint.path.test('/v1/voices')).toBe(true);
    expect(endpoint.path.test('/v1/voices/x')).toBe(false);
    expect(endpoint.path.test('/x/v1/voices')).toBe(false);
  });

  it("checks a text body's audio against the layout its request asks for and its text", () => {
    const vendor = { catalogue: { speed: { max: 2 } } };
    const audio = textBodyAudio(vendor, 'input', (body) =>
      body['format'] === 'wav' ? layoutOfFormat('wav', 24000) : undefined,
    );
    expect(audio(post('/v1/speech', '{"input":"Hello there","format":"wav"}'))).toEqual({
      layout: layoutOfFormat('wav', 24000),
      leastMs: leastSpokenMs('Hello there', 2),
    });
    expect(audio(post('/v1/speech', '{"input":"Hello there","format":"ogg"}'))).toBeUndefined();
    expect(audio(post('/v1/speech', '{"text":"Hello there","format":"wav"}'))).toBeUndefined();
    expect(audio(post('/v1/speech', 'not json'))).toBeUndefined();
  });

  describe('an answer that is an event stream or audio, told by its content type', () => {
    const wav = { layout: layoutOfFormat('pcm', 24000), leastMs: 0 };
    const answer = eventsOrAudioAnswer(
      { event: (event) => (event.event === 'done' ? 'final' : 'part') },
      () => wav,
    );
    const head = (type: string) => ({ status: 200, headers: { 'content-type': type } });
    const events = 'event: audio\ndata: {}\n\nevent: done\ndata: {}\n\n';

    it('reads an event stream by its events, whatever the case and parameters of its type', () => {
      const request = post('/v1/speech', '{}');
      expect(readInChunks(answer(request, head(' Text/Event-Stream; charset=utf-8')), events)).toEqual({
        complete: true,
      });
      expect(
        readInChunks(
          answer(request, head('text/event-stream')),
          events.slice(0, events.indexOf('event: done')),
        ),
      ).toEqual({
        complete: false,
        reason: NOT_WHOLE.noFinal,
      });
    });

    it('reads anything else as audio, checked against what its request asks for', () => {
      const request = post('/v1/speech', '{}');
      expect(readInChunks(answer(request, head('audio/pcm')), 'abcd')).toEqual({ complete: true });
      // Events sent as another type are audio: an odd byte count is not whole 16-bit audio.
      expect(readInChunks(answer(request, head('application/octet-stream')), 'abc').complete).toBe(false);
    });

    it('takes a reading of its own for the events where the wire reads more than them', () => {
      const seen: string[] = [];
      const own = eventsOrAudioAnswer(
        (request) => {
          seen.push(request.path);
          return answer(request, head('audio/pcm'));
        },
        () => undefined,
      );
      expect(readInChunks(own(post('/v1/stream', '{}'), head('text/event-stream')), 'abcd')).toEqual({
        complete: true,
      });
      expect(seen).toEqual(['/v1/stream']);
    });
  });
});
