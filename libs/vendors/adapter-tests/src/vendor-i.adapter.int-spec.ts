import { RouterError, type SynthSettings } from '@router/contracts';
import { vendorI, VendorIAdapter } from '@router/vendor-i';
import { parseMp3, parseWav, readTakeId, sampleCount, spokenMs } from '@router/vendor-sim';
import { resolveSettings, type ClientSettings } from '@router/vendors-core';
import { collect, collectFailure, startAdapterSim, type AdapterSim } from './adapter-harness';

const KEY = 'i-org-key';
const TEXT = 'Good morning, the weather is lovely today.';

describe('vendor_i adapter against the simulated vendor', () => {
  let t: AdapterSim;
  let direct: VendorIAdapter;
  let proxied: VendorIAdapter;
  let voice: string;

  const settings = (client: Partial<ClientSettings> = {}): SynthSettings =>
    resolveSettings(
      vendorI,
      { model: 'i_model_2', voice, format: 'pcm', sampleRate: 24000, options: {}, ...client },
      'speech',
    );
  const call = (s: SynthSettings, extra: { key?: string; signal?: AbortSignal } = {}) => ({
    apiKey: extra.key ?? KEY,
    settings: s,
    text: TEXT,
    signal: extra.signal ?? new AbortController().signal,
  });

  beforeAll(async () => {
    t = await startAdapterSim();
    direct = new VendorIAdapter({ baseUrl: t.base('vendor_i') });
    proxied = new VendorIAdapter({ baseUrl: t.proxy.base('vendor_i') });
    const listed = await fetch(`${t.base('vendor_i')}/voices?limit=1`, {
      headers: { 'x-api-key': KEY, 'vendor_i-version': '2026-08-14' },
    });
    voice = ((await listed.json()) as { data: { id: string }[] }).data[0]?.id ?? '';
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

  it('streams the SSE chunks as audio, sends every setting in its vendor field and yields word timings', async () => {
    const s = settings({ speed: 0.8, sampleRate: 16000, options: { volume: 1.5, emotion: 'calm' } });
    const take = await collect(proxied.synthesize(call(s)));

    expect(take.chunks.length).toBeGreaterThan(3);
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT, { speed: 0.8 }), 16000) * 2);
    const sent = t.proxy.last();
    expect(sent.path).toBe('/tts/sse');
    expect(sent.headers['x-api-key']).toBe(KEY);
    expect(sent.headers['vendor_i-version']).toBe('2026-08-14');
    expect(sent.body).toEqual({
      model_id: 'i_model_2',
      transcript: TEXT,
      voice: { mode: 'id', id: voice },
      language: 'en',
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
      generation_config: { speed: 0.8, volume: 1.5, emotion: 'calm' },
      add_timestamps: true,
    });
    const words = take.words ?? [];
    expect(words.map((w) => TEXT.slice(w.start, w.end))).toEqual(TEXT.split(' '));
    expect(words[0]?.startMs).toBe(0);
    expect(words.at(-1)?.endMs).toBeCloseTo(spokenMs(TEXT, { speed: 0.8 }), -1);
    const [record] = await t.control.calls('vendor_i', { key: KEY });
    expect(record?.endpoint).toBe('sse');
    expect(readTakeId(take.audio, 'pcm')).toBe(record?.takeId);
  });

  it('sends no timestamps request and yields no words when word_timestamps is off', async () => {
    const take = await collect(proxied.synthesize(call(settings({ options: { word_timestamps: false } }))));
    expect(take.words).toBeNull();
    expect(t.proxy.last().body).not.toHaveProperty('add_timestamps');
  });

  it('passes the one-shot WAV and mp3 through, and mulaw at one byte per sample', async () => {
    const wav = await collect(direct.synthesize(call(settings({ format: 'wav', sampleRate: 22050 }))));
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 22050, bitsPerSample: 16 });
    expect(wav.words).toBeNull();
    expect(await t.control.callCount('vendor_i', { key: KEY, endpoint: 'bytes' })).toBe(1);
    const mp3 = await collect(direct.synthesize(call(settings({ format: 'mp3', sampleRate: 44100 }))));
    expect(parseMp3(mp3.audio).frames[0]).toMatchObject({ sampleRate: 44100, bitrateKbps: 128 });
    const mulaw = await collect(direct.synthesize(call(settings({ format: 'mulaw', sampleRate: 8000 }))));
    expect(mulaw.audio.length).toBe(sampleCount(spokenMs(TEXT), 8000));
    expect(direct.contentType(settings({ format: 'mulaw', sampleRate: 8000 }))).toBe('audio/mulaw');
  });

  it('reports a wrong key as provider_rejected 401 with the vendor message', async () => {
    const { error } = await collectFailure(direct.synthesize(call(settings(), { key: 'bad-key' })));
    expect(error).toBeInstanceOf(RouterError);
    expect(error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 401,
      message: 'Invalid API key.',
    });
  });

  it('passes the vendor message of a validation refusal through', async () => {
    const { error } = await collectFailure(direct.synthesize(call(settings({ voice: 'no-such-voice' }))));
    expect(error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 404,
      message: 'Voice no-such-voice was not found',
    });
  });

  it.each([
    [429, 'provider_rate_limited'],
    [500, 'provider_unavailable'],
  ])('maps HTTP %i before the stream to %s', async (status, code) => {
    await t.control.injectFault({ vendor: 'vendor_i', kind: 'error', status, message: `said ${status}` });
    const { error } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code, providerStatus: status, message: `said ${status}` });
  });

  it('maps an SSE error event after audio to the status and message it carries', async () => {
    await t.control.injectFault({
      vendor: 'vendor_i',
      kind: 'error',
      status: 503,
      afterBytes: 4000,
      message: 'overloaded',
    });
    const { error, audio } = await collectFailure(direct.synthesize(call(settings())));
    expect(audio.length).toBe(4000);
    expect(error).toMatchObject({ code: 'provider_unavailable', providerStatus: 503, message: 'overloaded' });
  });

  it('throws provider_unavailable when the stream or the one-shot body is cut', async () => {
    await t.control.injectFault({ vendor: 'vendor_i', kind: 'cut', afterBytes: 5000, times: 2 });
    const sse = await collectFailure(direct.synthesize(call(settings())));
    expect(sse.error).toMatchObject({ code: 'provider_unavailable' });
    expect(sse.audio.length).toBeGreaterThan(0);
    const wav = await collectFailure(direct.synthesize(call(settings({ format: 'wav' }))));
    expect(wav.error).toMatchObject({ code: 'provider_unavailable' });
  });

  it('stops the upstream call when the signal aborts mid-stream', async () => {
    await t.control.setPacing('vendor_i', { factor: 1 });
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
