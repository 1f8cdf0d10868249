import { RouterError, type SynthSettings } from '@router/contracts';
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
import { resolveSettings, type ClientSettings } from '@router/vendors-core';
import { collect, collectFailure, startAdapterSim, type AdapterSim } from './adapter-harness';

const KEY = 'a-org-key';
const TEXT = 'Namaste, how can I help you today?';
const SPEAKER = vendorA.catalogue.models[0]?.voices?.[0] ?? '';
const PERSONA = vendorA.voices?.find((v) => v.models.includes('a_model_2'))?.id ?? '';

function settings(client: Partial<ClientSettings> = {}): SynthSettings {
  return resolveSettings(
    vendorA,
    {
      model: 'a_model_1',
      voice: SPEAKER,
      language: 'hi-IN',
      format: 'pcm',
      sampleRate: 16000,
      options: {},
      ...client,
    },
    'speech',
  );
}

describe('vendor_a adapter against the simulated vendor', () => {
  let t: AdapterSim;
  let direct: VendorAAdapter;
  let proxied: VendorAAdapter;
  const call = (s: SynthSettings, extra: { key?: string; signal?: AbortSignal; text?: string } = {}) => ({
    apiKey: extra.key ?? KEY,
    settings: s,
    text: extra.text ?? TEXT,
    signal: extra.signal ?? new AbortController().signal,
  });

  beforeAll(async () => {
    t = await startAdapterSim();
    direct = new VendorAAdapter({ baseUrl: t.base('vendor_a') });
    proxied = new VendorAAdapter({ baseUrl: t.proxy.base('vendor_a') });
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

  it('streams pcm from /text-to-speech/stream in several chunks with every setting in the vendor field', async () => {
    const s = settings({
      speed: 1.25,
      options: { temperature: 0.4, min_buffer_size: 60, max_chunk_length: 200 },
    });
    const take = await collect(proxied.synthesize(call(s)));

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

  it('passes a streamed WAV through with its header at the asked rate', async () => {
    const take = await collect(direct.synthesize(call(settings({ format: 'wav', sampleRate: 22050 }))));
    expect(take.chunks.length).toBeGreaterThan(1);
    expect(parseWav(take.audio)).toMatchObject({ sampleRate: 22050, bitsPerSample: 16, channels: 1 });
    expect(direct.contentType(settings({ format: 'wav' }))).toBe('audio/wav');
  });

  it('sends mp3 with its bitrate as output_audio_bitrate and yields valid MPEG frames', async () => {
    const s = settings({ format: 'mp3', sampleRate: 24000, options: { bitrate: '64k' } });
    const take = await collect(proxied.synthesize(call(s)));
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
    const take = await collect(proxied.synthesize(call(s)));
    expect(t.proxy.last().body).toMatchObject({ output_audio_codec: format, speech_sample_rate: 8000 });
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT), 8000));
    expect(direct.contentType(s)).toBe(contentType);
  });

  it('sends the a_model_2 options and speaks with a persona', async () => {
    const s = settings({
      model: 'a_model_2',
      voice: PERSONA,
      options: { pitch: 0.2, loudness: 1.5, enable_preprocessing: true },
    });
    await collect(proxied.synthesize(call(s)));
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
    const take = await collect(proxied.synthesize(call(settings({ format: 'wav', sampleRate: 44100 }))));
    expect(t.proxy.last().path).toBe('/text-to-speech');
    expect(take.chunks).toHaveLength(1);
    const wav = parseWav(take.audio);
    expect(wav).toMatchObject({ sampleRate: 44100, dataOffset: 44 });
    expect(wav.dataSize).toBe(sampleCount(spokenMs(TEXT), 44100) * 2);
    expect((await t.control.calls('vendor_a'))[0]?.endpoint).toBe('rest');

    const mp3 = await collect(proxied.synthesize(call(settings({ format: 'mp3', sampleRate: 48000 }))));
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
    const { error } = await collectFailure(direct.synthesize(call(settings(), { key: 'bad-key' })));
    expect(error).toBeInstanceOf(RouterError);
    expect(error).toMatchObject({ code: 'provider_rejected', providerStatus: 403 });
    expect((error as RouterError).message).toContain('api-subscription-key');
    expect(await t.control.callCount('vendor_a')).toBe(0);
  });

  it('passes a validation refusal through (a speaker of another model)', async () => {
    const { error } = await collectFailure(
      direct.synthesize(call(settings({ model: 'a_model_2', voice: SPEAKER }))),
    );
    expect(error).toMatchObject({ code: 'provider_rejected', providerStatus: 400 });
    expect((error as RouterError).message).toBe(
      `Speaker '${SPEAKER}' is not compatible with model a_model_2`,
    );
  });

  it.each([
    [429, 'provider_rate_limited'],
    [500, 'provider_unavailable'],
    [503, 'provider_unavailable'],
  ])('maps HTTP %i to %s with the vendor message', async (status, code) => {
    await t.control.injectFault({
      vendor: 'vendor_a',
      kind: 'error',
      status,
      message: `quota says ${status}`,
    });
    const { error, audio } = await collectFailure(direct.synthesize(call(settings())));
    expect(audio.length).toBe(0);
    expect(error).toMatchObject({ code, providerStatus: status, message: `quota says ${status}` });
  });

  it('throws provider_unavailable when the stream is cut mid-body, after the audio before the cut', async () => {
    await t.control.injectFault({ vendor: 'vendor_a', kind: 'cut', afterBytes: 6000 });
    const { error, audio } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code: 'provider_unavailable' });
    expect(audio.length).toBeGreaterThan(0);
    expect(audio.length).toBeLessThanOrEqual(6000);
  });

  it('throws when the one-shot body is cut', async () => {
    await t.control.injectFault({ vendor: 'vendor_a', kind: 'cut', afterBytes: 100 });
    const { error } = await collectFailure(
      direct.synthesize(call(settings({ format: 'wav', sampleRate: 48000 }))),
    );
    expect(error).toMatchObject({ code: 'provider_unavailable' });
  });

  it('maps a refused connection to provider_unavailable', async () => {
    const nowhere = new VendorAAdapter({ baseUrl: 'http://127.0.0.1:1/vendor_a' });
    const { error } = await collectFailure(nowhere.synthesize(call(settings())));
    expect(error).toMatchObject({ code: 'provider_unavailable' });
    await nowhere.close();
  });

  it('stops the upstream call when the signal aborts mid-stream, ending with the signal reason', async () => {
    await t.control.setPacing('vendor_a', { factor: 1 });
    const abort = new AbortController();
    const reason = new RouterError('provider_timeout', 'interrupted');
    const events = proxied.synthesize(call(settings(), { signal: abort.signal }));
    const chunks: Buffer[] = [];
    const run = (async () => {
      for await (const event of events) {
        if (event.kind === 'audio') chunks.push(event.data);
        if (chunks.length === 1) abort.abort(reason);
      }
    })();
    await expect(run).rejects.toBe(reason);
    expect(await t.proxy.last().outcome).toBe('client-gone');
  });

  it('aborts while waiting for the first audio', async () => {
    await t.control.injectFault({ vendor: 'vendor_a', kind: 'stall', stallMs: 10_000 });
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('stop')), 50);
    const started = Date.now();
    const { error } = await collectFailure(proxied.synthesize(call(settings(), { signal: abort.signal })));
    expect((error as Error).message).toBe('stop');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await t.proxy.last().outcome).toBe('client-gone');
    expect((await t.control.calls('vendor_a'))[0]?.keyId).toBe(simKeyId(KEY));
  });
});
