import { vendorF, VendorFAdapter } from '@router/vendor-f';
import { parseMp3, parseWav, readTakeId, sampleCount, spokenMs } from '@router/vendor-sim';
import { collect, useAdapterSim } from './adapter-harness';

const KEY = 'f-org-key';
const TEXT = 'Your order has shipped and will arrive on Friday.';

describe('vendor_f adapter against the simulated vendor', () => {
  const t = useAdapterSim(vendorF, (o) => new VendorFAdapter(o), {
    key: KEY,
    text: TEXT,
    defaults: { model: 'f_model_1', voice: 'birch', format: 'pcm', sampleRate: 24000, options: {} },
  });
  const { settings, call } = t;

  it('streams the raw audio chunk by chunk and sends every setting in the vendor field', async () => {
    const s = settings({
      language: 'pt-BR',
      speed: 1.2,
      sampleRate: 16000,
      options: { optimize_streaming_latency: 2, text_normalization: false },
    });
    const take = await collect(t.proxied.synthesize(call(s)));

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
    await t.expectRecordedTake(take.audio, 'rest');
  });

  it('sends auto when no language is set, and speaks a custom voice of the account', async () => {
    const list = (await (
      await fetch(`${t.base()}/v1/tts/voices`, { headers: { authorization: `Bearer ${KEY}` } })
    ).json()) as { voices: { voice_id: string; type: string }[] };
    const custom = list.voices.find((v) => v.type === 'custom');
    expect(custom).toBeDefined();
    const take = await collect(t.proxied.synthesize(call({ ...settings(), voice: custom?.voice_id ?? '' })));
    expect(t.proxy.last().body).toMatchObject({ language: 'auto', voice_id: custom?.voice_id });
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
  });

  it('passes mp3 (with its bit rate) and WAV through untouched', async () => {
    const mp3Settings = settings({ format: 'mp3', sampleRate: 44100, options: { bit_rate: 96000 } });
    const mp3 = await collect(t.direct.synthesize(call(mp3Settings)));
    expect(new Set(parseMp3(mp3.audio).frames.map((f) => `${f.sampleRate}/${f.bitrateKbps}`))).toEqual(
      new Set(['44100/96']),
    );
    expect(readTakeId(mp3.audio, 'mp3')).toMatch(/^[0-9a-f]{16}$/);
    const wav = await collect(t.direct.synthesize(call(settings({ format: 'wav', sampleRate: 8000 }))));
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 8000, bitsPerSample: 16 });
    expect(t.direct.contentType(mp3Settings)).toBe('audio/mpeg');
  });

  t.itRejectsWrongKey({ providerStatus: 401, message: 'incorrect API key provided' }, 'gateway');
  t.itPassesRefusalThrough(
    "another account's custom voice",
    () => ({ ...settings(), voice: 'custom-000000000000-a' }),
    { providerStatus: 400, message: 'invalid voice: custom-000000000000-a' },
  );
  t.itMapsHttpStatuses([
    [429, 'provider_rate_limited'],
    [502, 'provider_unavailable'],
  ]);
  t.itFailsOnCut('throws provider_unavailable when the audio is cut');
  t.itStopsUpstreamOnAbort();
});
