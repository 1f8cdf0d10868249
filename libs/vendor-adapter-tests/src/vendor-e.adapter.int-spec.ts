import { vendorE, VendorEAdapter } from '@router/vendor-e';
import { parseMp3, parseWav, readTakeId, sampleCount, spokenMs } from '@router/vendor-sim';
import { collect, collectFailure, useAdapterSim } from './adapter-harness';

const KEY = 'e-org-key';
const TEXT = 'Your appointment is confirmed for Tuesday at ten.';

describe('vendor_e adapter against the simulated vendor', () => {
  const t = useAdapterSim(vendorE, (o) => new VendorEAdapter(o), {
    key: KEY,
    text: TEXT,
    defaults: { model: 'e_model_1', voice: 'orla-en', format: 'pcm', sampleRate: 24000, options: {} },
  });
  const { settings, call } = t;

  it('streams /v1/speak audio chunk by chunk with every setting in the vendor query', async () => {
    const s = settings({ speed: 0.8, sampleRate: 16000, options: { mip_opt_out: true } });
    const take = await collect(t.proxied.synthesize(call(s)));

    expect(take.chunks.length).toBeGreaterThan(3);
    expect(take.words).toBeNull();
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT, { speed: 0.8 }), 16000) * 2);
    const sent = t.proxy.last();
    expect(sent.path).toBe(
      '/v1/speak?model=e_model_1-orla-en&encoding=linear16&container=none&sample_rate=16000&speed=0.8&mip_opt_out=true',
    );
    expect(sent.headers['authorization']).toBe(`Token ${KEY}`);
    expect(sent.body).toEqual({ text: TEXT });
    await t.expectRecordedTake(take.audio, 'rest');
  });

  it('sends the second-generation model to /v2/speak and yields its whole take', async () => {
    const take = await collect(
      t.proxied.synthesize(call(settings({ model: 'e_model_3', voice: 'wren-en' }))),
    );
    expect(t.proxy.last().path.startsWith('/v2/speak?model=e_model_3-wren-en&')).toBe(true);
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
    const [record] = await t.control.calls('vendor_e', { endpoint: 'rest-v2' });
    expect(readTakeId(take.audio, 'pcm')).toBe(record?.takeId);
  });

  it('passes WAV, mp3 (at the rate and bit rate asked) and G.711 through untouched', async () => {
    const wav = await collect(t.direct.synthesize(call(settings({ format: 'wav', sampleRate: 44100 }))));
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 44100, bitsPerSample: 16 });
    const mp3Settings = settings({ format: 'mp3', sampleRate: 24000, options: { bit_rate: 32000 } });
    const mp3 = await collect(t.direct.synthesize(call(mp3Settings)));
    const frames = parseMp3(mp3.audio).frames;
    expect(new Set(frames.map((f) => `${f.sampleRate}/${f.bitrateKbps}`))).toEqual(new Set(['24000/32']));
    const mulaw = await collect(t.direct.synthesize(call(settings({ format: 'mulaw', sampleRate: 8000 }))));
    expect(mulaw.audio.length).toBe(sampleCount(spokenMs(TEXT), 8000));
    expect(t.direct.contentType(mp3Settings)).toBe('audio/mpeg');
  });

  t.itRejectsWrongKey({ providerStatus: 401, message: 'Invalid credentials.' });
  t.itPassesRefusalThrough('a voice the model lacks', () => ({ ...settings(), voice: 'marisol-es' }), {
    providerStatus: 400,
    message: 'No such model: e_model_1-marisol-es',
  });
  t.itMapsHttpStatuses([
    [429, 'provider_rate_limited'],
    [500, 'provider_unavailable'],
  ]);

  it('throws provider_unavailable when the audio is cut, on either endpoint', async () => {
    await t.control.injectFault({ vendor: 'vendor_e', kind: 'cut', afterBytes: 4000, times: 2 });
    const v1 = await collectFailure(t.direct.synthesize(call(settings())));
    expect(v1.error).toMatchObject({ code: 'provider_unavailable' });
    expect(v1.audio.length).toBeGreaterThan(0);
    const v2 = await collectFailure(
      t.direct.synthesize(call(settings({ model: 'e_model_3', voice: 'wren-en' }))),
    );
    expect(v2.error).toMatchObject({ code: 'provider_unavailable' });
  });

  t.itStopsUpstreamOnAbort();
});
