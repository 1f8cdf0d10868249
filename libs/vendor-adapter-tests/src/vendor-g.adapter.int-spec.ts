import { vendorG, VendorGAdapter } from '@router/vendor-g';
import { parseMp3, parseWav, sampleCount, spokenMs } from '@router/vendor-sim';
import { collect, collectFailure, useAdapterSim } from './adapter-harness';

const KEY = 'g-org-key';
const TEXT = 'Good evening, and welcome to the show.';
const VOICE = 'Maren';

describe('vendor_g adapter against the simulated vendor', () => {
  const t = useAdapterSim(vendorG, (o) => new VendorGAdapter(o), {
    key: KEY,
    text: TEXT,
    defaults: {
      model: 'g_model_3',
      voice: VOICE,
      language: 'en',
      format: 'pcm',
      sampleRate: 24000,
      options: {},
    },
  });
  const { settings, call } = t;

  it('streams the raw body as audio events and sends every setting in the vendor field', async () => {
    const s = settings({ speed: 0.8, sampleRate: 16000, options: { reduce_silence: true } });
    const take = await collect(t.proxied.synthesize(call(s)));

    expect(take.chunks.length).toBeGreaterThan(0);
    expect(take.words).toBeNull();
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT, { speed: 0.8 }), 16000) * 2);
    const sent = t.proxy.last();
    expect(sent.path).toBe('/tts');
    expect(sent.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(sent.body).toEqual({
      text: TEXT,
      model: 'g_model_3',
      language: 'en',
      voice: VOICE,
      audio_format: 'pcm_s16le',
      sample_rate: 16000,
      speed: 0.8,
      reduce_silence: true,
    });
    await t.expectRecordedTake(take.audio, 'rest');
  });

  it('streams the body in several chunks when the vendor paces it', async () => {
    await t.control.setPacing('vendor_g', { factor: 0.05 });
    const take = await collect(t.direct.synthesize(call(settings())));
    expect(take.chunks.length).toBeGreaterThan(1);
  });

  it('passes WAV, mp3 and mulaw through untouched', async () => {
    const wav = await collect(t.direct.synthesize(call(settings({ format: 'wav', sampleRate: 48000 }))));
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 48000, bitsPerSample: 16 });
    const mp3 = await collect(t.direct.synthesize(call(settings({ format: 'mp3', sampleRate: 44100 }))));
    expect(parseMp3(mp3.audio).frames.length).toBeGreaterThan(10);
    const mulaw = settings({ format: 'mulaw', sampleRate: 8000 });
    const mulawTake = await collect(t.direct.synthesize(call(mulaw)));
    expect(mulawTake.audio.length).toBe(sampleCount(spokenMs(TEXT), 8000));
    expect(t.direct.contentType(mulaw)).toBe('audio/mulaw');
  });

  t.itRejectsWrongKey({ providerStatus: 401, message: 'Invalid or missing API key' });
  t.itPassesRefusalThrough(
    'a voice of another model',
    () => settings({ model: 'g_model_1', voice: 'Vesna' }),
    {
      providerStatus: 400,
      message: "Voice 'Vesna' not found for model g_model_1",
    },
  );
  t.itMapsHttpStatuses([
    [402, 'provider_rejected'],
    [429, 'provider_rate_limited'],
    [503, 'provider_unavailable'],
  ]);
  t.itFailsOnCut('throws provider_unavailable when the body is cut');

  it('fails a take whose body ended cleanly but whose trailers report an error', async () => {
    await t.control.injectFault({
      vendor: 'vendor_g',
      kind: 'error',
      status: 503,
      message: 'model overloaded',
      afterBytes: 5000,
    });
    const { error, audio } = await collectFailure(t.direct.synthesize(call(settings())));
    expect(error).toMatchObject({
      code: 'provider_unavailable',
      providerStatus: 503,
      message: 'model overloaded',
    });
    expect(audio.length).toBeGreaterThan(0);
    expect(audio.length).toBeLessThanOrEqual(5000);
  });

  it('forwards a drop-in request whose answer reports an error in its trailers as a failure at its end', async () => {
    await t.control.injectFault({
      vendor: 'vendor_g',
      kind: 'error',
      status: 503,
      message: 'model overloaded',
      afterBytes: 5000,
    });
    const body = { text: TEXT, voice: VOICE, audio_format: 'pcm_s16le', sample_rate: 24000 };
    const answer = await t.direct.forward({
      apiKey: KEY,
      signal: new AbortController().signal,
      request: {
        method: 'POST',
        path: '/tts',
        query: '',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(body)),
      },
    });
    expect(answer.status).toBe(200);
    const chunks: Buffer[] = [];
    const failure = await (async () => {
      try {
        for await (const chunk of answer.body) chunks.push(chunk);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(failure).toMatchObject({ code: 'provider_unavailable', providerStatus: 503 });
    expect(Buffer.concat(chunks).length).toBeGreaterThan(0);
  });

  t.itStopsUpstreamOnAbort();
});
