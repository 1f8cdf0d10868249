import { vendorH, VendorHAdapter } from '@router/vendor-h';
import { parseWav, sampleCount, spokenMs } from '@router/vendor-sim';
import { collect, useAdapterSim } from './adapter-harness';

const KEY = 'h-org-key';
const TEXT = 'Good morning, the weather is lovely today.';
const VOICE = 'h1_voice_f1';

describe('vendor_h adapter against the simulated vendor', () => {
  const t = useAdapterSim(vendorH, (o) => new VendorHAdapter(o), {
    key: KEY,
    text: TEXT,
    defaults: { model: 'h_model_1', voice: VOICE, format: 'pcm', sampleRate: 24000, options: {} },
  });
  const { settings, call } = t;

  it('streams the SSE audio events and sends every setting in the vendor field, language defaulting to en', async () => {
    const s = settings({ speed: 1.5, sampleRate: 16000 });
    const take = await collect(t.proxied.synthesize(call(s)));

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
    await t.expectRecordedTake(take.audio, 'sse');
  });

  it('passes WAV through with its 16-bit header at the asked rate', async () => {
    const s = settings({ format: 'wav', sampleRate: 44100, model: 'h_model_2', language: 'ja' });
    const wav = await collect(t.direct.synthesize(call(s)));
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 44100, bitsPerSample: 16 });
    expect(t.direct.contentType(s)).toBe('audio/wav');
  });

  it('completes a take without audio for text with no letter or digit', async () => {
    const take = await collect(t.direct.synthesize(call(settings(), { text: '…!' })));
    expect(take.audio.length).toBe(0);
  });

  t.itRejectsWrongKey({ providerStatus: 401, message: 'unauthorized' });
  t.itPassesRefusalThrough('an unknown voice', () => settings({ voice: 'nobody' }), {
    providerStatus: 400,
    message: "voice_id 'nobody' not found",
  });
  t.itMapsHttpStatuses([
    [429, 'provider_rate_limited'],
    [503, 'provider_unavailable'],
  ]);
  t.itFailsOnErrorEvent({ status: 500, message: 'engine failed' });
  t.itFailsOnCut('throws provider_unavailable when the stream is cut before done');
  t.itStopsUpstreamOnAbort();
});
