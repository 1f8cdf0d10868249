import { RouterError, type SynthSettings } from '@router/contracts';
import { vendorE, VendorEAdapter } from '@router/vendor-e';
import { parseMp3, parseWav, readTakeId, sampleCount, spokenMs } from '@router/vendor-sim';
import { resolveSettings, type ClientSettings } from '@router/vendors-core';
import { collect, collectFailure, startAdapterSim, type AdapterSim } from './adapter-harness';

const KEY = 'e-org-key';
const TEXT = 'Your appointment is confirmed for Tuesday at ten.';

function settings(client: Partial<ClientSettings> = {}): SynthSettings {
  return resolveSettings(
    vendorE,
    { model: 'e_model_1', voice: 'orla-en', format: 'pcm', sampleRate: 24000, options: {}, ...client },
    'speech',
  );
}

describe('vendor_e adapter against the simulated vendor', () => {
  let t: AdapterSim;
  let direct: VendorEAdapter;
  let proxied: VendorEAdapter;
  const call = (s: SynthSettings, extra: { key?: string; signal?: AbortSignal } = {}) => ({
    apiKey: extra.key ?? KEY,
    settings: s,
    text: TEXT,
    signal: extra.signal ?? new AbortController().signal,
  });

  beforeAll(async () => {
    t = await startAdapterSim();
    direct = new VendorEAdapter({ baseUrl: t.base('vendor_e') });
    proxied = new VendorEAdapter({ baseUrl: t.proxy.base('vendor_e') });
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

  it('streams /v1/speak audio chunk by chunk with every setting in the vendor query', async () => {
    const s = settings({ speed: 0.8, sampleRate: 16000, options: { mip_opt_out: true } });
    const take = await collect(proxied.synthesize(call(s)));

    expect(take.chunks.length).toBeGreaterThan(3);
    expect(take.words).toBeNull();
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT, { speed: 0.8 }), 16000) * 2);
    const sent = t.proxy.last();
    expect(sent.path).toBe(
      '/v1/speak?model=e_model_1-orla-en&encoding=linear16&container=none&sample_rate=16000&speed=0.8&mip_opt_out=true',
    );
    expect(sent.headers['authorization']).toBe(`Token ${KEY}`);
    expect(sent.body).toEqual({ text: TEXT });
    const [record] = await t.control.calls('vendor_e', { key: KEY });
    expect(record?.endpoint).toBe('rest');
    expect(readTakeId(take.audio, 'pcm')).toBe(record?.takeId);
  });

  it('sends the second-generation model to /v2/speak and yields its whole take', async () => {
    const take = await collect(proxied.synthesize(call(settings({ model: 'e_model_3', voice: 'wren-en' }))));
    expect(t.proxy.last().path.startsWith('/v2/speak?model=e_model_3-wren-en&')).toBe(true);
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
    const [record] = await t.control.calls('vendor_e', { endpoint: 'rest-v2' });
    expect(readTakeId(take.audio, 'pcm')).toBe(record?.takeId);
  });

  it('passes WAV, mp3 (at the rate and bit rate asked) and G.711 through untouched', async () => {
    const wav = await collect(direct.synthesize(call(settings({ format: 'wav', sampleRate: 44100 }))));
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 44100, bitsPerSample: 16 });
    const mp3Settings = settings({ format: 'mp3', sampleRate: 24000, options: { bit_rate: 32000 } });
    const mp3 = await collect(direct.synthesize(call(mp3Settings)));
    const frames = parseMp3(mp3.audio).frames;
    expect(new Set(frames.map((f) => `${f.sampleRate}/${f.bitrateKbps}`))).toEqual(new Set(['24000/32']));
    const mulaw = await collect(direct.synthesize(call(settings({ format: 'mulaw', sampleRate: 8000 }))));
    expect(mulaw.audio.length).toBe(sampleCount(spokenMs(TEXT), 8000));
    expect(direct.contentType(mp3Settings)).toBe('audio/mpeg');
  });

  it('reports a wrong key as provider_rejected 401 with the vendor message', async () => {
    const { error } = await collectFailure(direct.synthesize(call(settings(), { key: 'bad-key' })));
    expect(error).toBeInstanceOf(RouterError);
    expect(error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 401,
      message: 'Invalid credentials.',
    });
  });

  it('passes the vendor message of a refusal through (a voice the model lacks)', async () => {
    const { error } = await collectFailure(direct.synthesize(call({ ...settings(), voice: 'marisol-es' })));
    expect(error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 400,
      message: 'No such model: e_model_1-marisol-es',
    });
  });

  it.each([
    [429, 'provider_rate_limited'],
    [500, 'provider_unavailable'],
  ])('maps HTTP %i before the audio to %s', async (status, code) => {
    await t.control.injectFault({ vendor: 'vendor_e', kind: 'error', status, message: `said ${status}` });
    const { error } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code, providerStatus: status, message: `said ${status}` });
  });

  it('throws provider_unavailable when the audio is cut, on either endpoint', async () => {
    await t.control.injectFault({ vendor: 'vendor_e', kind: 'cut', afterBytes: 4000, times: 2 });
    const v1 = await collectFailure(direct.synthesize(call(settings())));
    expect(v1.error).toMatchObject({ code: 'provider_unavailable' });
    expect(v1.audio.length).toBeGreaterThan(0);
    const v2 = await collectFailure(
      direct.synthesize(call(settings({ model: 'e_model_3', voice: 'wren-en' }))),
    );
    expect(v2.error).toMatchObject({ code: 'provider_unavailable' });
  });

  it('stops the upstream call when the signal aborts mid-stream', async () => {
    await t.control.setPacing('vendor_e', { factor: 1 });
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
