import { RouterError, type SynthSettings } from '@router/contracts';
import { vendorH, VendorHAdapter } from '@router/vendor-h';
import { parseWav, readTakeId, sampleCount, spokenMs } from '@router/vendor-sim';
import { resolveSettings, type ClientSettings } from '@router/vendors-core';
import { collect, collectFailure, startAdapterSim, type AdapterSim } from './adapter-harness';

const KEY = 'h-org-key';
const TEXT = 'Good morning, the weather is lovely today.';
const VOICE = 'h1_voice_f1';

function settings(client: Partial<ClientSettings> = {}): SynthSettings {
  return resolveSettings(
    vendorH,
    { model: 'h_model_1', voice: VOICE, format: 'pcm', sampleRate: 24000, options: {}, ...client },
    'speech',
  );
}

describe('vendor_h adapter against the simulated vendor', () => {
  let t: AdapterSim;
  let direct: VendorHAdapter;
  let proxied: VendorHAdapter;
  const call = (s: SynthSettings, extra: { key?: string; signal?: AbortSignal; text?: string } = {}) => ({
    apiKey: extra.key ?? KEY,
    settings: s,
    text: extra.text ?? TEXT,
    signal: extra.signal ?? new AbortController().signal,
  });

  beforeAll(async () => {
    t = await startAdapterSim();
    direct = new VendorHAdapter({ baseUrl: t.base('vendor_h') });
    proxied = new VendorHAdapter({ baseUrl: t.proxy.base('vendor_h') });
  });
  afterAll(async () => {
    await direct.close();
    await proxied.close();
    await t.close();
  });
  beforeEach(async () => {
    await t.control.reset();
    t.proxy.clear();
  });

  it('streams the SSE audio events and sends every setting in the vendor field, language defaulting to en', async () => {
    const s = settings({ speed: 1.5, sampleRate: 16000 });
    const take = await collect(proxied.synthesize(call(s)));

    expect(take.chunks.length).toBeGreaterThan(3);
    expect(take.words).toBeNull();
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT, { speed: 1.5 }), 16000) * 2);
    const sent = t.proxy.last();
    expect(sent.path).toBe('/waves/v1/tts/live');
    expect(sent.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(sent.body).toEqual({
      text: TEXT,
      voice_id: VOICE,
      model: 'h_model_1',
      language: 'en',
      sample_rate: 16000,
      speed: 1.5,
      output_format: 'pcm',
    });
    const [record] = await t.control.calls('vendor_h', { key: KEY });
    expect(record?.endpoint).toBe('sse');
    expect(readTakeId(take.audio, 'pcm')).toBe(record?.takeId);
  });

  it('passes WAV through with its 16-bit header at the asked rate', async () => {
    const s = settings({ format: 'wav', sampleRate: 44100, model: 'h_model_2', language: 'ja' });
    const wav = await collect(direct.synthesize(call(s)));
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 44100, bitsPerSample: 16 });
    expect(direct.contentType(s)).toBe('audio/wav');
  });

  it('completes a take without audio for text with no letter or digit', async () => {
    const take = await collect(direct.synthesize(call(settings(), { text: '…!' })));
    expect(take.audio.length).toBe(0);
  });

  it('reports a wrong key as provider_rejected 401 with the vendor message', async () => {
    const { error } = await collectFailure(direct.synthesize(call(settings(), { key: 'bad-key' })));
    expect(error).toBeInstanceOf(RouterError);
    expect(error).toMatchObject({ code: 'provider_rejected', providerStatus: 401, message: 'unauthorized' });
  });

  it('passes the vendor message of a validation refusal through', async () => {
    const { error } = await collectFailure(direct.synthesize(call(settings({ voice: 'nobody' }))));
    expect(error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 400,
      message: "voice_id 'nobody' not found",
    });
  });

  it.each([
    [429, 'provider_rate_limited'],
    [503, 'provider_unavailable'],
  ])('maps HTTP %i before the stream to %s', async (status, code) => {
    await t.control.injectFault({ vendor: 'vendor_h', kind: 'error', status, message: `said ${status}` });
    const { error } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code, providerStatus: status, message: `said ${status}` });
  });

  it('maps an SSE error event after audio to the code and message it carries', async () => {
    await t.control.injectFault({
      vendor: 'vendor_h',
      kind: 'error',
      status: 500,
      afterBytes: 4000,
      message: 'engine failed',
    });
    const { error, audio } = await collectFailure(direct.synthesize(call(settings())));
    expect(audio.length).toBe(4000);
    expect(error).toMatchObject({
      code: 'provider_unavailable',
      providerStatus: 500,
      message: 'engine failed',
    });
  });

  it('throws provider_unavailable when the stream is cut before done', async () => {
    await t.control.injectFault({ vendor: 'vendor_h', kind: 'cut', afterBytes: 5000 });
    const { error, audio } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code: 'provider_unavailable' });
    expect(audio.length).toBeGreaterThan(0);
  });

  it('stops the upstream call when the signal aborts mid-stream', async () => {
    await t.control.setPacing('vendor_h', { factor: 1 });
    const abort = new AbortController();
    const reason = new Error('interrupted');
    let audioEvents = 0;
    const run = (async () => {
      for await (const event of proxied.synthesize(call(settings(), { signal: abort.signal }))) {
        if (event.kind === 'audio' && ++audioEvents === 1) abort.abort(reason);
      }
    })();
    await expect(run).rejects.toBe(reason);
    expect(await t.proxy.last().outcome).toBe('client-gone');
  });
});
