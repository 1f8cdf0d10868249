import { parseAdts } from '../kit/audio/aac.codec';
import { parseMp3 } from '../kit/audio/mp3.codec';
import { parseWav } from '../kit/audio/pcm.codec';
import { readTakeId } from '../kit/audio/read-take-id';
import { sampleCount } from '../kit/audio/sample-source';
import { spokenMs } from '../kit/audio/take';
import { joinAudio, keyHeader, openProbe, sendJson, useTestSim, type Message } from '../test/sim-harness';

const KEY = 'a-key-1';
const TEXT = 'Namaste, how can I help you today?';

describe('vendor_a simulator', () => {
  const t = useTestSim();
  const post = (path: string, body: unknown, key: string | null = KEY): Promise<Response> =>
    sendJson(`${t.base('vendor_a')}${path}`, { body, headers: keyHeader('api-subscription-key', key) });

  describe('auth', () => {
    it.each([
      ['missing', null],
      ['wrong', 'bad-key'],
    ])('refuses a %s key with 403 invalid_api_key_error on both REST endpoints', async (_label, key) => {
      for (const path of ['/text-to-speech', '/text-to-speech/stream']) {
        const response = await post(path, { text: TEXT, target_language_code: 'hi-IN' }, key);
        expect(response.status).toBe(403);
        const body = (await response.json()) as { error: Record<string, unknown> };
        expect(body.error).toEqual({
          message: expect.any(String),
          code: 'invalid_api_key_error',
          request_id: expect.any(String),
        });
      }
      expect(await t.control.callCount('vendor_a')).toBe(0);
    });

    it('refuses a wrong key at the socket handshake with 403 and the vendor body', async () => {
      const refused = openProbe(`${t.wsBase('vendor_a')}/text-to-speech/ws?model=a_model_1`, {
        headers: { 'api-subscription-key': 'bad-one' },
      });
      await expect(refused).rejects.toMatchObject({
        status: 403,
        body: expect.stringContaining('invalid_api_key_error'),
      });
    });

    it('takes the key as a sub-protocol and echoes it', async () => {
      const probe = await openProbe(`${t.wsBase('vendor_a')}/text-to-speech/ws?model=a_model_1`, {}, [
        `api-subscription-key.${KEY}`,
      ]);
      expect(probe.ws.protocol).toBe(`api-subscription-key.${KEY}`);
      probe.close();
    });
  });

  describe('REST', () => {
    it('answers {request_id, audios:[base64 WAV]} with the asked sample rate and a length that follows the text', async () => {
      const response = await post('/text-to-speech', {
        text: TEXT,
        target_language_code: 'hi-IN',
        speech_sample_rate: 16000,
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { request_id: string; audios: string[] };
      expect(body.request_id).toMatch(/^\d{8}_[0-9a-f]+$/);
      expect(body.audios).toHaveLength(1);
      const wav = Buffer.from(body.audios[0] ?? '', 'base64');
      const info = parseWav(wav);
      expect(info).toMatchObject({
        audioFormat: 1,
        channels: 1,
        sampleRate: 16000,
        bitsPerSample: 16,
        dataOffset: 44,
      });
      expect(info.riffSize).toBe(wav.length - 8);
      expect(info.dataSize).toBe(sampleCount(spokenMs(TEXT), 16000) * 2);
      expect(info.dataSize).toBe(wav.length - 44);
    });

    it('serves 44100 Hz over REST only', async () => {
      const rest = await post('/text-to-speech', {
        text: TEXT,
        target_language_code: 'hi-IN',
        speech_sample_rate: 44100,
      });
      expect(rest.status).toBe(200);
      const stream = await post('/text-to-speech/stream', {
        text: TEXT,
        target_language_code: 'hi-IN',
        speech_sample_rate: 44100,
      });
      expect(stream.status).toBe(400);
      expect(((await stream.json()) as { error: { code: string } }).error.code).toBe('invalid_request_error');
    });

    it('gives every take its own id, and the same bytes carry the same id', async () => {
      const takes = await Promise.all(
        [1, 2].map(async () => {
          const response = await post('/text-to-speech', {
            text: TEXT,
            target_language_code: 'hi-IN',
            output_audio_codec: 'linear16',
          });
          const body = (await response.json()) as { audios: string[] };
          return Buffer.from(body.audios[0] ?? '', 'base64');
        }),
      );
      const [first, second] = takes as [Buffer, Buffer];
      expect(first.length).toBe(second.length);
      expect(first.equals(second)).toBe(false);
      const ids = [readTakeId(first, 'pcm'), readTakeId(second, 'pcm')];
      expect(ids[0]).toMatch(/^[0-9a-f]{16}$/);
      expect(ids[0]).not.toBe(ids[1]);
      expect(readTakeId(Buffer.from(first), 'pcm')).toBe(ids[0]);
      const calls = await t.control.calls('vendor_a', { key: KEY });
      expect(calls.map((c) => c.takeId).sort()).toEqual([...ids].sort());
    });

    it.each([
      ['a speaker of the other model', { speaker: 'vanshira' }, 400, 'invalid_request_error'],
      ['an unknown language', { target_language_code: 'or-IN' }, 400, 'invalid_request_error'],
      ['no language', { target_language_code: undefined }, 422, 'unprocessable_entity_error'],
      ['an unknown codec', { output_audio_codec: 'ogg' }, 400, 'invalid_request_error'],
      [
        'an opus rate opus lacks',
        { output_audio_codec: 'opus', speech_sample_rate: 22050 },
        400,
        'invalid_request_error',
      ],
      ['a pace out of range', { pace: 3 }, 422, 'unprocessable_entity_error'],
      ['text over 2500 characters', { text: 'a'.repeat(2501) }, 400, 'invalid_request_error'],
      ['text with no letter or digit', { text: '... !!' }, 400, 'invalid_request_error'],
    ])('refuses %s', async (_label, patch, status, code) => {
      const response = await post('/text-to-speech', { text: TEXT, target_language_code: 'hi-IN', ...patch });
      expect(response.status).toBe(status);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
      expect(await t.control.callCount('vendor_a')).toBe(0);
    });

    it('takes 3500 characters on the stream endpoint', async () => {
      const response = await post('/text-to-speech/stream', {
        text: 'a'.repeat(3000),
        target_language_code: 'hi-IN',
        output_audio_codec: 'mulaw',
        speech_sample_rate: 8000,
      });
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBe(sampleCount(spokenMs('a'.repeat(3000)), 8000));
    });
  });

  describe('stream', () => {
    it('streams MPEG Layer III frames at the asked rate and bitrate', async () => {
      const response = await post('/text-to-speech/stream', {
        text: TEXT,
        target_language_code: 'ta-IN',
        speech_sample_rate: 24000,
        output_audio_bitrate: '64k',
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/mpeg');
      expect(response.headers.get('transfer-encoding')).toBe('chunked');
      const audio = Buffer.from(await response.arrayBuffer());
      const mp3 = parseMp3(audio);
      expect(mp3.trailingBytes).toBe(0);
      expect(mp3.id3Bytes).toBe(0);
      expect(mp3.frames.length).toBe(Math.ceil(sampleCount(spokenMs(TEXT), 24000) / 576));
      expect(
        new Set(mp3.frames.map((f) => `${f.version}/${f.sampleRate}/${f.bitrateKbps}/${f.channelMode}`)),
      ).toEqual(new Set(['mpeg2/24000/64/3']));
      expect(readTakeId(audio, 'mp3')).toMatch(/^[0-9a-f]{16}$/);
    });

    it('streams ADTS AAC frames and G.711 bytes at rate × duration', async () => {
      const aac = await post('/text-to-speech/stream', {
        text: TEXT,
        target_language_code: 'hi-IN',
        output_audio_codec: 'aac',
        speech_sample_rate: 16000,
      });
      const aacAudio = Buffer.from(await aac.arrayBuffer());
      const adts = parseAdts(aacAudio);
      expect(adts.trailingBytes).toBe(0);
      expect(adts.frames.every((f) => f.sampleRate === 16000 && f.channels === 1 && f.profile === 2)).toBe(
        true,
      );
      expect(readTakeId(aacAudio, 'aac')).toMatch(/^[0-9a-f]{16}$/);
      const alaw = await post('/text-to-speech/stream', {
        text: TEXT,
        target_language_code: 'hi-IN',
        output_audio_codec: 'alaw',
        speech_sample_rate: 8000,
      });
      expect(alaw.headers.get('content-type')).toBe('audio/alaw');
      expect((await alaw.arrayBuffer()).byteLength).toBe(Math.round((8000 * spokenMs(TEXT)) / 1000));
    });
  });

  describe('WebSocket', () => {
    const open = (path = '/text-to-speech/ws?model=a_model_1&send_completion_event=true') =>
      openProbe(`${t.wsBase('vendor_a')}${path}`, { headers: { 'api-subscription-key': KEY } });
    const audioOf = (m: Message) => (m['type'] === 'audio' ? (m['data'] as { audio: string }).audio : null);

    it('answers config + text + flush with audio frames and one final event', async () => {
      const probe = await open();
      probe.send({
        type: 'config',
        data: {
          target_language_code: 'hi-IN',
          speaker: 'aarila',
          output_audio_codec: 'linear16',
          speech_sample_rate: 16000,
        },
      });
      probe.send({ type: 'ping' });
      probe.send({ type: 'text', data: { text: 'Short one.' } });
      probe.send({ type: 'flush' });
      const messages = await probe.waitFor((m) => m['type'] === 'event');
      probe.close();
      const audio = messages.filter((m) => m['type'] === 'audio');
      expect(audio.length).toBeGreaterThan(0);
      expect(messages.at(-1)).toEqual({ type: 'event', data: { event_type: 'final' } });
      expect(new Set(audio.map((m) => (m['data'] as { request_id: string }).request_id)).size).toBe(1);
      const pcm = joinAudio(messages, audioOf);
      expect(pcm.length).toBe(sampleCount(spokenMs('Short one.'), 16000) * 2);
      expect(readTakeId(pcm, 'pcm')).toBe((await t.control.calls('vendor_a', { endpoint: 'ws' }))[0]?.takeId);
    });

    it('sends one final per flush, after that flush audio, with no audio for an empty flush', async () => {
      const probe = await open();
      probe.send({
        type: 'config',
        data: { target_language_code: 'hi-IN', output_audio_codec: 'mulaw', speech_sample_rate: 8000 },
      });
      probe.send({ type: 'text', data: { text: 'One.' } });
      probe.send({ type: 'flush' });
      probe.send({ type: 'flush' });
      probe.send({ type: 'text', data: { text: 'Two.' } });
      probe.send({ type: 'flush' });
      await probe.waitFor(() => probe.messages.filter((m) => m['type'] === 'event').length === 3);
      probe.close();
      const kinds = probe.messages
        .map((m) => m['type'])
        .join(' ')
        .replace(/(audio )+/g, 'audio* ');
      expect(kinds).toBe('audio* event event audio* event');
    });

    it('reports config errors on the socket and stays open', async () => {
      const probe = await open();
      probe.send({ type: 'config', data: { target_language_code: 'hi-IN', speaker: 'Aarila' } });
      probe.send({ type: 'text', data: { text: 'Hello.' } });
      const messages = await probe.waitFor(() => probe.messages.length === 2);
      expect(messages.map((m) => (m['data'] as { code: string }).code)).toEqual([
        'invalid_request_error',
        'invalid_request_error',
      ]);
      expect(probe.ws.readyState).toBe(probe.ws.OPEN);
      probe.close();
    });

    it('reports an unknown dictionary and still speaks', async () => {
      const probe = await open();
      probe.send({ type: 'config', data: { target_language_code: 'hi-IN', dict_id: 'unknown-dict' } });
      probe.send({ type: 'text', data: { text: 'Hello.' } });
      probe.send({ type: 'flush' });
      const messages = await probe.waitFor((m) => m['type'] === 'event');
      probe.close();
      expect(messages[0]).toMatchObject({ type: 'error', data: { code: 'not_found_error' } });
      expect(messages.some((m) => m['type'] === 'audio')).toBe(true);
    });

    it('serves a_model_2 on /ws/v2 only', async () => {
      const wrong = await open('/text-to-speech/ws?model=a_model_2');
      expect((await wrong.closed).code).toBe(1008);
      expect(wrong.messages[0]).toMatchObject({ type: 'error', data: { code: 'invalid_request_error' } });
      const right = await open('/text-to-speech/ws/v2?model=a_model_2&send_completion_event=true');
      right.send({
        type: 'config',
        data: { target_language_code: 'hi-IN', speaker: 'vanshira', output_audio_codec: 'wav' },
      });
      right.send({ type: 'text', data: { text: 'Hello there.' } });
      right.send({ type: 'flush' });
      const messages = await right.waitFor((m) => m['type'] === 'event');
      right.close();
      expect(parseWav(joinAudio(messages, audioOf)).sampleRate).toBe(22050);
      expect(await t.control.callCount('vendor_a', { endpoint: 'ws-v2', key: KEY })).toBe(1);
    });

    it('starts synthesis by itself once min_buffer_size characters are buffered', async () => {
      const probe = await open('/text-to-speech/ws?model=a_model_1');
      probe.send({ type: 'config', data: { target_language_code: 'en-IN', min_buffer_size: 30 } });
      probe.send({ type: 'text', data: { text: 'This sentence is longer than thirty characters.' } });
      await probe.waitFor((m) => m['type'] === 'audio');
      probe.close();
      expect(await t.control.callCount('vendor_a', { endpoint: 'ws' })).toBe(1);
    });

    it('closes an idle socket with its idle error', async () => {
      await t.control.setIdleTimeout('vendor_a', 100);
      const probe = await open();
      expect((await probe.closed).code).toBe(1008);
      expect(probe.messages).toEqual([
        { type: 'error', data: { message: expect.any(String), code: 'idle_timeout_error' } },
      ]);
    });
  });

  describe('pronunciation dictionaries', () => {
    const read = (id: string, key: string | null = KEY): Promise<Response> =>
      fetch(`${t.base('vendor_a')}/pronunciation-dictionaries/${id}`, {
        headers: key !== null ? { 'api-subscription-key': key } : {},
      });

    it('reads a dictionary of the account, whose entries a test can replace', async () => {
      const first = (await (await read('my-dict')).json()) as { dict_id: string; entries: unknown[] };
      expect(first).toMatchObject({ dict_id: 'my-dict', entries: [expect.any(Object)] });
      await t.control.setVendorADictionary(KEY, 'my-dict', [{ word: 'Namaste', pronunciation: 'nəmə-steɪ' }]);
      expect(await (await read('my-dict')).json()).toMatchObject({
        entries: [{ word: 'Namaste', pronunciation: 'nəmə-steɪ' }],
      });
      expect(await (await read('my-dict', 'other-account')).json()).toEqual(first);
      expect(await t.control.readCount('vendor_a', { key: KEY, what: 'dictionary' })).toBe(2);
    });

    it('refuses a wrong key with 403 and an unknown dictionary with 404 not_found_error', async () => {
      expect((await read('my-dict', 'bad-key')).status).toBe(403);
      const unknown = await read('unknown-dict');
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: { code: 'not_found_error' } });
    });
  });
});
