import { RouterError, type SynthSettings } from '@router/contracts';
import { vendorJ, VendorJAdapter } from '@router/vendor-j';
import { readTakeId, sampleCount, spokenMs } from '@router/vendor-sim';
import { resolveSettings, type ClientSettings } from '@router/vendors-core';
import { collect, collectFailure, startAdapterSim, type AdapterSim } from './adapter-harness';

const KEY = 'j-org-key';
const TEXT = 'The library opens at nine tomorrow.';
const VOICE = 'Anselm';

function settings(client: Partial<ClientSettings> = {}): SynthSettings {
  return resolveSettings(
    vendorJ,
    { model: 'j_model_1', voice: VOICE, format: 'pcm', sampleRate: 24000, options: {}, ...client },
    'speech',
  );
}

describe('vendor_j adapter against the simulated vendor', () => {
  let t: AdapterSim;
  let direct: VendorJAdapter;
  let proxied: VendorJAdapter;
  const call = (s: SynthSettings, extra: { key?: string; signal?: AbortSignal } = {}) => ({
    apiKey: extra.key ?? KEY,
    settings: s,
    text: TEXT,
    signal: extra.signal ?? new AbortController().signal,
  });

  beforeAll(async () => {
    t = await startAdapterSim();
    direct = new VendorJAdapter({ baseUrl: t.base('vendor_j') });
    proxied = new VendorJAdapter({ baseUrl: t.proxy.base('vendor_j') });
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

  it('streams each SSE event audio as it arrives and sends the vendor body with its key header', async () => {
    const take = await collect(proxied.synthesize(call(settings())));
    expect(take.chunks.length).toBeGreaterThan(3);
    expect(take.words).toBeNull();
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
    const sent = t.proxy.last();
    expect(sent.path).toBe('/v1beta/models/j_model_1:streamGenerateContent?alt=sse');
    expect(sent.headers['x-vendor_j-api-key']).toBe(KEY);
    expect(sent.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: TEXT }] }],
      generationConfig: {
        responseModalities: ['AUDIO'],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: VOICE } } },
      },
    });
    const [record] = await t.control.calls('vendor_j', { key: KEY });
    expect(record?.endpoint).toBe('sse');
    expect(readTakeId(take.audio, 'pcm')).toBe(record?.takeId);
  });

  it('sends instructions before the text and two speakers on the newest model', async () => {
    const s = settings({
      model: 'j_model_3',
      voice: 'Briar',
      options: { instructions: 'Whisper', speakers: { Ann: 'Anselm', Ben: 'Briar' }, speaker: 'Ben' },
    });
    const take = await collect(proxied.synthesize(call(s)));
    const script = `Whisper\nBen: ${TEXT}`;
    expect(take.audio.length).toBe(sampleCount(spokenMs(script), 24000) * 2);
    const sent = t.proxy.last().body as { contents: { parts: { text: string }[] }[] };
    expect(sent.contents[0]?.parts[0]?.text).toBe(script);
  });

  it('puts one open-sized WAV header before the PCM for wav', async () => {
    const take = await collect(direct.synthesize(call(settings({ format: 'wav' }))));
    expect(take.audio.toString('latin1', 0, 4)).toBe('RIFF');
    expect(take.audio.readUInt32LE(24)).toBe(24000);
    expect(take.audio.length).toBe(44 + sampleCount(spokenMs(TEXT), 24000) * 2);
    expect(readTakeId(take.audio.subarray(44), 'pcm')).not.toBeNull();
    expect(direct.contentType(settings({ format: 'wav' }))).toBe('audio/wav');
  });

  it('reports a wrong key as provider_rejected 400 with the vendor message', async () => {
    const { error } = await collectFailure(direct.synthesize(call(settings(), { key: 'bad-key' })));
    expect(error).toBeInstanceOf(RouterError);
    expect(error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 400,
      message: 'API key not valid. Please pass a valid API key.',
    });
  });

  it('passes the vendor message of a validation refusal through', async () => {
    const s = { ...settings(), voice: 'Nobody' };
    const { error } = await collectFailure(direct.synthesize(call(s)));
    expect(error).toMatchObject({
      code: 'provider_rejected',
      providerStatus: 400,
      message: 'Voice name Nobody is not supported.',
    });
  });

  it.each([
    [429, 'provider_rate_limited'],
    [500, 'provider_unavailable'],
  ])('maps HTTP %i before the stream to %s', async (status, code) => {
    await t.control.injectFault({ vendor: 'vendor_j', kind: 'error', status, message: `said ${status}` });
    const { error } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code, providerStatus: status, message: `said ${status}` });
  });

  it('maps an error event after audio to the code and message it carries', async () => {
    await t.control.injectFault({
      vendor: 'vendor_j',
      kind: 'error',
      status: 503,
      afterBytes: 4000,
      message: 'overloaded',
    });
    const { error, audio } = await collectFailure(direct.synthesize(call(settings())));
    expect(audio.length).toBe(4000);
    expect(error).toMatchObject({ code: 'provider_unavailable', providerStatus: 503, message: 'overloaded' });
  });

  it('throws provider_unavailable when the stream is cut before STOP', async () => {
    await t.control.injectFault({ vendor: 'vendor_j', kind: 'cut', afterBytes: 5000 });
    const { error, audio } = await collectFailure(direct.synthesize(call(settings())));
    expect(error).toMatchObject({ code: 'provider_unavailable' });
    expect(audio.length).toBeGreaterThan(0);
  });

  it('stops the upstream call when the signal aborts mid-stream', async () => {
    await t.control.setPacing('vendor_j', { factor: 1 });
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
