import { vendorJ, VendorJAdapter } from '@router/vendor-j';
import { readTakeId, sampleCount, spokenMs } from '@router/vendor-sim';
import { collect, useAdapterSim } from './adapter-harness';

const KEY = 'j-org-key';
const TEXT = 'The library opens at nine tomorrow.';
const VOICE = 'Anselm';

describe('vendor_j adapter against the simulated vendor', () => {
  const t = useAdapterSim(vendorJ, (o) => new VendorJAdapter(o), {
    key: KEY,
    text: TEXT,
    defaults: { model: 'j_model_1', voice: VOICE, format: 'pcm', sampleRate: 24000, options: {} },
  });
  const { settings, call } = t;

  it('streams each SSE event audio as it arrives and sends the vendor body with its key header', async () => {
    const take = await collect(t.proxied.synthesize(call(settings())));
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
    await t.expectRecordedTake(take.audio, 'sse');
  });

  it('sends instructions before the text and two speakers on the newest model', async () => {
    const s = settings({
      model: 'j_model_3',
      voice: 'Briar',
      options: { instructions: 'Whisper', speakers: { Ann: 'Anselm', Ben: 'Briar' }, speaker: 'Ben' },
    });
    const take = await collect(t.proxied.synthesize(call(s)));
    const script = `Whisper\nBen: ${TEXT}`;
    expect(take.audio.length).toBe(sampleCount(spokenMs(script), 24000) * 2);
    const sent = t.proxy.last().body as { contents: { parts: { text: string }[] }[] };
    expect(sent.contents[0]?.parts[0]?.text).toBe(script);
  });

  it('puts one open-sized WAV header before the PCM for wav', async () => {
    const take = await collect(t.direct.synthesize(call(settings({ format: 'wav' }))));
    expect(take.audio.toString('latin1', 0, 4)).toBe('RIFF');
    expect(take.audio.readUInt32LE(24)).toBe(24000);
    expect(take.audio.length).toBe(44 + sampleCount(spokenMs(TEXT), 24000) * 2);
    expect(readTakeId(take.audio.subarray(44), 'pcm')).not.toBeNull();
    expect(t.direct.contentType(settings({ format: 'wav' }))).toBe('audio/wav');
  });

  it.each(['v1beta', 'v1'])(
    "forwards a drop-in request to the vendor under the API version the client named (%s), with the org's key",
    async (version) => {
      const body = Buffer.from(
        JSON.stringify({
          contents: [{ parts: [{ text: TEXT }] }],
          generationConfig: { responseModalities: ['AUDIO'] },
        }),
      );
      const answer = await t.proxied.forward({
        apiKey: KEY,
        signal: new AbortController().signal,
        request: {
          method: 'POST',
          path: `/${version}/models/j_model_2:streamGenerateContent`,
          query: 'alt=sse',
          headers: { 'content-type': 'application/json' },
          body,
        },
      });
      expect(answer.status).toBe(200);
      let bytes = 0;
      for await (const chunk of answer.body) bytes += chunk.length;
      expect(bytes).toBeGreaterThan(0);
      const sent = t.proxy.last();
      expect(sent.path).toBe(`/${version}/models/j_model_2:streamGenerateContent?alt=sse`);
      expect(sent.headers['x-vendor_j-api-key']).toBe(KEY);
    },
  );

  t.itRejectsWrongKey({ providerStatus: 400, message: 'API key not valid. Please pass a valid API key.' });
  t.itPassesRefusalThrough('an unknown voice', () => ({ ...settings(), voice: 'Nobody' }), {
    providerStatus: 400,
    message: 'Voice name Nobody is not supported.',
  });
  t.itMapsHttpStatuses([
    [429, 'provider_rate_limited'],
    [500, 'provider_unavailable'],
  ]);
  t.itFailsOnErrorEvent({ status: 503, message: 'overloaded' });
  t.itFailsOnCut('throws provider_unavailable when the stream is cut before STOP');
  t.itStopsUpstreamOnAbort();
});
