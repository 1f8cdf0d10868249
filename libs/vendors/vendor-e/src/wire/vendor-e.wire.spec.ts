import type { SynthSettings } from '@router/contracts';
import { VENDOR_E_AUTH_PROBLEM, vendorEErrorBody, vendorEErrorMessage } from './vendor-e.errors';
import { parseVendorESpeak, vendorERequest } from './vendor-e.requests';
import { parseVendorESocketQuery, readVendorEClientMessage, readVendorEConfigure } from './vendor-e.socket';
import { vendorEModelList, vendorEVoices, type VendorEVoiceModel } from './vendor-e.voices';

const settings: SynthSettings = {
  vendor: 'vendor_e',
  model: 'e_model_2',
  voice: 'marisol-es',
  language: null,
  speed: 1.1,
  sampleRate: 16000,
  format: 'pcm',
  options: {},
};

const model: VendorEVoiceModel = {
  name: 'marisol',
  canonical_name: 'e_model_2-marisol-es',
  architecture: 'e_model_2',
  languages: ['es'],
  version: '2025-01-01.0',
  uuid: '00000000-0000-4000-a000-000000000000',
  metadata: {
    accent: 'Mexican',
    age: 'Adult',
    color: '#000000',
    image: '',
    sample: '',
    tags: ['feminine'],
    use_cases: [],
  },
};
const findModel = (name: string): VendorEVoiceModel | undefined =>
  name === model.canonical_name ? model : undefined;

function queryOf(path: string): URLSearchParams {
  return new URLSearchParams(path.split('?')[1]);
}

describe('vendor_e wire', () => {
  it.each([
    { format: 'pcm', sampleRate: 16000, codec: 'pcm' },
    { format: 'wav', sampleRate: 24000, codec: 'wav' },
    { format: 'mulaw', sampleRate: 8000, codec: 'mulaw' },
    { format: 'alaw', sampleRate: 8000, codec: 'alaw' },
    { format: 'mp3', sampleRate: 22050, codec: 'mp3' },
  ])(
    'the $format request the adapter builds parses back to its settings',
    ({ format, sampleRate, codec }) => {
      const { path, body } = vendorERequest({ ...settings, format, sampleRate }, 'Hola.');
      const parsed = parseVendorESpeak('v1', queryOf(path), JSON.parse(JSON.stringify(body)), findModel);
      expect(parsed).toMatchObject({
        ok: true,
        request: { model, text: 'Hola.', speed: 1.1, spec: { codec, sampleRate } },
      });
    },
  );

  it('refuses a model on the other generation and a container the encoding lacks', () => {
    const { path } = vendorERequest(settings, 'x');
    expect(parseVendorESpeak('v2', queryOf(path), { text: 'x' }, findModel)).toMatchObject({
      ok: false,
      problem: { status: 400, code: 'UNSUPPORTED_MODEL' },
    });
    const query = queryOf(path);
    query.set('encoding', 'mulaw');
    query.set('container', 'wav');
    expect(parseVendorESpeak('v1', query, { text: 'x' }, findModel)).toMatchObject({
      ok: false,
      problem: {
        code: 'UNSUPPORTED_AUDIO_FORMAT',
        message: 'Container wav is not supported for encoding mulaw',
      },
    });
  });

  it('reads back the refusal a server writes', () => {
    expect(vendorEErrorMessage(JSON.stringify(vendorEErrorBody(VENDOR_E_AUTH_PROBLEM)))).toBe(
      'Invalid credentials.',
    );
  });

  it('reads a socket query, client messages and a v2 Configure as the vendor does', () => {
    const query = new URLSearchParams({
      model: model.canonical_name,
      encoding: 'linear16',
      sample_rate: '48000',
    });
    expect(parseVendorESocketQuery('v1', query, findModel)).toEqual({
      ok: true,
      settings: { model, spec: { codec: 'pcm', sampleRate: 48000 }, speed: 1 },
    });
    expect(readVendorEClientMessage({ type: 'Speak', text: 'Hola' }, 0)).toEqual({
      kind: 'speak',
      text: 'Hola',
    });
    expect(readVendorEClientMessage({ type: 'Speak', text: 'Hola' }, 1999)).toMatchObject({
      kind: 'fatal',
      fatal: { code: 'BIG-0000', closeCode: 1009 },
    });
    expect(readVendorEConfigure({ type: 'Configure', speed: 0.95 })).toEqual({ ok: true, speed: 0.95 });
    expect(readVendorEConfigure({ type: 'Configure', speed: 0.97 })).toMatchObject({
      ok: false,
      reply: { type: 'ConfigureFailure', field: 'speed' },
    });
  });

  it('reads back the model list a server writes as router voices', () => {
    expect(
      vendorEVoices([JSON.parse(JSON.stringify(vendorEModelList([model]))) as { tts?: unknown }]),
    ).toMatchObject([{ id: 'marisol-es', models: ['e_model_2'], languages: ['es'], gender: 'female' }]);
  });
});
