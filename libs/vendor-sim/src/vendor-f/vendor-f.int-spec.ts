import { parseMp3 } from '../kit/audio/mp3.codec';
import { parseWav } from '../kit/audio/pcm.codec';
import { readTakeId } from '../kit/audio/read-take-id';
import { sampleCount } from '../kit/audio/sample-source';
import { spokenMs } from '../kit/audio/take';
import { simKeyId } from '../kit/sim-keys';
import {
  expectFreshTakes,
  joinAudio,
  keyHeader,
  openProbe,
  sendJson,
  useTestSim,
  type Message,
} from '../test/sim-harness';

const KEY = 'f-key-1';
const TEXT = 'Hello there, how are you doing today?';

interface Voice {
  voice_id: string;
  name: string;
  type: string;
}

describe('vendor_f simulator', () => {
  const t = useTestSim();
  const post = (body: unknown, key: string | null = KEY): Promise<Response> =>
    sendJson(`${t.base('vendor_f')}/v1/tts`, { body, headers: keyHeader('authorization', key, 'Bearer ') });
  const voices = async (key: string): Promise<Voice[]> =>
    (
      (await (
        await fetch(`${t.base('vendor_f')}/v1/tts/voices`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as {
        voices: Voice[];
      }
    ).voices;
  const bytes = async (response: Response): Promise<Buffer> => Buffer.from(await response.arrayBuffer());
  const pcm = { codec: 'pcm', sample_rate: 16000 };

  describe('REST', () => {
    it.each([
      ['missing', null],
      ['wrong', 'bad-key'],
    ])('refuses a %s key with 401 {code, error} on every route', async (_label, key) => {
      const speak = await post({ text: TEXT }, key);
      expect(speak.status).toBe(401);
      expect(await speak.json()).toEqual({ code: 'Unauthorized', error: 'incorrect API key provided' });
      const list = await fetch(`${t.base('vendor_f')}/v1/tts/voices`, {
        headers: key ? { authorization: `Bearer ${key}` } : {},
      });
      expect(list.status).toBe(401);
      expect(await t.control.callCount('vendor_f')).toBe(0);
    });

    it('answers mp3 at 24 kHz and 128 kbps by default, streamed in chunks', async () => {
      const response = await post({ text: TEXT });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/mpeg');
      expect(response.headers.get('transfer-encoding')).toBe('chunked');
      const audio = await bytes(response);
      const mp3 = parseMp3(audio);
      expect(mp3.trailingBytes).toBe(0);
      expect(new Set(mp3.frames.map((f) => `${f.sampleRate}/${f.bitrateKbps}`))).toEqual(
        new Set(['24000/128']),
      );
      const [record] = await t.control.calls('vendor_f', { key: KEY, endpoint: 'rest' });
      expect(readTakeId(audio, 'mp3')).toBe(record?.takeId);
    });

    it('answers pcm, wav and G.711 at the asked rate and speed', async () => {
      const raw = await post({ text: TEXT, voice_id: 'Birch', speed: 1.25, output_format: pcm });
      expect(raw.headers.get('content-type')).toBe('audio/pcm');
      expect((await bytes(raw)).length).toBe(sampleCount(spokenMs(TEXT, { speed: 1.25 }), 16000) * 2);
      const wav = await post({ text: TEXT, output_format: { codec: 'wav', sample_rate: 44100 } });
      expect(parseWav(await bytes(wav))).toMatchObject({ sampleRate: 44100, bitsPerSample: 16 });
      const alaw = await post({ text: TEXT, output_format: { codec: 'alaw', sample_rate: 8000 } });
      expect(alaw.headers.get('content-type')).toBe('audio/alaw');
      expect((await bytes(alaw)).length).toBe(sampleCount(spokenMs(TEXT), 8000));
      const mp3 = await post({
        text: TEXT,
        output_format: { codec: 'mp3', sample_rate: 44100, bit_rate: 64000 },
      });
      expect(
        new Set(parseMp3(await bytes(mp3)).frames.map((f) => `${f.sampleRate}/${f.bitrateKbps}`)),
      ).toEqual(new Set(['44100/64']));
    });

    it('makes a fresh take for every call and counts calls per key', async () => {
      await expectFreshTakes(t, { vendor: 'vendor_f', key: KEY, endpoint: 'rest' }, async () =>
        bytes(await post({ text: TEXT, output_format: pcm })),
      );
    });

    it.each([
      ['an unknown voice', { voice_id: 'nobody' }],
      ['an unknown language', { language: 'xx' }],
      ['an unknown codec', { output_format: { codec: 'opus' } }],
      ['an unknown rate', { output_format: { codec: 'pcm', sample_rate: 32000 } }],
      ['a bit rate for pcm', { output_format: { codec: 'pcm', bit_rate: 64000 } }],
      ['a speed out of range', { speed: 2 }],
      ['a latency level out of range', { optimize_streaming_latency: 3 }],
      ['a non-boolean normalization', { text_normalization: 'yes' }],
      ['too long a text', { text: 'a'.repeat(15_001) }],
      ['no text', { text: '' }],
    ])('refuses %s with 400', async (_label, patch) => {
      const response = await post({ text: TEXT, ...patch });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ code: 'Bad Request', error: expect.any(String) });
      expect(await t.control.callCount('vendor_f')).toBe(0);
    });

    it("lists the built-in voices and the account's own custom voices, usable by that account only", async () => {
      const mine = await voices(KEY);
      expect(mine.filter((v) => v.type === 'builtin').map((v) => v.voice_id)).toEqual([
        'aster',
        'birch',
        'coral',
        'dune',
        'fern',
      ]);
      const custom = mine.filter((v) => v.type === 'custom');
      expect(custom).toHaveLength(2);
      expect(custom[0]?.voice_id).toContain(simKeyId(KEY).slice(0, 12));
      const theirs = await voices('other-key');
      expect(theirs.some((v) => v.voice_id === custom[0]?.voice_id)).toBe(false);
      const ok = await post({ text: TEXT, voice_id: custom[0]?.voice_id, output_format: pcm });
      expect(ok.status).toBe(200);
      await ok.arrayBuffer();
      const refused = await post({ text: TEXT, voice_id: custom[0]?.voice_id }, 'other-key');
      expect(refused.status).toBe(400);
    });

    it('answers injected errors before audio with the status, and cuts a started stream', async () => {
      await t.control.injectFault({ vendor: 'vendor_f', kind: 'error', status: 429, message: 'slow down' });
      const limited = await post({ text: TEXT });
      expect(limited.status).toBe(429);
      expect(await limited.json()).toEqual({ code: 'Too Many Requests', error: 'slow down' });
      await t.control.injectFault({ vendor: 'vendor_f', kind: 'cut', afterBytes: 2000 });
      const cut = await post({ text: TEXT, output_format: pcm });
      await expect(cut.arrayBuffer()).rejects.toThrow();
      expect((await t.control.calls('vendor_f')).map((c) => c.fault)).toEqual(['error', 'cut']);
    });
  });

  describe('WebSocket', () => {
    const open = (query = 'codec=pcm&sample_rate=16000', key = KEY) =>
      openProbe(`${t.wsBase('vendor_f')}/v1/tts?${query}`, { headers: { authorization: `Bearer ${key}` } });
    const audioOf = (m: Message) => (m['type'] === 'audio.delta' ? (m['delta'] as string) : null);

    it('refuses a wrong key and bad query parameters at the upgrade', async () => {
      await expect(open(undefined, 'bad-key')).rejects.toMatchObject({
        status: 401,
        body: expect.stringContaining('incorrect API key'),
      });
      await expect(open('codec=pcm&text_normalization=yes')).rejects.toMatchObject({ status: 400 });
      await expect(open('voice=nobody')).rejects.toMatchObject({ status: 400 });
    });

    it('speaks text.delta pieces after text.done as audio.delta messages, then audio.done', async () => {
      const probe = await open('codec=pcm&sample_rate=16000&voice=coral&text_normalization=true');
      probe.send({ type: 'text.delta', delta: 'Hello there, ' });
      probe.send({ type: 'text.delta', delta: 'how are you doing today?' });
      probe.send({ type: 'text.done' });
      const messages = await probe.waitFor((m) => m['type'] === 'audio.done');
      const audio = joinAudio(messages, audioOf);
      expect(audio.length).toBe(sampleCount(spokenMs(TEXT), 16000) * 2);
      const [record] = await t.control.calls('vendor_f', { endpoint: 'ws', key: KEY });
      expect(record?.chars).toBe(TEXT.length);
      expect(readTakeId(audio, 'pcm')).toBe(record?.takeId);
      // The socket stays open for the next utterance.
      probe.send({ type: 'text.delta', delta: 'Second one.' });
      probe.send({ type: 'text.done' });
      await probe.waitFor(() => probe.messages.filter((m) => m['type'] === 'audio.done').length === 2);
      probe.close();
      expect(await t.control.callCount('vendor_f', { endpoint: 'ws' })).toBe(2);
    });

    it('adds cumulative character timings with with_timestamps=true', async () => {
      const probe = await open('codec=pcm&sample_rate=16000&with_timestamps=true');
      probe.send({ type: 'text.delta', delta: TEXT });
      probe.send({ type: 'text.done' });
      const messages = await probe.waitFor((m) => m['type'] === 'audio.done');
      probe.close();
      const stamps = messages
        .filter((m) => m['type'] === 'audio.delta' && m['audio_timestamps'])
        .map((m) => m['audio_timestamps'] as { graph_chars: string[]; graph_times: [number, number][] });
      expect(stamps.length).toBeGreaterThan(1);
      for (const s of stamps) expect(s.graph_chars.length).toBe(s.graph_times.length);
      expect(stamps.flatMap((s) => s.graph_chars).join('')).toBe(TEXT);
      const starts = stamps.flatMap((s) => s.graph_times.map(([start]) => start));
      expect([...starts].sort((a, b) => a - b)).toEqual(starts);
      expect(stamps.at(-1)?.graph_times.at(-1)?.[1]).toBeCloseTo(spokenMs(TEXT) / 1000, 2);
    });

    it('drops the utterance on text.clear and answers audio.clear', async () => {
      await t.control.setPacing('vendor_f', { factor: 1 });
      const probe = await open();
      probe.send({ type: 'text.delta', delta: 'A long sentence that takes a good while to speak out loud.' });
      probe.send({ type: 'text.done' });
      await probe.waitFor((m) => m['type'] === 'audio.delta');
      probe.send({ type: 'text.clear' });
      await probe.waitFor((m) => m['type'] === 'audio.clear');
      probe.send({ type: 'text.delta', delta: 'Next.' });
      probe.send({ type: 'text.done' });
      const messages = await probe.waitFor((m) => m['type'] === 'audio.done');
      probe.close();
      expect(messages.filter((m) => m['type'] === 'audio.done')).toHaveLength(1);
    });

    it('reports an injected error as an error message and stays open; a cut drops the socket', async () => {
      await t.control.injectFault({
        vendor: 'vendor_f',
        endpoint: 'ws',
        kind: 'error',
        afterBytes: 1000,
        message: 'engine failed',
      });
      const probe = await open();
      probe.send({ type: 'text.delta', delta: TEXT });
      probe.send({ type: 'text.done' });
      const messages = await probe.waitFor((m) => m['type'] === 'error');
      expect(messages.at(-1)).toEqual({ type: 'error', message: 'engine failed' });
      expect(joinAudio(messages, audioOf).length).toBe(1000);
      expect(probe.ws.readyState).toBe(probe.ws.OPEN);
      await t.control.injectFault({ vendor: 'vendor_f', endpoint: 'ws', kind: 'cut', afterBytes: 1000 });
      probe.send({ type: 'text.delta', delta: TEXT });
      probe.send({ type: 'text.done' });
      expect((await probe.closed).code).toBe(1006);
    });

    it('answers an unknown message type with an error message', async () => {
      const probe = await open();
      probe.send({ type: 'speak', text: 'x' });
      const messages = await probe.waitFor((m) => m['type'] === 'error');
      probe.close();
      expect(messages[0]).toEqual({
        type: 'error',
        message: expect.stringContaining('unknown message type'),
      });
    });
  });
});
