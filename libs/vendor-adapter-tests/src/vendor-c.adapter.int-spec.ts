import { vendorC, VendorCAdapter } from '@router/vendor-c';
import { parseMp3, parseWav, sampleCount, spokenMs } from '@router/vendor-sim';
import { collect, useAdapterSim } from './adapter-harness';

const KEY = 'c-org-key';
const TEXT = 'Hello there, how are you doing today?';
/** The simulators speak each character for this long at speed 1. */
const MS_PER_CHAR = 60;

describe('vendor_c adapter against the simulated vendor', () => {
  let voice: string;
  const t = useAdapterSim(vendorC, (o) => new VendorCAdapter(o), {
    key: KEY,
    text: TEXT,
    defaults: () => ({
      model: 'c_model_3',
      voice,
      language: 'en',
      format: 'mp3',
      sampleRate: 44100,
      options: {},
    }),
  });
  const { settings, call } = t;

  beforeAll(async () => {
    const listed = await fetch(`${t.base()}/v1/voices`, { headers: { 'vendor_c-api-key': KEY } });
    const { voices } = (await listed.json()) as { voices: { voice_id: string; category: string }[] };
    voice = voices.find((v) => v.category === 'premade')?.voice_id ?? '';
  });

  it('streams mp3 with timestamps by default: audio chunks as they come, then words covering the text', async () => {
    const take = await collect(t.proxied.synthesize(call(settings())));

    expect(take.chunks.length).toBeGreaterThan(3);
    const mp3 = parseMp3(take.audio);
    expect(mp3.trailingBytes).toBe(0);
    expect(mp3.frames[0]).toMatchObject({ sampleRate: 44100, bitrateKbps: 128 });
    const sent = t.proxy.last();
    expect(sent.path).toBe(
      `/v1/text-to-speech/${voice}/stream/with-timestamps?output_format=mp3_44100_128&enable_logging=true`,
    );
    expect(sent.headers['vendor_c-api-key']).toBe(KEY);
    expect(sent.body).toEqual({
      text: TEXT,
      model_id: 'c_model_3',
      language_code: 'en',
      apply_text_normalization: 'auto',
    });
    await t.expectRecordedTake(take.audio, 'tts-stream-with-timestamps', 'mp3');

    const expected = [...TEXT.matchAll(/\p{L}+/gu)].map((m) => ({
      start: m.index,
      end: m.index + m[0].length,
    }));
    expect(take.words?.map((w) => ({ start: w.start, end: w.end }))).toEqual(expected);
    expect(take.words?.map((w) => TEXT.slice(w.start, w.end))).toEqual([
      'Hello',
      'there',
      'how',
      'are',
      'you',
      'doing',
      'today',
    ]);
    // The simulator spreads the characters evenly: a word runs from its first character to its last.
    for (const word of take.words ?? []) {
      expect(word.startMs).toBe(word.start * MS_PER_CHAR);
      expect(word.endMs).toBe(word.end * MS_PER_CHAR);
    }
  });

  it('streams raw audio without timings when sync_alignment is off, with voice_settings and the options in the body', async () => {
    const voiceSettings = { stability: 0.3, similarity_boost: 0.8, speed: 1.2 };
    const s = settings({
      format: 'pcm',
      sampleRate: 16000,
      options: {
        sync_alignment: false,
        voice_settings: voiceSettings,
        apply_text_normalization: 'off',
        enable_logging: false,
        enable_ssml_parsing: true,
        pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: 'dict1', version_id: 'v1' }],
      },
    });
    const take = await collect(t.proxied.synthesize(call(s)));

    expect(take.words).toBeNull();
    expect(take.chunks.length).toBeGreaterThan(3);
    // The speed in voice_settings reached the vendor: the take is shorter by that factor.
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT, { speed: 1.2 }), 16000) * 2);
    const sent = t.proxy.last();
    expect(sent.path).toBe(
      `/v1/text-to-speech/${voice}/stream?output_format=pcm_16000&enable_logging=false&enable_ssml_parsing=true`,
    );
    expect(sent.body).toEqual({
      text: TEXT,
      model_id: 'c_model_3',
      language_code: 'en',
      voice_settings: voiceSettings,
      apply_text_normalization: 'off',
      pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: 'dict1', version_id: 'v1' }],
    });
    expect((await t.control.calls('vendor_c'))[0]?.endpoint).toBe('tts-stream');
  });

  it.each([
    ['mulaw', 'ulaw_8000'],
    ['alaw', 'alaw_8000'],
  ])('asks for %s as %s and gets one byte per sample', async (format, token) => {
    const take = await collect(t.proxied.synthesize(call(settings({ format, sampleRate: 8000 }))));
    expect(t.proxy.last().path).toContain(`output_format=${token}`);
    expect(take.audio.length).toBe(sampleCount(spokenMs(TEXT), 8000));
  });

  it('names the mp3 bitrate of each rate in output_format, and passes WAV through with its header', async () => {
    await collect(t.proxied.synthesize(call(settings({ sampleRate: 22050 }))));
    expect(t.proxy.last().path).toContain('output_format=mp3_22050_32');
    await collect(t.proxied.synthesize(call(settings({ options: { bitrate: '64k' } }))));
    expect(t.proxy.last().path).toContain('output_format=mp3_44100_64');
    const wav = await collect(t.proxied.synthesize(call(settings({ format: 'wav', sampleRate: 48000 }))));
    expect(t.proxy.last().path).toContain('output_format=wav_48000');
    expect(parseWav(wav.audio)).toMatchObject({ sampleRate: 48000, bitsPerSample: 16 });
  });

  it('sends a dialogue model to text-to-dialogue with its voice settings as settings', async () => {
    const s = settings({
      model: 'c_model_8',
      format: 'pcm',
      sampleRate: 24000,
      options: { voice_settings: { stability: 0.5 } },
    });
    const take = await collect(t.proxied.synthesize(call(s)));
    const sent = t.proxy.last();
    expect(sent.path).toBe(
      '/v1/text-to-dialogue/stream/with-timestamps?output_format=pcm_24000&enable_logging=true',
    );
    expect(sent.body).toEqual({
      inputs: [{ text: TEXT, voice_id: voice }],
      model_id: 'c_model_8',
      language_code: 'en',
      settings: { stability: 0.5 },
      apply_text_normalization: 'auto',
    });
    expect(take.words).toHaveLength(7);
  });

  t.itRejectsWrongKey({ providerStatus: 400, message: 'Invalid API key' });
  t.itPassesRefusalThrough('an unknown voice', () => settings({ voice: 'nosuchvoice' }), {
    providerStatus: 400,
    message: 'A voice for the voice_id nosuchvoice was not found.',
  });
  t.itMapsHttpStatuses([
    [429, 'provider_rate_limited'],
    [500, 'provider_unavailable'],
  ]);

  it.each([true, false])(
    'throws provider_unavailable when the stream is cut (sync_alignment %s), without words',
    async (sync) => {
      await t.control.injectFault({ vendor: 'vendor_c', kind: 'cut', afterBytes: 3000 });
      const events = t.direct.synthesize(
        call(settings({ format: 'pcm', sampleRate: 16000, options: { sync_alignment: sync } })),
      );
      let words = false;
      const run = (async () => {
        for await (const event of events) if (event.kind === 'words') words = true;
      })();
      await expect(run).rejects.toMatchObject({ code: 'provider_unavailable' });
      expect(words).toBe(false);
    },
  );

  t.itStopsUpstreamOnAbort();
});
