import { RouterError, type SynthSettings } from '@router/contracts';
import { vendorG, VendorGAdapter } from '@router/vendor-g';
import { parseMp3, parseWav, readTakeId, sampleCount, spokenMs } from '@router/vendor-sim';
import { resolveSettings, type ClientSettings } from '@router/vendors-core';
import { collect, collectFailure, startAdapterSim, type AdapterSim } from './adapter-harness';

const KEY = 'g-org-key';
const TEXT = 'Good evening, and welcome to the show.';
const VOICE = 'Maren';

function settings(client: Partial<ClientSettings> = {}): SynthSettings {
  return resolveSettings(
    vendorG,
    {
      model: 'g_model_3',
      voice: VOICE,
      language: 'en',
      format: 'pcm',
      sampleRate: 24000,
      options: {},
      ...client,
    },
    'speech',
  );
}

describe('vendor_g adapter against the simulated vendor', () => {
  let t: AdapterSim;
  let direct: VendorGAdapter;
  let proxied: VendorGAdapter;
  const call = (s: SynthSettings, extra: { key?: string; signal?: AbortSignal } = {}) => ({
    apiKey: extra.key ?? KEY,
    settings: s,
    text: TEXT,
    signal: extra.signal ?? new AbortController().signal,
  });

  beforeAll(async () => {
    t = await startAdapterSim();
    direct = new VendorGAdapter({ baseUrl: t.base('vendor_g') });
    proxied = new VendorGAdapter({ baseUrl: t.proxy.base('vendor_g') });
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

  it('streams the raw body as audio events and sends every setting in the vendor field', async () => {
    const s = settings({ speed: 0.8, sampleRate: 16000, options: { reduce_silence: true } });
    const take = await collect(proxied.synthesize(call(s)));

    expect(take.chunks.length).toBeGreaterThan(0);
    expect(take.words).toBeNull();
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT, { speed: 0.8 }), 16000) * 2);
    const sent = t.proxy.last();
    expect(sent.path).toBe('/tts');
    expect(sent.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(sent.body).toEqual({
      text: TEXT,
      model: 'g_model_3',
      language: 'en',
      voice: VOICE,
      audio_format: 'pcm_s16le',
      sample_rate: 16000,
      speed: 0.8,
      reduce_silence: true,
    });
    const [record] = await t.control.calls('vendor_g', { key: KEY });
    expect(record?.endpoint).toBe('rest');
    expect(readTakeId(take.audio, 'pcm')).toBe(record?.takeId);
  });

  it('streams the body in several chunks when the vendor paces it', async () => {
    await t.control.setPacing('vendor_g', { factor: 0.05 });
    const take = await collect(direct.synthesize(call(settings())));
    expect(take.chunks.length).toBeGreaterThan(1);
  });

  it('passes WAV, mp3 and mulaw through untouched', async () => {
    const wav = await collect(direct.synthesize(call(settings({ format: 'wav', sampleRate: 48000 }))));
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 48000, bitsPerSample: 16 });
    const mp3 = await collect(direct.synthesize(call(settings({ format: 'mp3', sampleRate: 44100 }))));
    expect(parseMp3(mp3.audio).frames.length).toBeGreaterThan(10);
    const mulaw = settings({ format: 'mulaw', sampleRate: 8000 });
    const mulawTake = await collect(direct.synthesize(call(mulaw)));
    expect(mulawTake.audio.length).toBe(sampleCount(spokenMs(TEXT), 8000));
    expect(direct.contentType(mulaw)).toBe('audio/mulaw');
  });

  it('reports a wrong key as provider_rejected 401 with the vendor message', async () => {
    const { error } = await collectFailure(direct.synthesize(call(settings(), { key: 'bad-key' })));
    expect(error).toBeInstanceOf(RouterError);
    expect(error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 401,
      message: 'Invalid or missing API key',
    });
  });

  it('passes the vendor message of a refused voice through', async () => {
    const { error } = await collectFailure(
      direct.synthesize(call(settings({ model: 'g_model_1', voice: 'Vesna' }))),
    );
    expect(error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 400,
      message: "Voice 'Vesna' not found for model g_model_1",
    });
  });

  it.each([
    [402, 'provider_rejected'],
    [429, 'provider_rate_limited'],
    [503, 'provider_unavailable'],
  ])('maps HTTP %i before the audio to %s', async (status, code) => {
    await t.control.injectFault({ vendor: 'vendor_g', kind: 'error', status, message: `said ${status}` });
    const { error } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code, providerStatus: status, message: `said ${status}` });
  });

  it('throws provider_unavailable when the body is cut', async () => {
    await t.control.injectFault({ vendor: 'vendor_g', kind: 'cut', afterBytes: 5000 });
    const { error, audio } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code: 'provider_unavailable' });
    expect(audio.length).toBeLessThanOrEqual(5000);
  });

  it('fails a take whose body ended cleanly but whose trailers report an error', async () => {
    await t.control.injectFault({
      vendor: 'vendor_g',
      kind: 'error',
      status: 503,
      message: 'model overloaded',
      afterBytes: 5000,
    });
    const { error, audio } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({
      code: 'provider_unavailable',
      providerStatus: 503,
      message: 'model overloaded',
    });
    expect(audio.length).toBeGreaterThan(0);
    expect(audio.length).toBeLessThanOrEqual(5000);
  });

  it('stops the upstream call when the signal aborts mid-stream', async () => {
    await t.control.setPacing('vendor_g', { factor: 1 });
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
