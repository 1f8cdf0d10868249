import type { SynthSettings } from '@router/contracts';
import { parseVendorIRequest, vendorI, VendorIAdapter, vendorISocketSettings } from '@router/vendor-i';
import { parseMp3, parseWav, sampleCount, spokenMs } from '@router/vendor-sim';
import { collect, collectFailure, useAdapterSim } from './adapter-harness';

const KEY = 'i-org-key';
const TEXT = 'Good morning, the weather is lovely today.';

describe('vendor_i adapter against the simulated vendor', () => {
  let voice: string;
  const t = useAdapterSim(vendorI, (o) => new VendorIAdapter(o), {
    key: KEY,
    text: TEXT,
    defaults: () => ({ model: 'i_model_2', voice, format: 'pcm', sampleRate: 24000, options: {} }),
  });
  const { settings, call } = t;

  beforeAll(async () => {
    const listed = await fetch(`${t.base()}/voices?limit=1`, {
      headers: { 'x-api-key': KEY, 'vendor_i-version': '2026-08-14' },
    });
    voice = ((await listed.json()) as { data: { id: string }[] }).data[0]?.id ?? '';
  });

  it('streams the SSE chunks as audio, sends every setting in its vendor field and yields word timings', async () => {
    const s = settings({ speed: 0.8, sampleRate: 16000, options: { volume: 1.5, emotion: 'calm' } });
    const take = await collect(t.proxied.synthesize(call(s)));

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
    await t.expectRecordedTake(take.audio, 'sse');
  });

  it("sends a mirror socket's regional locale as the language it named, in place of the settings' own", async () => {
    const message = {
      model_id: 'i_model_2',
      transcript: TEXT,
      voice: { mode: 'id', id: voice },
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 },
      locale: 'en-GB',
      context_id: 'c1',
    };
    const parsed = parseVendorIRequest(message, true, () => true);
    if (!parsed.ok) throw new Error(parsed.problem.message);
    const s: SynthSettings = vendorISocketSettings(message, parsed.request);
    expect(s).toMatchObject({ language: 'en', options: { language: 'en-GB' } });

    const take = await collect(t.proxied.synthesize(call(s)));
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
    expect(t.proxy.last().body).toEqual({
      model_id: 'i_model_2',
      transcript: TEXT,
      voice: { mode: 'id', id: voice },
      language: 'en-GB',
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 },
      add_timestamps: true,
    });
  });

  it('sends no timestamps request and yields no words when word_timestamps is off', async () => {
    const take = await collect(t.proxied.synthesize(call(settings({ options: { word_timestamps: false } }))));
    expect(take.words).toBeNull();
    expect(t.proxy.last().body).not.toHaveProperty('add_timestamps');
  });

  it('passes the one-shot WAV and mp3 through, and mulaw at one byte per sample', async () => {
    const wav = await collect(t.direct.synthesize(call(settings({ format: 'wav', sampleRate: 22050 }))));
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 22050, bitsPerSample: 16 });
    expect(wav.words).toBeNull();
    expect(await t.control.callCount('vendor_i', { key: KEY, endpoint: 'bytes' })).toBe(1);
    const mp3 = await collect(t.direct.synthesize(call(settings({ format: 'mp3', sampleRate: 44100 }))));
    expect(parseMp3(mp3.audio).frames[0]).toMatchObject({ sampleRate: 44100, bitrateKbps: 128 });
    const mulaw = await collect(t.direct.synthesize(call(settings({ format: 'mulaw', sampleRate: 8000 }))));
    expect(mulaw.audio.length).toBe(sampleCount(spokenMs(TEXT), 8000));
    expect(t.direct.contentType(settings({ format: 'mulaw', sampleRate: 8000 }))).toBe('audio/mulaw');
  });

  t.itRejectsWrongKey({ providerStatus: 401, message: 'Invalid API key.' });
  t.itPassesRefusalThrough('an unknown voice', () => settings({ voice: 'no-such-voice' }), {
    providerStatus: 404,
    message: 'Voice no-such-voice was not found',
  });
  t.itMapsHttpStatuses([
    [429, 'provider_rate_limited'],
    [500, 'provider_unavailable'],
  ]);
  t.itFailsOnErrorEvent({ status: 503, message: 'overloaded' });

  it('throws provider_unavailable when the stream or the one-shot body is cut', async () => {
    await t.control.injectFault({ vendor: 'vendor_i', kind: 'cut', afterBytes: 5000, times: 2 });
    const sse = await collectFailure(t.direct.synthesize(call(settings())));
    expect(sse.error).toMatchObject({ code: 'provider_unavailable' });
    expect(sse.audio.length).toBeGreaterThan(0);
    const wav = await collectFailure(t.direct.synthesize(call(settings({ format: 'wav' }))));
    expect(wav.error).toMatchObject({ code: 'provider_unavailable' });
  });

  it("keeps the vendor's own error_code, of a refusal and of an error event after audio", async () => {
    const refused = await collectFailure(t.direct.synthesize(call(settings({ voice: 'nobody' }))));
    expect(refused.error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 404,
      providerCode: 'voice_not_found',
    });
    await t.control.injectFault({
      vendor: 'vendor_i',
      kind: 'error',
      status: 500,
      code: 'synthesis_failed',
      message: 'The take failed.',
      afterBytes: 4000,
    });
    const failed = await collectFailure(t.direct.synthesize(call(settings())));
    expect(failed.audio.length).toBe(4000);
    expect(failed.error).toMatchObject({
      code: 'provider_unavailable',
      providerStatus: 500,
      providerCode: 'synthesis_failed',
      message: 'The take failed.',
    });
  });

  t.itStopsUpstreamOnAbort();
});
