import { RouterError, type SynthSettings } from '@router/contracts';
import { vendorB, VendorBAdapter } from '@router/vendor-b';
import { parseWav, readTakeId, sampleCount, spokenMs } from '@router/vendor-sim';
import { resolveSettings, type ClientSettings } from '@router/vendors-core';
import { collect, collectFailure, startAdapterSim, type AdapterSim } from './adapter-harness';

const KEY = 'b-org-key';
const TEXT = 'Namaste, aaj mausam bahut accha hai.';
const VOICE = 'b_voice_hi_f1';

function settings(client: Partial<ClientSettings> = {}): SynthSettings {
  return resolveSettings(
    vendorB,
    {
      model: 'b_model_1',
      voice: VOICE,
      language: 'hi',
      format: 'pcm',
      sampleRate: 24000,
      options: {},
      ...client,
    },
    'speech',
  );
}

describe('vendor_b adapter against the simulated vendor', () => {
  let t: AdapterSim;
  let direct: VendorBAdapter;
  let proxied: VendorBAdapter;
  const call = (s: SynthSettings, extra: { key?: string; signal?: AbortSignal } = {}) => ({
    apiKey: extra.key ?? KEY,
    settings: s,
    text: TEXT,
    signal: extra.signal ?? new AbortController().signal,
  });

  beforeAll(async () => {
    t = await startAdapterSim();
    direct = new VendorBAdapter({ baseUrl: t.base('vendor_b') });
    proxied = new VendorBAdapter({ baseUrl: t.proxy.base('vendor_b') });
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

  it('streams the SSE chunks as audio events and sends every setting in the vendor field', async () => {
    const s = settings({ speed: 0.8, sampleRate: 16000 });
    const take = await collect(proxied.synthesize(call(s)));

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
    const [record] = await t.control.calls('vendor_b', { key: KEY });
    expect(record?.endpoint).toBe('sse');
    expect(readTakeId(take.audio, 'pcm')).toBe(record?.takeId);
  });

  it('passes WAV through with its header, and mulaw at one byte per sample', async () => {
    const wav = await collect(direct.synthesize(call(settings({ format: 'wav', sampleRate: 22050 }))));
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 22050, bitsPerSample: 16 });
    const mulaw = await collect(direct.synthesize(call(settings({ format: 'mulaw', sampleRate: 8000 }))));
    expect(mulaw.audio.length).toBe(sampleCount(spokenMs(TEXT), 8000));
    expect(direct.contentType(settings({ format: 'mulaw', sampleRate: 8000 }))).toBe('audio/mulaw');
  });

  it('reports a wrong key as provider_rejected 401 with the gateway message', async () => {
    const { error } = await collectFailure(direct.synthesize(call(settings(), { key: 'bad-key' })));
    expect(error).toBeInstanceOf(RouterError);
    expect(error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 401,
      message: 'Invalid authentication credentials',
    });
  });

  it('passes the vendor message of a validation refusal through', async () => {
    const { error } = await collectFailure(direct.synthesize(call(settings({ model: 'b_model_2' }))));
    expect(error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 400,
      message: `voice_id '${VOICE}' belongs to model b_model_1`,
    });
  });

  it.each([
    [429, 'provider_rate_limited'],
    [500, 'provider_unavailable'],
  ])('maps HTTP %i before the stream to %s', async (status, code) => {
    await t.control.injectFault({ vendor: 'vendor_b', kind: 'error', status, message: `said ${status}` });
    const { error } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code, providerStatus: status, message: `said ${status}` });
  });

  it('maps an SSE error event after audio to the status and message it carries', async () => {
    await t.control.injectFault({
      vendor: 'vendor_b',
      kind: 'error',
      status: 503,
      afterBytes: 4000,
      message: 'overloaded',
    });
    const { error, audio } = await collectFailure(direct.synthesize(call(settings())));
    expect(audio.length).toBe(4000);
    expect(error).toMatchObject({ code: 'provider_unavailable', providerStatus: 503, message: 'overloaded' });
  });

  it('throws provider_unavailable when the stream is cut before done', async () => {
    await t.control.injectFault({ vendor: 'vendor_b', kind: 'cut', afterBytes: 5000 });
    const { error, audio } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code: 'provider_unavailable' });
    expect(audio.length).toBeGreaterThan(0);
  });

  it('stops the upstream call when the signal aborts mid-stream', async () => {
    await t.control.setPacing('vendor_b', { factor: 1 });
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
