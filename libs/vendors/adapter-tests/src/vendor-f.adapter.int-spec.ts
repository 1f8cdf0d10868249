import { RouterError, type SynthSettings } from '@router/contracts';
import { vendorF, VendorFAdapter } from '@router/vendor-f';
import { parseMp3, parseWav, readTakeId, sampleCount, spokenMs } from '@router/vendor-sim';
import { resolveSettings, type ClientSettings } from '@router/vendors-core';
import { collect, collectFailure, startAdapterSim, type AdapterSim } from './adapter-harness';

const KEY = 'f-org-key';
const TEXT = 'Your order has shipped and will arrive on Friday.';

function settings(client: Partial<ClientSettings> = {}): SynthSettings {
  return resolveSettings(
    vendorF,
    { model: 'f_model_1', voice: 'birch', format: 'pcm', sampleRate: 24000, options: {}, ...client },
    'speech',
  );
}

describe('vendor_f adapter against the simulated vendor', () => {
  let t: AdapterSim;
  let direct: VendorFAdapter;
  let proxied: VendorFAdapter;
  const call = (s: SynthSettings, extra: { key?: string; signal?: AbortSignal } = {}) => ({
    apiKey: extra.key ?? KEY,
    settings: s,
    text: TEXT,
    signal: extra.signal ?? new AbortController().signal,
  });

  beforeAll(async () => {
    t = await startAdapterSim();
    direct = new VendorFAdapter({ baseUrl: t.base('vendor_f') });
    proxied = new VendorFAdapter({ baseUrl: t.proxy.base('vendor_f') });
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
    const s = settings({
      language: 'pt-BR',
      speed: 1.2,
      sampleRate: 16000,
      options: { optimize_streaming_latency: 2, text_normalization: false },
    });
    const take = await collect(proxied.synthesize(call(s)));

    expect(take.chunks.length).toBeGreaterThan(3);
    expect(take.words).toBeNull();
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT, { speed: 1.2 }), 16000) * 2);
    const sent = t.proxy.last();
    expect(sent.path).toBe('/v1/tts');
    expect(sent.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(sent.body).toEqual({
      text: TEXT,
      voice_id: 'birch',
      language: 'pt-BR',
      output_format: { codec: 'pcm', sample_rate: 16000 },
      speed: 1.2,
      optimize_streaming_latency: 2,
      text_normalization: false,
    });
    const [record] = await t.control.calls('vendor_f', { key: KEY });
    expect(record?.endpoint).toBe('rest');
    expect(readTakeId(take.audio, 'pcm')).toBe(record?.takeId);
  });

  it('sends auto when no language is set, and speaks a custom voice of the account', async () => {
    const list = (await (
      await fetch(`${t.base('vendor_f')}/v1/tts/voices`, { headers: { authorization: `Bearer ${KEY}` } })
    ).json()) as { voices: { voice_id: string; type: string }[] };
    const custom = list.voices.find((v) => v.type === 'custom');
    expect(custom).toBeDefined();
    const take = await collect(proxied.synthesize(call({ ...settings(), voice: custom?.voice_id ?? '' })));
    expect(t.proxy.last().body).toMatchObject({ language: 'auto', voice_id: custom?.voice_id });
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
  });

  it('passes mp3 (with its bit rate) and WAV through untouched', async () => {
    const mp3Settings = settings({ format: 'mp3', sampleRate: 44100, options: { bit_rate: 96000 } });
    const mp3 = await collect(direct.synthesize(call(mp3Settings)));
    expect(new Set(parseMp3(mp3.audio).frames.map((f) => `${f.sampleRate}/${f.bitrateKbps}`))).toEqual(
      new Set(['44100/96']),
    );
    expect(readTakeId(mp3.audio, 'mp3')).toMatch(/^[0-9a-f]{16}$/);
    const wav = await collect(direct.synthesize(call(settings({ format: 'wav', sampleRate: 8000 }))));
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 8000, bitsPerSample: 16 });
    expect(direct.contentType(mp3Settings)).toBe('audio/mpeg');
  });

  it('reports a wrong key as provider_rejected 401 with the gateway message', async () => {
    const { error } = await collectFailure(direct.synthesize(call(settings(), { key: 'bad-key' })));
    expect(error).toBeInstanceOf(RouterError);
    expect(error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 401,
      message: 'incorrect API key provided',
    });
  });

  it("passes the vendor message of a refusal through (another account's custom voice)", async () => {
    const { error } = await collectFailure(
      direct.synthesize(call({ ...settings(), voice: 'custom-000000000000-a' })),
    );
    expect(error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 400,
      message: 'invalid voice: custom-000000000000-a',
    });
  });

  it.each([
    [429, 'provider_rate_limited'],
    [502, 'provider_unavailable'],
  ])('maps HTTP %i before the audio to %s', async (status, code) => {
    await t.control.injectFault({ vendor: 'vendor_f', kind: 'error', status, message: `said ${status}` });
    const { error } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code, providerStatus: status, message: `said ${status}` });
  });

  it('throws provider_unavailable when the audio is cut', async () => {
    await t.control.injectFault({ vendor: 'vendor_f', kind: 'cut', afterBytes: 5000 });
    const { error, audio } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code: 'provider_unavailable' });
    expect(audio.length).toBeGreaterThan(0);
  });

  it('stops the upstream call when the signal aborts mid-stream', async () => {
    await t.control.setPacing('vendor_f', { factor: 1 });
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
