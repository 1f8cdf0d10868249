import { RouterError } from '@router/contracts';
import { vendorA, VendorAAdapter } from '@router/vendor-a';
import {
  mp3Bitrate,
  parseMp3,
  parseWav,
  readTakeId,
  sampleCount,
  simKeyId,
  spokenMs,
} from '@router/vendor-sim';
import { collect, collectFailure, useAdapterSim } from './adapter-harness';

const KEY = 'a-org-key';
const TEXT = 'Namaste, how can I help you today?';
const SPEAKER = vendorA.catalogue.models[0]?.voices?.[0] ?? '';
const PERSONA = vendorA.voices?.find((v) => v.models.includes('a_model_2'))?.id ?? '';

describe('vendor_a adapter against the simulated vendor', () => {
  const t = useAdapterSim(vendorA, (o) => new VendorAAdapter(o), {
    key: KEY,
    text: TEXT,
    defaults: {
      model: 'a_model_1',
      voice: SPEAKER,
      language: 'hi-IN',
      format: 'pcm',
      sampleRate: 16000,
      options: {},
    },
  });
  const { settings, call } = t;

  it('streams pcm from /text-to-speech/stream in several chunks with every setting in the vendor field', async () => {
    const s = settings({
      speed: 1.25,
      options: { temperature: 0.4, min_buffer_size: 60, max_chunk_length: 200 },
    });
    const take = await collect(t.proxied.synthesize(call(s)));

    expect(take.chunks.length).toBeGreaterThan(3);
    expect(take.words).toBeNull();
    // Raw s16le: the length follows the text at the asked pace and rate.
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT, { speed: 1.25 }), 16000) * 2);
    const sent = t.proxy.last();
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/text-to-speech/stream');
    expect(sent.headers['api-subscription-key']).toBe(KEY);
    expect(sent.body).toEqual({
      text: TEXT,
      target_language_code: 'hi-IN',
      speaker: SPEAKER,
      model: 'a_model_1',
      pace: 1.25,
      speech_sample_rate: 16000,
      output_audio_codec: 'linear16',
      temperature: 0.4,
      min_buffer_size: 60,
      max_chunk_length: 200,
    });
    const [record] = await t.control.calls('vendor_a', { key: KEY });
    expect(record).toMatchObject({ endpoint: 'stream', chars: TEXT.length });
    expect(readTakeId(take.audio, 'pcm')).toBe(record?.takeId);
  });

  it("yields the vendor's warning about a take it spoke without an unknown dict_id, then the whole audio", async () => {
    const events = [];
    for await (const event of t.direct.synthesize(call(settings({ options: { dict_id: 'unknown-1' } }))))
      events.push(event);
    expect(events[0]).toEqual({
      kind: 'warning',
      warning: { code: 'not_found_error', message: 'Pronunciation dictionary not found' },
    });
    const audio = Buffer.concat(events.flatMap((e) => (e.kind === 'audio' ? [e.data] : [])));
    expect(audio.length).toBe(sampleCount(spokenMs(TEXT), 16000) * 2);
    // A dictionary the account has: no warning.
    const known = await collect(t.direct.synthesize(call(settings({ options: { dict_id: 'my-dict' } }))));
    expect(known.audio.length).toBe(audio.length);
    for await (const event of t.direct.synthesize(call(settings({ options: { dict_id: 'my-dict' } }))))
      expect(event.kind).toBe('audio');
  });

  it('passes a streamed WAV through with its header at the asked rate', async () => {
    const take = await collect(t.direct.synthesize(call(settings({ format: 'wav', sampleRate: 22050 }))));
    expect(take.chunks.length).toBeGreaterThan(1);
    expect(parseWav(take.audio)).toMatchObject({ sampleRate: 22050, bitsPerSample: 16, channels: 1 });
    expect(t.direct.contentType(settings({ format: 'wav' }))).toBe('audio/wav');
  });

  it('sends mp3 with its bitrate as output_audio_bitrate and yields valid MPEG frames', async () => {
    const s = settings({ format: 'mp3', sampleRate: 24000, options: { bitrate: '64k' } });
    const take = await collect(t.proxied.synthesize(call(s)));
    expect(t.proxy.last().body).toMatchObject({ output_audio_codec: 'mp3', output_audio_bitrate: '64k' });
    expect(take.chunks.length).toBeGreaterThan(1);
    const mp3 = parseMp3(take.audio);
    expect(mp3.trailingBytes).toBe(0);
    expect(mp3.frames[0]).toMatchObject({ sampleRate: 24000, bitrateKbps: mp3Bitrate(24000, 64) });
  });

  it.each([
    ['mulaw', 'audio/mulaw'],
    ['alaw', 'audio/alaw'],
  ])('streams %s at 8000 Hz, one byte per sample', async (format, contentType) => {
    const s = settings({ format, sampleRate: 8000 });
    const take = await collect(t.proxied.synthesize(call(s)));
    expect(t.proxy.last().body).toMatchObject({ output_audio_codec: format, speech_sample_rate: 8000 });
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT), 8000));
    expect(t.direct.contentType(s)).toBe(contentType);
  });

  it('sends the a_model_2 options and speaks with a persona', async () => {
    const s = settings({
      model: 'a_model_2',
      voice: PERSONA,
      options: { pitch: 0.2, loudness: 1.5, enable_preprocessing: true },
    });
    await collect(t.proxied.synthesize(call(s)));
    expect(t.proxy.last().body).toMatchObject({
      model: 'a_model_2',
      speaker: PERSONA,
      pitch: 0.2,
      loudness: 1.5,
      enable_preprocessing: true,
      temperature: 0.6,
    });
  });

  it('takes 32000 to 48000 Hz from the one-shot REST endpoint, whole, at the fixed 128k', async () => {
    const take = await collect(t.proxied.synthesize(call(settings({ format: 'wav', sampleRate: 44100 }))));
    expect(t.proxy.last().path).toBe('/text-to-speech');
    expect(take.chunks).toHaveLength(1);
    const wav = parseWav(take.audio);
    expect(wav).toMatchObject({ sampleRate: 44100, dataOffset: 44 });
    expect(wav.dataSize).toBe(sampleCount(spokenMs(TEXT), 44100) * 2);
    expect((await t.control.calls('vendor_a'))[0]?.endpoint).toBe('rest');

    const mp3 = await collect(t.proxied.synthesize(call(settings({ format: 'mp3', sampleRate: 48000 }))));
    expect(t.proxy.last().body).toMatchObject({ speech_sample_rate: 48000, output_audio_bitrate: '128k' });
    expect(parseMp3(mp3.audio).frames[0]).toMatchObject({ sampleRate: 48000, bitrateKbps: 128 });
  });

  it('reuses pooled keep-alive connections across takes', async () => {
    const fresh = new VendorAAdapter({ baseUrl: t.proxy.base('vendor_a') });
    for (let i = 0; i < 6; i++) {
      await collect(
        fresh.synthesize(call(settings(i % 2 === 0 ? {} : { format: 'wav', sampleRate: 44100 }))),
      );
    }
    // The pool may hand a back-to-back request to a second socket while the first is still settling.
    expect(new Set(t.proxy.requests.map((r) => r.clientPort)).size).toBeLessThanOrEqual(2);
    await fresh.close();
  });

  it('reports a wrong key as provider_rejected with the vendor status and message', async () => {
    const { error } = await collectFailure(t.direct.synthesize(call(settings(), { key: 'bad-key' })));
    expect(error).toBeInstanceOf(RouterError);
    expect(error).toMatchObject({ code: 'provider_rejected', providerStatus: 403 });
    expect((error as RouterError).message).toContain('api-subscription-key');
    expect(await t.control.callCount('vendor_a')).toBe(0);
  });

  t.itPassesRefusalThrough(
    'a speaker of another model',
    () => settings({ model: 'a_model_2', voice: SPEAKER }),
    {
      providerStatus: 400,
      message: `Speaker '${SPEAKER}' is not compatible with model a_model_2`,
    },
  );
  t.itMapsHttpStatuses([
    [429, 'provider_rate_limited'],
    [500, 'provider_unavailable'],
    [503, 'provider_unavailable'],
  ]);
  t.itFailsOnCut(
    'throws provider_unavailable when the stream is cut mid-body, after the audio before the cut',
    6000,
  );

  it('throws when the one-shot body is cut', async () => {
    await t.control.injectFault({ vendor: 'vendor_a', kind: 'cut', afterBytes: 100 });
    const { error } = await collectFailure(
      t.direct.synthesize(call(settings({ format: 'wav', sampleRate: 48000 }))),
    );
    expect(error).toMatchObject({ code: 'provider_unavailable' });
  });

  it('maps a refused connection to provider_unavailable', async () => {
    const nowhere = new VendorAAdapter({ baseUrl: 'http://127.0.0.1:1/vendor_a' });
    const { error } = await collectFailure(nowhere.synthesize(call(settings())));
    expect(error).toMatchObject({ code: 'provider_unavailable' });
    await nowhere.close();
  });

  t.itStopsUpstreamOnAbort(new RouterError('provider_timeout', 'interrupted'));

  it('aborts while waiting for the first audio', async () => {
    await t.control.injectFault({ vendor: 'vendor_a', kind: 'stall', stallMs: 10_000 });
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('stop')), 50);
    const started = Date.now();
    const { error } = await collectFailure(t.proxied.synthesize(call(settings(), { signal: abort.signal })));
    expect((error as Error).message).toBe('stop');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await t.proxy.last().outcome).toBe('client-gone');
    expect((await t.control.calls('vendor_a'))[0]?.keyId).toBe(simKeyId(KEY));
  });
});
