import type { SynthSettings } from '@router/contracts';
import {
  invalidArgument,
  vendorJAuthProblem,
  vendorJErrorBody,
  vendorJErrorMessage,
  vendorJStatusName,
} from './vendor-j.errors';
import { vendorJAccess } from './vendor-j.access';
import { VENDOR_J_PCM_MIME } from './vendor-j.formats';
import {
  parseVendorJRequest,
  readVendorJModelCall,
  VENDOR_J_DEFAULT_VOICE,
  vendorJBody,
  vendorJStreamPath,
} from './vendor-j.requests';
import { readVendorJResponse, vendorJResponse, vendorJSseEvent, vendorJUsage } from './vendor-j.responses';

const settings: SynthSettings = {
  vendor: 'vendor_j',
  model: 'j_model_2',
  voice: 'Anselm',
  language: null,
  speed: null,
  sampleRate: 24000,
  format: 'pcm',
  options: { instructions: 'Whisper' },
};
const json = (value: unknown): Record<string, unknown> =>
  JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

describe('vendor_j wire', () => {
  it('the single-voice body the adapter builds parses back to its script and voice', () => {
    expect(parseVendorJRequest('j_model_2', json(vendorJBody(settings, 'Hello.')))).toEqual({
      ok: true,
      request: { text: 'Whisper: Hello.', voices: ['Anselm'] },
    });
  });

  it('the two-speaker body parses back to both voices, and a model without speakers refuses it', () => {
    const body = json(
      vendorJBody(
        { ...settings, options: { speakers: { Ann: 'Anselm', Ben: 'Briar' }, speaker: 'Ben' } },
        'Hi.',
      ),
    );
    expect(parseVendorJRequest('j_model_2', body)).toEqual({
      ok: true,
      request: { text: 'Ben: Hi.', voices: ['Anselm', 'Briar'] },
    });
    expect(parseVendorJRequest('j_model_1', body)).toEqual({
      ok: false,
      problem: invalidArgument('Model j_model_1 does not support multiple speakers.'),
    });
  });

  it('reads fields under their proto names and null fields as left out, and refuses a field under both names', () => {
    const proto = {
      contents: [{ role: null, parts: [{ text: 'Hello.' }] }],
      generation_config: {
        response_modalities: ['AUDIO'],
        speech_config: {
          voice_config: { prebuilt_voice_config: { voice_name: 'Briar' } },
          multi_speaker_voice_config: null,
        },
      },
    };
    expect(parseVendorJRequest('j_model_1', proto)).toEqual({
      ok: true,
      request: { text: 'Hello.', voices: ['Briar'] },
    });
    const defaultVoice = {
      contents: [{ parts: [{ text: 'Hello.' }] }],
      generationConfig: { responseModalities: ['AUDIO'], speechConfig: { voiceConfig: null } },
    };
    expect(parseVendorJRequest('j_model_1', defaultVoice)).toEqual({
      ok: true,
      request: { text: 'Hello.', voices: [VENDOR_J_DEFAULT_VOICE] },
    });
    const twice = { ...proto, generationConfig: proto.generation_config };
    expect(parseVendorJRequest('j_model_1', twice)).toEqual({
      ok: false,
      problem: expect.objectContaining({ code: 400, status: 'INVALID_ARGUMENT' }),
    });
  });

  it('reads the model and method back out of the stream path it builds', () => {
    const path = vendorJStreamPath('j_model_3');
    const segment = decodeURIComponent(path.slice('/v1beta/models/'.length, path.indexOf('?')));
    expect(readVendorJModelCall(segment)).toEqual({ model: 'j_model_3', verb: 'streamGenerateContent' });
    expect(readVendorJModelCall('models/j_model_1:generateContent')).toEqual({
      model: 'j_model_1',
      verb: 'generateContent',
    });
  });

  it('reads back the responses a server writes: audio while going, STOP and usage at the end', () => {
    const audio = Buffer.from([1, 0, 2, 0]);
    const going = vendorJResponse('j_model_1', 'r1', { mimeType: VENDOR_J_PCM_MIME, data: audio });
    expect(readVendorJResponse(json(going))).toEqual({
      kind: 'audio',
      audio: [audio],
      finishReason: undefined,
    });
    const last = vendorJResponse(
      'j_model_1',
      'r1',
      { mimeType: VENDOR_J_PCM_MIME, data: audio },
      vendorJUsage('abcd', 2000),
    );
    expect(readVendorJResponse(json(last))).toEqual({ kind: 'audio', audio: [audio], finishReason: 'STOP' });
    expect(last['usageMetadata']).toMatchObject({
      promptTokenCount: 1,
      candidatesTokenCount: 50,
      totalTokenCount: 51,
    });
    expect(vendorJSseEvent({ a: 1 })).toBe('data: {"a":1}\r\n\r\n');
  });

  it('reads back the refusals a server writes, in a body and as a stream event', () => {
    const problem = vendorJAuthProblem('invalid');
    expect(vendorJErrorMessage(JSON.stringify(vendorJErrorBody(problem)))).toBe(problem.message);
    expect(
      readVendorJResponse(
        json(vendorJErrorBody({ code: 503, status: vendorJStatusName(503), message: 'busy' })),
      ),
    ).toEqual({
      kind: 'error',
      code: 503,
      message: 'busy',
    });
    expect(vendorJAuthProblem('missing')).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
  });

  it("answers the mirror's own failures with the vendor's status name for each code", () => {
    const request = { method: 'POST', path: '/', headers: {}, query: new URLSearchParams() };
    const statuses = [400, 401, 413, 429, 500, 502, 504].map((code) => {
      const reply = vendorJAccess.fail(code, 'a failure', request);
      return [reply.status, (JSON.parse(reply.body) as { error: { status: string } }).error.status];
    });
    expect(statuses).toEqual([
      [400, 'INVALID_ARGUMENT'],
      [401, 'UNAUTHENTICATED'],
      [413, 'INVALID_ARGUMENT'],
      [429, 'RESOURCE_EXHAUSTED'],
      [500, 'INTERNAL'],
      [502, 'UNAVAILABLE'],
      [504, 'DEADLINE_EXCEEDED'],
    ]);
  });
});
