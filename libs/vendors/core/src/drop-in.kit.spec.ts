import { layoutOfFormat, leastSpokenMs } from './audio-completeness';
import { exactly, filled, LIVE, textBodyAudio, textBodyKeying } from './drop-in.kit';
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
});
