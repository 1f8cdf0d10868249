import { id3Length, parseMp3 } from '../kit/audio/mp3.codec';
import { readTakeId } from '../kit/audio/read-take-id';
import { sampleCount } from '../kit/audio/sample-source';
import { spokenMs } from '../kit/audio/take';
import { joinAudio, openProbe, useTestSim, type Message, type SocketProbe } from '../test/sim-harness';
import { BASE_VOICES } from './vendor-c.voices';

const KEY = 'c-key-ws';
const VOICE = BASE_VOICES[0]?.voice_id ?? '';

interface MsAlignment {
  chars: string[];
  charStartTimesMs: number[];
  charDurationsMs: number[];
}

const audioOf = (m: Message): string | null => (typeof m['audio'] === 'string' ? m['audio'] : null);

describe('vendor_c simulator sockets', () => {
  const t = useTestSim();
  const open = (
    kind: 'stream-input' | 'multi-stream-input',
    query = '',
    key: string | null = KEY,
    voice = VOICE,
  ): Promise<SocketProbe> =>
    openProbe(`${t.wsBase('vendor_c')}/v1/text-to-speech/${voice}/${kind}${query}`, {
      headers: key !== null ? { 'vendor_c-api-key': key } : {},
    });

  describe('stream-input', () => {
    it('speaks the text after init, sends camelCase alignment with every audio message, then isFinal and closes', async () => {
      const probe = await open('stream-input', '?model_id=c_model_5&output_format=pcm_16000');
      const text = 'Hello there, this is one stream. ';
      probe.send({ text: ' ', voice_settings: { stability: 0.5, similarity_boost: 0.8 } });
      probe.send({ text });
      probe.send({ text: '' });
      const closed = await probe.closed;
      expect(closed.code).toBe(1000);
      const audio = probe.messages.filter((m) => typeof m['audio'] === 'string');
      expect(audio.length).toBeGreaterThan(1);
      expect(probe.messages.at(-1)).toEqual({ isFinal: true });
      const pcm = joinAudio(probe.messages, audioOf);
      expect(pcm.length).toBe(sampleCount(spokenMs(text), 16000) * 2);
      const chars: string[] = [];
      for (const message of audio) {
        const alignment = message['alignment'] as MsAlignment;
        expect(message['normalizedAlignment']).toEqual(alignment);
        const chunkMs = (Buffer.from(message['audio'] as string, 'base64').length / 2 / 16000) * 1000;
        alignment.charStartTimesMs.forEach((start) => expect(start).toBeLessThanOrEqual(chunkMs));
        expect(alignment.chars).toHaveLength(alignment.charDurationsMs.length);
        chars.push(...alignment.chars);
      }
      expect(chars.join('')).toBe(text);
      expect(readTakeId(pcm, 'pcm')).toBe(
        (await t.control.calls('vendor_c', { key: KEY, endpoint: 'stream-input' }))[0]?.takeId,
      );
    });

    it.each([
      ['vendor_c_api_key', { vendor_c_api_key: KEY }],
      ['authorization', { authorization: `Bearer ${KEY}` }],
    ])('takes the key from the first message (%s)', async (_label, auth) => {
      const probe = await open('stream-input', '?output_format=pcm_8000', null);
      probe.send({ text: ' ', ...auth });
      probe.send({ text: 'Hi. ', flush: true });
      await probe.waitFor((m) => typeof m['audio'] === 'string');
      probe.close();
      expect(await t.control.callCount('vendor_c', { key: KEY })).toBe(1);
    });

    it.each([
      ['a wrong header key', 'bad-key', {}, 'invalid_api_key'],
      ['no key at all', null, {}, 'needs_authorization'],
      ['a wrong key in the first message', null, { vendor_c_api_key: 'bad-key' }, 'invalid_api_key'],
    ])('reports %s with an error message and closes 1008', async (_label, key, auth, error) => {
      const probe = await open('stream-input', '', key);
      probe.send({ text: ' ', ...auth });
      const closed = await probe.closed;
      expect(closed.code).toBe(1008);
      expect(probe.messages).toEqual([{ message: expect.any(String), error, code: 1008 }]);
    });

    it('refuses an unknown voice with voice_not_found and 1008', async () => {
      const probe = await open('stream-input', '', KEY, 'nope');
      probe.send({ text: ' ' });
      expect((await probe.closed).code).toBe(1008);
      expect(probe.messages[0]).toMatchObject({ error: 'voice_not_found', code: 1008 });
    });

    it('waits for the chunk schedule before generating, unless flushed', async () => {
      const probe = await open('stream-input', '?output_format=pcm_8000');
      probe.send({ text: ' ', generation_config: { chunk_length_schedule: [50] } });
      probe.send({ text: 'Short bit. ' });
      await new Promise((r) => setTimeout(r, 100));
      expect(await t.control.callCount('vendor_c')).toBe(0);
      probe.send({ text: 'Now enough text to pass the fifty character schedule. ' });
      await probe.waitFor((m) => typeof m['audio'] === 'string');
      expect(await t.control.callCount('vendor_c')).toBe(1);
      probe.send({ text: 'Tail. ', flush: true });
      probe.send({ text: '' });
      await probe.closed;
      expect(await t.control.callCount('vendor_c')).toBe(2);
    });

    it('speaks each message on its own with auto_mode', async () => {
      const probe = await open('stream-input', '?auto_mode=true&output_format=pcm_8000');
      probe.send({ text: ' ' });
      probe.send({ text: 'One. ' });
      probe.send({ text: 'Two. ' });
      probe.send({ text: '' });
      await probe.closed;
      const calls = await t.control.calls('vendor_c', { endpoint: 'stream-input' });
      expect(calls.map((c) => c.chars)).toEqual([5, 5]);
    });

    it('puts the ID3 tag only on the first generation of an MP3 stream', async () => {
      const probe = await open('stream-input', '?output_format=mp3_44100_64');
      probe.send({ text: ' ' });
      probe.send({ text: 'First sentence. ', flush: true });
      await probe.waitFor((m) => typeof m['audio'] === 'string');
      probe.send({ text: 'Second sentence. ', flush: true });
      probe.send({ text: '' });
      await probe.closed;
      const calls = await t.control.calls('vendor_c');
      expect(calls).toHaveLength(2);
      const audio = joinAudio(probe.messages, audioOf);
      expect(id3Length(audio)).toBeGreaterThan(0);
      const mp3 = parseMp3(audio);
      expect(mp3.trailingBytes).toBe(0);
      expect(mp3.frames.every((f) => f.bitrateKbps === 64 && f.sampleRate === 44100)).toBe(true);
      expect(audio.indexOf('ID3', 3, 'latin1')).toBe(-1);
    });

    it('closes an idle socket with 1008 and a reason', async () => {
      await t.control.setIdleTimeout('vendor_c', 100);
      const probe = await open('stream-input');
      probe.send({ text: ' ' });
      const closed = await probe.closed;
      expect(closed.code).toBe(1008);
      expect(closed.reason).toMatch(/Have not received new text/);
    });

    it('reports a bad output format and closes', async () => {
      const probe = await open('stream-input', '?output_format=flac_44100');
      expect((await probe.closed).code).toBe(1008);
      expect(probe.messages[0]).toMatchObject({ error: 'invalid_request', code: 1008 });
    });
  });

  describe('multi-stream-input', () => {
    it('speaks what was flushed before close_context, drops what was not, then isFinal', async () => {
      const probe = await open('multi-stream-input', '?output_format=pcm_8000');
      probe.send({ text: ' ', context_id: 'c' });
      probe.send({ text: 'Flushed words. ', context_id: 'c', flush: true });
      probe.send({ text: 'Words never flushed ', context_id: 'c' });
      probe.send({ context_id: 'c', close_context: true });
      await probe.waitFor((m) => m['isFinal'] === true && m['context_id'] === 'c');
      const audio = joinAudio(
        probe.messages.filter((m) => m['context_id'] === 'c'),
        audioOf,
      );
      expect(audio.length).toBe(sampleCount(spokenMs('Flushed words. '), 8000) * 2);
      probe.send({ close_socket: true });
      await probe.closed;
    });

    it('keeps contexts apart, tags every frame, and ends each with isFinal', async () => {
      const probe = await open('multi-stream-input', '?output_format=pcm_8000');
      probe.send({ text: ' ', context_id: 'a' });
      probe.send({ text: ' ', context_id: 'b' });
      probe.send({ text: 'Context a speaks. ', context_id: 'a', flush: true });
      probe.send({ text: 'Context b speaks longer. ', context_id: 'b', flush: true });
      probe.send({ context_id: 'a', close_context: true });
      await probe.waitFor((m) => m['isFinal'] === true && m['context_id'] === 'a');
      probe.send({ text: '', context_id: 'b' });
      probe.send({ close_socket: true });
      expect((await probe.closed).code).toBe(1000);
      for (const message of probe.messages) {
        expect(['a', 'b']).toContain(message['context_id']);
        expect(message['contextId']).toBe(message['context_id']);
      }
      const finals = probe.messages.filter((m) => m['isFinal'] === true).map((m) => m['context_id']);
      expect(finals.sort()).toEqual(['a', 'b']);
      const audioOfContext = (id: string) =>
        joinAudio(
          probe.messages.filter((m) => m['context_id'] === id),
          audioOf,
        );
      expect(audioOfContext('a').length).toBe(sampleCount(spokenMs('Context a speaks. '), 8000) * 2);
      expect(audioOfContext('b').length).toBe(sampleCount(spokenMs('Context b speaks longer. '), 8000) * 2);
      const lastOfA = probe.messages.findLastIndex(
        (m) => m['context_id'] === 'a' && typeof m['audio'] === 'string',
      );
      const finalOfA = probe.messages.findIndex((m) => m['context_id'] === 'a' && m['isFinal'] === true);
      expect(finalOfA).toBeGreaterThan(lastOfA);
      expect(await t.control.callCount('vendor_c', { endpoint: 'multi-stream-input', key: KEY })).toBe(2);
    });

    it(`refuses a context beyond the limit without closing the socket`, async () => {
      const probe = await open('multi-stream-input');
      for (const id of ['1', '2', '3', '4', '5', '6']) probe.send({ text: ' ', context_id: id });
      const [error] = await probe.waitFor((m) => m['error'] !== undefined);
      expect(error).toMatchObject({ error: 'max_active_contexts', context_id: '6' });
      expect(probe.ws.readyState).toBe(probe.ws.OPEN);
      probe.close();
    });
  });
});
