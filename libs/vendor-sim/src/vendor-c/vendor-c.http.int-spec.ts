import { parseMp3 } from '../kit/audio/mp3.codec';
import { parseOgg } from '../kit/audio/ogg-opus.codec';
import { parseWav } from '../kit/audio/pcm.codec';
import { readTakeId } from '../kit/audio/read-take-id';
import { sampleCount } from '../kit/audio/sample-source';
import { spokenMs } from '../kit/audio/take';
import { keyHeader, sendJson, useTestSim } from '../test/sim-harness';
import { BASE_VOICES, SHARED_VOICES } from './vendor-c.voices';

const KEY = 'c-key-1';
const VOICE = BASE_VOICES[0]?.voice_id ?? '';
const TEXT = 'Hello there, how are you?';

interface Alignment {
  characters: string[];
  character_start_times_seconds: number[];
  character_end_times_seconds: number[];
}

describe('vendor_c simulator over HTTP', () => {
  const t = useTestSim();
  const request = (
    path: string,
    options: { body?: unknown; key?: string | null; method?: string } = {},
  ): Promise<Response> =>
    sendJson(`${t.base('vendor_c')}${path}`, {
      method: options.method,
      body: options.body,
      headers: keyHeader('vendor_c-api-key', options.key === undefined ? KEY : options.key),
    });
  const tts = (
    suffix = '',
    query = '',
    body: unknown = { text: TEXT, model_id: 'c_model_3' },
    voice = VOICE,
  ) => request(`/v1/text-to-speech/${voice}${suffix}${query}`, { body });

  describe('auth', () => {
    it('answers a wrong key with 400 authentication_error and no key with 401', async () => {
      const wrong = await request(`/v1/text-to-speech/${VOICE}`, { body: { text: TEXT }, key: 'bad-key' });
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toEqual({
        detail: {
          type: 'authentication_error',
          code: 'invalid_api_key',
          message: expect.any(String),
          status: 'invalid_api_key',
          request_id: expect.any(String),
          param: 'api_key',
        },
      });
      const none = await request('/v1/voices', { key: null });
      expect(none.status).toBe(401);
      expect(((await none.json()) as { detail: { type: string } }).detail.type).toBe('authentication_error');
    });
  });

  describe('text-to-speech', () => {
    it('returns MP3 for the default output format, starting with an ID3 tag, with the vendor headers', async () => {
      const response = await tts();
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/mpeg');
      expect(response.headers.get('x-character-count')).toBe(String(TEXT.length));
      expect(response.headers.get('request-id')).toMatch(/^[0-9a-f]{32}$/);
      expect(response.headers.get('history-item-id')).toBeTruthy();
      const audio = Buffer.from(await response.arrayBuffer());
      const mp3 = parseMp3(audio);
      expect(audio.subarray(0, 3).toString('latin1')).toBe('ID3');
      expect(mp3.id3Bytes).toBeGreaterThan(10);
      expect(mp3.trailingBytes).toBe(0);
      expect(
        mp3.frames.every((f) => f.version === 'mpeg1' && f.sampleRate === 44100 && f.bitrateKbps === 128),
      ).toBe(true);
      expect(mp3.frames.length).toBe(Math.ceil(sampleCount(spokenMs(TEXT), 44100) / 1152));
      expect(readTakeId(audio, 'mp3')).toBe((await t.control.calls('vendor_c', { key: KEY }))[0]?.takeId);
    });

    it.each([
      [
        'pcm_16000',
        'audio/pcm',
        (a: Buffer) => expect(a.length).toBe(sampleCount(spokenMs(TEXT), 16000) * 2),
      ],
      ['ulaw_8000', 'audio/mulaw', (a: Buffer) => expect(a.length).toBe(sampleCount(spokenMs(TEXT), 8000))],
      ['alaw_8000', 'audio/alaw', (a: Buffer) => expect(a.length).toBe(sampleCount(spokenMs(TEXT), 8000))],
      [
        'wav_48000',
        'audio/wav',
        (a: Buffer) => expect(parseWav(a)).toMatchObject({ sampleRate: 48000, dataSize: a.length - 44 }),
      ],
      [
        'mp3_22050_32',
        'audio/mpeg',
        (a: Buffer) =>
          expect(new Set(parseMp3(a).frames.map((f) => `${f.sampleRate}/${f.bitrateKbps}`))).toEqual(
            new Set(['22050/32']),
          ),
      ],
      ['opus_48000_64', 'audio/ogg', (a: Buffer) => expect(parseOgg(a).every((p) => p.crcValid)).toBe(true)],
    ])('honours output_format=%s exactly', async (format, contentType, check) => {
      const response = await tts('', `?output_format=${format}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(contentType);
      check(Buffer.from(await response.arrayBuffer()));
    });

    it('streams chunked audio on /stream', async () => {
      const response = await tts('/stream', '?output_format=pcm_24000');
      expect(response.headers.get('transfer-encoding')).toBe('chunked');
      expect((await response.arrayBuffer()).byteLength).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
      expect(await t.control.callCount('vendor_c', { endpoint: 'tts-stream' })).toBe(1);
    });

    it('answers /with-timestamps with same-length character arrays that end within the audio', async () => {
      const response = await tts('/with-timestamps', '?output_format=pcm_16000');
      const body = (await response.json()) as {
        audio_base64: string;
        alignment: Alignment;
        normalized_alignment: Alignment;
      };
      const audio = Buffer.from(body.audio_base64, 'base64');
      const durationS = audio.length / 2 / 16000;
      const a = body.alignment;
      expect(a.characters.join('')).toBe(TEXT);
      expect(a.character_start_times_seconds).toHaveLength(TEXT.length);
      expect(a.character_end_times_seconds).toHaveLength(TEXT.length);
      expect(a.character_start_times_seconds[0]).toBe(0);
      expect(a.character_end_times_seconds.at(-1)).toBeLessThanOrEqual(durationS + 0.001);
      expect(a.character_end_times_seconds.at(-1)).toBeGreaterThan(durationS * 0.9);
      a.character_start_times_seconds.forEach((s, i) =>
        expect(s).toBeLessThan(a.character_end_times_seconds[i] ?? 0),
      );
      expect(body.normalized_alignment).toEqual(a);
    });

    it('streams one JSON object per line on /stream/with-timestamps, every character once in order', async () => {
      const long = 'A much longer sentence so that the stream needs several chunks of audio to carry it.';
      const response = await tts('/stream/with-timestamps', '?output_format=pcm_8000', { text: long });
      const lines = (await response.text()).split('\n').filter((l) => l !== '');
      expect(lines.length).toBeGreaterThan(1);
      const objects = lines.map(
        (l) => JSON.parse(l) as { audio_base64: string; alignment: Alignment | null },
      );
      const chars = objects.flatMap((o) => o.alignment?.characters ?? []);
      expect(chars.join('')).toBe(long);
      const starts = objects.flatMap((o) => o.alignment?.character_start_times_seconds ?? []);
      expect([...starts].sort((x, y) => x - y)).toEqual(starts);
      const audio = Buffer.concat(objects.map((o) => Buffer.from(o.audio_base64, 'base64')));
      expect(audio.length).toBe(sampleCount(spokenMs(long), 8000) * 2);
    });

    it("ends /stream/with-timestamps with the vendor's error line when the take fails after the 200", async () => {
      await t.control.injectFault({ vendor: 'vendor_c', kind: 'error', status: 500, afterBytes: 500 });
      const response = await tts('/stream/with-timestamps', '?output_format=pcm_8000');
      expect(response.status).toBe(200);
      const lines = (await response.text()).split('\n').filter((l) => l !== '');
      const objects = lines.map((l) => JSON.parse(l) as Record<string, any>);
      const audio = objects.slice(0, -1).map((o) => Buffer.from(o['audio_base64'] as string, 'base64'));
      expect(Buffer.concat(audio).length).toBe(500);
      expect(objects.at(-1)).toEqual({
        detail: expect.objectContaining({ status: 'internal_server_error' }),
      });
    });

    it('ends a body early on an end fault: JSON lines inside a line, a JSON document short', async () => {
      await t.control.injectFault({ vendor: 'vendor_c', kind: 'end', afterBytes: 500 });
      const lines = await (await tts('/stream/with-timestamps', '?output_format=pcm_8000')).text();
      const [first, cut, ...rest] = lines.split('\n');
      expect(JSON.parse(first ?? '')).toHaveProperty('audio_base64');
      expect(() => JSON.parse(cut ?? '')).toThrow();
      expect(rest).toEqual([]);

      await t.control.injectFault({ vendor: 'vendor_c', kind: 'end', afterBytes: 100 });
      const document = await tts('/with-timestamps', '?output_format=pcm_8000');
      expect(document.status).toBe(200);
      expect((await document.arrayBuffer()).byteLength).toBe(100);
    });

    it('slows the take by the voice settings speed', async () => {
      const response = await tts('', '?output_format=pcm_8000', {
        text: TEXT,
        voice_settings: { stability: 0.5, similarity_boost: 0.5, speed: 1.2 },
      });
      expect((await response.arrayBuffer()).byteLength).toBe(
        sampleCount(spokenMs(TEXT, { speed: 1.2 }), 8000) * 2,
      );
    });

    it.each([
      ['an unknown voice', '', { text: TEXT }, 'nope', 400, 'voice_not_found'],
      ['an unknown model', '', { text: TEXT, model_id: 'c_model_99' }, VOICE, 400, 'model_not_found'],
      [
        'a language the model lacks',
        '',
        { text: TEXT, model_id: 'c_model_1', language_code: 'hi' },
        VOICE,
        400,
        'unsupported_language',
      ],
      [
        'text over the model limit',
        '',
        { text: 'a'.repeat(5001), model_id: 'c_model_1' },
        VOICE,
        400,
        'max_character_limit_exceeded',
      ],
    ])('refuses %s', async (_label, query, body, voice, status, code) => {
      const response = await tts('', query, body, voice);
      expect(response.status).toBe(status);
      expect(((await response.json()) as { detail: { status: string } }).detail.status).toBe(code);
    });

    it.each([
      ['a missing text', '', {}, ['body', 'text']],
      [
        'an unknown output format',
        '?output_format=mp3_48000_128',
        { text: TEXT },
        ['query', 'output_format'],
      ],
      [
        'a stability over 1',
        '',
        { text: TEXT, voice_settings: { stability: 1.5, similarity_boost: 0.5 } },
        ['body', 'voice_settings', 'stability'],
      ],
      [
        'a speed under 0.7',
        '',
        { text: TEXT, voice_settings: { speed: 0.5 } },
        ['body', 'voice_settings', 'speed'],
      ],
      [
        'four dictionaries',
        '',
        {
          text: TEXT,
          pronunciation_dictionary_locators: [1, 2, 3, 4].map((i) => ({
            pronunciation_dictionary_id: `d${i}`,
          })),
        },
        ['body', 'pronunciation_dictionary_locators'],
      ],
      [
        'an unknown normalization',
        '',
        { text: TEXT, apply_text_normalization: 'maybe' },
        ['body', 'apply_text_normalization'],
      ],
    ])('answers %s with a 422 schema error', async (_label, query, body, loc) => {
      const response = await tts('', query, body);
      expect(response.status).toBe(422);
      const detail = ((await response.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] })
        .detail;
      expect(detail[0]).toEqual({ loc, msg: expect.any(String), type: expect.any(String) });
      expect(await t.control.callCount('vendor_c')).toBe(0);
    });

    it('drops history-item-id with enable_logging=false', async () => {
      const response = await tts('', '?enable_logging=false&output_format=pcm_8000');
      expect(response.status).toBe(200);
      expect(response.headers.get('history-item-id')).toBeNull();
    });
  });

  describe('text-to-dialogue', () => {
    it('speaks all inputs in one take, with voice segments in the timestamps', async () => {
      const voices = [BASE_VOICES[0]?.voice_id, BASE_VOICES[1]?.voice_id];
      const response = await request('/v1/text-to-dialogue/with-timestamps?output_format=pcm_16000', {
        body: {
          inputs: [
            { text: 'Hi there.', voice_id: voices[0] },
            { text: 'Hello!', voice_id: voices[1] },
          ],
          model_id: 'c_model_8',
        },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        alignment: Alignment;
        voice_segments: { voice_id: string; character_start_index: number; character_end_index: number }[];
      };
      expect(body.alignment.characters.join('')).toBe('Hi there.Hello!');
      expect(
        body.voice_segments.map((s) => [s.voice_id, s.character_start_index, s.character_end_index]),
      ).toEqual([
        [voices[0], 0, 9],
        [voices[1], 9, 15],
      ]);
      const refused = await request('/v1/text-to-dialogue', {
        body: { inputs: [{ text: 'Hi', voice_id: voices[0] }], model_id: 'c_model_3' },
      });
      expect(refused.status).toBe(400);
    });
  });

  describe('voices', () => {
    type Voice = {
      voice_id: string;
      category: string;
      is_owner: boolean;
      is_legacy: boolean;
      sharing: { status: string } | null;
    };

    it('lists every voice of the account on /v1/voices, legacy ones only when asked', async () => {
      const plain = (await (await request('/v1/voices')).json()) as { voices: Voice[] };
      const legacy = (await (await request('/v1/voices?show_legacy=true')).json()) as { voices: Voice[] };
      expect(plain.voices.some((v) => v.is_legacy)).toBe(false);
      expect(legacy.voices.length).toBe(plain.voices.length + 2);
      expect(new Set(plain.voices.map((v) => v.category))).toEqual(
        new Set(['premade', 'cloned', 'generated', 'professional']),
      );
      expect(plain.voices.some((v) => !v.is_owner && v.sharing?.status === 'copied')).toBe(true);
    });

    it('pages /v2/voices with next_page_token until has_more is false', async () => {
      const seen: string[] = [];
      let token: string | null = null;
      let pages = 0;
      let total = 0;
      do {
        const query = `?page_size=100${token ? `&next_page_token=${token}` : ''}`;
        const page = (await (await request(`/v2/voices${query}`)).json()) as {
          voices: Voice[];
          has_more: boolean;
          total_count: number;
          next_page_token: string | null;
        };
        pages++;
        total = page.total_count;
        seen.push(...page.voices.map((v) => v.voice_id));
        expect(page.has_more).toBe(page.next_page_token !== null);
        token = page.next_page_token;
      } while (token);
      // A large account: more voices than the largest page holds.
      expect(pages).toBe(2);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.length).toBe(total);
      const v1 = (await (await request('/v1/voices')).json()) as { voices: Voice[] };
      expect(new Set(seen)).toEqual(new Set(v1.voices.map((v) => v.voice_id)));
    });

    it('filters /v2/voices by category and refuses a page size over 100', async () => {
      const cloned = (await (await request('/v2/voices?category=cloned&page_size=100')).json()) as {
        voices: Voice[];
      };
      expect(cloned.voices.length).toBeGreaterThan(0);
      expect(cloned.voices.every((v) => v.category === 'cloned')).toBe(true);
      expect((await request('/v2/voices?page_size=101')).status).toBe(422);
    });

    it('keeps stored settings per account, editable through the vendor route', async () => {
      const before = (await (await request(`/v1/voices/${VOICE}/settings`)).json()) as {
        speed: number;
        stability: number;
      };
      expect(before).toMatchObject({ stability: 0.5, similarity_boost: 0.75, speed: 1 });
      const edit = await request(`/v1/voices/${VOICE}/settings/edit`, {
        body: { stability: 0.2, speed: 1.2 },
      });
      expect(edit.status).toBe(200);
      expect(await (await request(`/v1/voices/${VOICE}/settings`)).json()).toMatchObject({
        stability: 0.2,
        speed: 1.2,
      });
      expect(
        await (await request(`/v1/voices/${VOICE}/settings`, { key: 'other-account' })).json(),
      ).toMatchObject({ stability: 0.5 });
      const audio = await (await tts('', '?output_format=pcm_8000', { text: TEXT })).arrayBuffer();
      expect(audio.byteLength).toBe(sampleCount(spokenMs(TEXT, { speed: 1.2 }), 8000) * 2);
      // Settings sent without `speed` take its default, not the stored one; `{}` is no settings at all.
      const bytesWith = async (voice_settings: unknown): Promise<number> =>
        (await (await tts('', '?output_format=pcm_8000', { text: TEXT, voice_settings })).arrayBuffer())
          .byteLength;
      expect(await bytesWith({ stability: 0.3, similarity_boost: 0.3 })).toBe(
        sampleCount(spokenMs(TEXT, { speed: 1 }), 8000) * 2,
      );
      expect(await bytesWith({})).toBe(sampleCount(spokenMs(TEXT, { speed: 1.2 }), 8000) * 2);
      expect((await request('/v1/voices/nope/settings')).status).toBe(400);
      await t.control.reset();
      expect(await (await request(`/v1/voices/${VOICE}/settings`)).json()).toMatchObject({ stability: 0.5 });
    });

    it('adds a shared-library voice to the account, which can then speak', async () => {
      const shared = (await (await request('/v1/shared-voices?page_size=2')).json()) as {
        voices: typeof SHARED_VOICES;
        has_more: boolean;
      };
      expect(shared.voices).toHaveLength(2);
      expect(shared.has_more).toBe(true);
      const pick = shared.voices[0];
      const added = await request(`/v1/voices/add/${pick?.public_owner_id}/${pick?.voice_id}`, {
        body: { new_name: 'My pick' },
      });
      const { voice_id } = (await added.json()) as { voice_id: string };
      const voices = (await (await request('/v1/voices')).json()) as { voices: (Voice & { name: string })[] };
      expect(voices.voices.find((v) => v.voice_id === voice_id)).toMatchObject({
        name: 'My pick',
        is_owner: false,
        sharing: { status: 'copied' },
      });
      expect((await tts('', '?output_format=pcm_8000', { text: TEXT }, voice_id)).status).toBe(200);
      const other = await request(`/v1/text-to-speech/${voice_id}`, {
        body: { text: TEXT },
        key: 'other-account',
      });
      expect(other.status).toBe(400);
    });

    it('lists a professional clone still in training but will not speak with it', async () => {
      const training = BASE_VOICES.find((v) => v.name === 'Studio Voice In Training');
      expect(training?.fine_tuning.state).toEqual({ c_model_3: 'fine_tuning' });
      const all = (await (await request('/v1/voices')).json()) as { voices: Voice[] };
      expect(all.voices.map((v) => v.voice_id)).toContain(training?.voice_id);
      const refused = await tts('', '?output_format=pcm_8000', { text: TEXT }, training?.voice_id);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ detail: { status: 'voice_not_fine_tuned' } });
    });

    it('counts list pages and settings reads per key, apart from synthesis calls', async () => {
      await request('/v2/voices?page_size=100');
      await request(`/v1/voices/${VOICE}/settings`);
      expect(await t.control.readCount('vendor_c', { key: KEY, what: 'voices' })).toBe(1);
      expect(await t.control.readCount('vendor_c', { key: KEY, what: 'voice-settings' })).toBe(1);
      expect(await t.control.readCount('vendor_c', { key: 'other' })).toBe(0);
      expect(await t.control.callCount('vendor_c')).toBe(0);
    });

    it("changes a voice's stored settings through the control API", async () => {
      await t.control.setVendorCVoiceSettings(KEY, VOICE, { stability: 0.9 });
      expect(await (await request(`/v1/voices/${VOICE}/settings`)).json()).toMatchObject({ stability: 0.9 });
      expect(
        await (await request(`/v1/voices/${VOICE}/settings`, { key: 'other-account' })).json(),
      ).toMatchObject({ stability: 0.5 });
    });
  });

  describe('pronunciation dictionaries', () => {
    type Dictionary = { id: string; latest_version_id: string };
    const dictionary = async (id: string, key = KEY): Promise<Dictionary> =>
      (await (await request(`/v1/pronunciation-dictionaries/${id}`, { key })).json()) as Dictionary;

    it('answers a dictionary with its latest version, which a new version replaces in that account only', async () => {
      const first = await dictionary('dict-1');
      expect(first).toMatchObject({ id: 'dict-1', latest_version_id: expect.any(String) });
      expect(await dictionary('dict-1')).toEqual(first);
      const version = await t.control.addVendorCDictionaryVersion(KEY, 'dict-1');
      expect(version).not.toBe(first.latest_version_id);
      expect((await dictionary('dict-1')).latest_version_id).toBe(version);
      expect((await dictionary('dict-1', 'other-account')).latest_version_id).not.toBe(version);
      expect(await t.control.readCount('vendor_c', { key: KEY, what: 'dictionary' })).toBe(3);
    });

    it('answers 404 for a dictionary it does not know', async () => {
      const response = await request('/v1/pronunciation-dictionaries/unknown-dict');
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        detail: { status: 'pronunciation_dictionary_not_found' },
      });
    });
  });
});
