import { RouterError, type SynthSettings } from '@router/contracts';
import { vendorD, VendorDAdapter } from '@router/vendor-d';
import { parseMp3, parseWav, readTakeId, sampleCount, spokenMs } from '@router/vendor-sim';
import { resolveSettings, type ClientSettings } from '@router/vendors-core';
import { collect, collectFailure, startAdapterSim, type AdapterSim } from './adapter-harness';

const KEY = 'd-org-key';
const TEXT = 'The weather is lovely today, so let us go for a walk.';

function settings(client: Partial<ClientSettings> = {}): SynthSettings {
  return resolveSettings(
    vendorD,
    { model: 'd_model_3', voice: 'heron', format: 'pcm', sampleRate: 24000, options: {}, ...client },
    'speech',
  );
}

describe('vendor_d adapter against the simulated vendor', () => {
  let t: AdapterSim;
  let direct: VendorDAdapter;
  let proxied: VendorDAdapter;
  const call = (s: SynthSettings, extra: { key?: string; signal?: AbortSignal } = {}) => ({
    apiKey: extra.key ?? KEY,
    settings: s,
    text: TEXT,
    signal: extra.signal ?? new AbortController().signal,
  });

  beforeAll(async () => {
    t = await startAdapterSim();
    direct = new VendorDAdapter({ baseUrl: t.base('vendor_d') });
    proxied = new VendorDAdapter({ baseUrl: t.proxy.base('vendor_d') });
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

  it('streams the raw audio chunk by chunk and sends every setting in the vendor field', async () => {
    const s = settings({ speed: 2, options: { instructions: 'Bright and quick.' } });
    const take = await collect(proxied.synthesize(call(s)));

    expect(take.chunks.length).toBeGreaterThan(3);
    expect(take.words).toBeNull();
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT, { speed: 2 }), 24000) * 2);
    const sent = t.proxy.last();
    expect(sent.path).toBe('/v1/audio/speech');
    expect(sent.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(sent.body).toEqual({
      model: 'd_model_3',
      voice: 'heron',
      input: TEXT,
      response_format: 'pcm',
      speed: 2,
      stream_format: 'audio',
      instructions: 'Bright and quick.',
    });
    const [record] = await t.control.calls('vendor_d', { key: KEY });
    expect(record?.endpoint).toBe('audio');
    expect(readTakeId(take.audio, 'pcm')).toBe(record?.takeId);
  });

  it('leaves instructions out for an older model, which the vendor serves as raw audio', async () => {
    const s = settings({ model: 'd_model_1', options: { instructions: 'Slow.' } });
    const take = await collect(proxied.synthesize(call(s)));
    expect(t.proxy.last().body).not.toHaveProperty('instructions');
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
  });

  it('passes mp3 and wav through untouched, with the router content types', async () => {
    const mp3 = await collect(direct.synthesize(call(settings({ format: 'mp3' }))));
    expect(parseMp3(mp3.audio).trailingBytes).toBe(0);
    expect(readTakeId(mp3.audio, 'mp3')).toMatch(/^[0-9a-f]{16}$/);
    const wav = await collect(direct.synthesize(call(settings({ format: 'wav' }))));
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 24000, bitsPerSample: 16 });
    expect(direct.contentType(settings({ format: 'mp3' }))).toBe('audio/mpeg');
    expect(direct.contentType(settings({ format: 'aac' }))).toBe('audio/aac');
  });

  it('reports a wrong key as provider_rejected 401 with the vendor message', async () => {
    const { error } = await collectFailure(direct.synthesize(call(settings(), { key: 'bad-key' })));
    expect(error).toBeInstanceOf(RouterError);
    expect(error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 401,
      message: 'Incorrect API key provided.',
    });
  });

  it('passes the vendor message of a validation refusal through', async () => {
    const { error } = await collectFailure(direct.synthesize(call({ ...settings(), voice: 'nobody' })));
    expect(error).toMatchObject({ code: 'provider_rejected', providerStatus: 400 });
    expect((error as RouterError).message).toMatch(/voice/);
  });

  it.each([
    [429, 'provider_rate_limited'],
    [503, 'provider_unavailable'],
  ])('maps HTTP %i before the audio to %s', async (status, code) => {
    await t.control.injectFault({ vendor: 'vendor_d', kind: 'error', status, message: `said ${status}` });
    const { error } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code, providerStatus: status, message: `said ${status}` });
  });

  it('throws provider_unavailable when the audio is cut', async () => {
    await t.control.injectFault({ vendor: 'vendor_d', kind: 'cut', afterBytes: 5000 });
    const { error, audio } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code: 'provider_unavailable' });
    expect(audio.length).toBeGreaterThan(0);
    expect(audio.length).toBeLessThan(sampleCount(spokenMs(TEXT), 24000) * 2);
  });

  it('stops the upstream call when the signal aborts mid-stream', async () => {
    await t.control.setPacing('vendor_d', { factor: 1 });
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
