import { vendorD, VendorDAdapter } from '@router/vendor-d';
import { parseMp3, parseWav, readTakeId, sampleCount, spokenMs } from '@router/vendor-sim';
import { collect, useAdapterSim } from './adapter-harness';

const KEY = 'd-org-key';
const TEXT = 'The weather is lovely today, so let us go for a walk.';

describe('vendor_d adapter against the simulated vendor', () => {
  const t = useAdapterSim(vendorD, (o) => new VendorDAdapter(o), {
    key: KEY,
    text: TEXT,
    defaults: { model: 'd_model_3', voice: 'heron', format: 'pcm', sampleRate: 24000, options: {} },
  });
  const { settings, call } = t;

  it('streams the raw audio chunk by chunk and sends every setting in the vendor field', async () => {
    const s = settings({ speed: 2, options: { instructions: 'Bright and quick.' } });
    const take = await collect(t.proxied.synthesize(call(s)));

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
    await t.expectRecordedTake(take.audio, 'audio');
  });

  it('leaves instructions out for an older model, which the vendor serves as raw audio', async () => {
    const s = settings({ model: 'd_model_1', options: { instructions: 'Slow.' } });
    const take = await collect(t.proxied.synthesize(call(s)));
    expect(t.proxy.last().body).not.toHaveProperty('instructions');
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
  });

  it('passes mp3 and wav through untouched, with the router content types', async () => {
    const mp3 = await collect(t.direct.synthesize(call(settings({ format: 'mp3' }))));
    expect(parseMp3(mp3.audio).trailingBytes).toBe(0);
    expect(readTakeId(mp3.audio, 'mp3')).toMatch(/^[0-9a-f]{16}$/);
    const wav = await collect(t.direct.synthesize(call(settings({ format: 'wav' }))));
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 24000, bitsPerSample: 16 });
    expect(t.direct.contentType(settings({ format: 'mp3' }))).toBe('audio/mpeg');
    expect(t.direct.contentType(settings({ format: 'aac' }))).toBe('audio/aac');
  });

  t.itRejectsWrongKey({ providerStatus: 401, message: 'Incorrect API key provided.' });
  t.itPassesRefusalThrough('an unknown voice', () => ({ ...settings(), voice: 'nobody' }), {
    providerStatus: 400,
    message: expect.stringMatching(/voice/),
  });
  t.itMapsHttpStatuses([
    [429, 'provider_rate_limited'],
    [503, 'provider_unavailable'],
  ]);
  // At most the 5000 bytes before the cut: far less than the whole take (over 150 kB at 24 kHz).
  t.itFailsOnCut('throws provider_unavailable when the audio is cut');
  t.itStopsUpstreamOnAbort();
});
