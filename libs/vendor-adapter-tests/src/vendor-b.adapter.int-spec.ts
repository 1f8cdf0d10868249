import { vendorB, VendorBAdapter } from '@router/vendor-b';
import { parseWav, sampleCount, spokenMs } from '@router/vendor-sim';
import { collect, useAdapterSim } from './adapter-harness';

const KEY = 'b-org-key';
const TEXT = 'Namaste, aaj mausam bahut accha hai.';
const VOICE = 'b_voice_hi_f1';

describe('vendor_b adapter against the simulated vendor', () => {
  const t = useAdapterSim(vendorB, (o) => new VendorBAdapter(o), {
    key: KEY,
    text: TEXT,
    defaults: {
      model: 'b_model_1',
      voice: VOICE,
      language: 'hi',
      format: 'pcm',
      sampleRate: 24000,
      options: {},
    },
  });
  const { settings, call } = t;

  it('streams the SSE chunks as audio events and sends every setting in the vendor field', async () => {
    const s = settings({ speed: 0.8, sampleRate: 16000 });
    const take = await collect(t.proxied.synthesize(call(s)));

    expect(take.chunks.length).toBeGreaterThan(3);
    expect(take.words).toBeNull();
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT, { speed: 0.8 }), 16000) * 2);
    const sent = t.proxy.last();
    expect(sent.path).toBe('/v1/text-to-speech/stream');
    expect(sent.headers['x-api-key']).toBe(KEY);
    expect(sent.body).toEqual({
      text: TEXT,
      voice_id: VOICE,
      language: 'hi',
      model: 'b_model_1',
      codec: 'pcm',
      sample_rate: 16000,
      speed: 0.8,
    });
    await t.expectRecordedTake(take.audio, 'sse');
  });

  it('passes WAV through with its header, and mulaw at one byte per sample', async () => {
    const wav = await collect(t.direct.synthesize(call(settings({ format: 'wav', sampleRate: 22050 }))));
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 22050, bitsPerSample: 16 });
    const mulaw = await collect(t.direct.synthesize(call(settings({ format: 'mulaw', sampleRate: 8000 }))));
    expect(mulaw.audio.length).toBe(sampleCount(spokenMs(TEXT), 8000));
    expect(t.direct.contentType(settings({ format: 'mulaw', sampleRate: 8000 }))).toBe('audio/mulaw');
  });

  t.itRejectsWrongKey({ providerStatus: 401, message: 'Invalid authentication credentials' }, 'gateway');
  t.itPassesRefusalThrough('a voice of another model', () => settings({ model: 'b_model_2' }), {
    providerStatus: 400,
    message: `voice_id '${VOICE}' belongs to model b_model_1`,
  });
  t.itMapsHttpStatuses([
    [429, 'provider_rate_limited'],
    [500, 'provider_unavailable'],
  ]);
  t.itFailsOnErrorEvent({ status: 503, message: 'overloaded' });
  t.itFailsOnCut('throws provider_unavailable when the stream is cut before done');
  t.itStopsUpstreamOnAbort();
});
