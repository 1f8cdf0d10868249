import { WebSocket } from 'ws';
import { readTakeId } from '../kit/audio/read-take-id';
import { sampleCount } from '../kit/audio/sample-source';
import { spokenMs } from '../kit/audio/take';
import { useTestSim } from '../test/sim-harness';

const KEY = 'e-key-ws';
const V1 = 'e_model_2-celeste-fr';
const V2 = 'e_model_3-thatcher-en';

type Frame = { kind: 'json'; message: Record<string, unknown> } | { kind: 'audio'; bytes: Buffer };

/** A client socket that keeps JSON messages and binary audio frames in arrival order. */
class Probe {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number }>;
  private waiters: (() => void)[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary) => {
      this.frames.push(
        isBinary
          ? { kind: 'audio', bytes: data }
          : { kind: 'json', message: JSON.parse(data.toString('utf8')) as Record<string, unknown> },
      );
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve({ code })));
  }

  messages(): Record<string, unknown>[] {
    return this.frames.flatMap((f) => (f.kind === 'json' ? [f.message] : []));
  }

  /** Message types and `audio` for binary frames (runs of audio folded into one `audio*`). */
  sequence(): string {
    return this.frames
      .map((f) => (f.kind === 'audio' ? 'audio' : String(f.message['type'])))
      .join(' ')
      .replace(/audio( audio)*/g, 'audio*');
  }

  audio(): Buffer {
    return Buffer.concat(this.frames.flatMap((f) => (f.kind === 'audio' ? [f.bytes] : [])));
  }

  async waitFor(predicate: () => boolean): Promise<void> {
    while (!predicate()) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  count(type: string): number {
    return this.messages().filter((m) => m['type'] === type).length;
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }
}

function open(url: string, headers: Record<string, string>, protocols?: string[]): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    const probe = new Probe(ws);
    ws.once('open', () => resolve(probe));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => reject(Object.assign(new Error('refused'), { status: res.statusCode, body })));
    });
    ws.once('error', reject);
  });
}

describe('vendor_e simulator sockets', () => {
  const t = useTestSim();
  const v1 = (query = `model=${V1}&encoding=linear16&sample_rate=16000`, auth = `Token ${KEY}`) =>
    open(`${t.wsBase('vendor_e')}/v1/speak?${query}`, { authorization: auth });
  const v2 = (query = `model=${V2}&encoding=linear16&sample_rate=24000`) =>
    open(`${t.wsBase('vendor_e')}/v2/speak?${query}`, { authorization: `Token ${KEY}` });

  it('refuses a wrong key with 401 INVALID_AUTH, and a model of the other generation with 400', async () => {
    await expect(v1(undefined, 'Token bad-key')).rejects.toMatchObject({
      status: 401,
      body: expect.stringContaining('INVALID_AUTH'),
    });
    await expect(v1(`model=${V2}`)).rejects.toMatchObject({ status: 400 });
    await expect(v2(`model=${V1}`)).rejects.toMatchObject({ status: 400 });
    await expect(v2(`model=${V2}&speed=1.12`)).rejects.toMatchObject({ status: 400 });
    await expect(v1(`model=${V1}&encoding=mp3`)).rejects.toMatchObject({ status: 400 });
  });

  it('takes the key as the sub-protocols token, <key> and echoes token', async () => {
    const probe = await open(`${t.wsBase('vendor_e')}/v1/speak`, {}, ['token', KEY]);
    expect(probe.ws.protocol).toBe('token');
    probe.ws.close();
  });

  describe('v1', () => {
    it('sends Metadata first, then binary audio and Flushed with a rising sequence_id per flush', async () => {
      const probe = await v1();
      probe.send({ type: 'Speak', text: 'Bonjour, ' });
      probe.send({ type: 'Speak', text: 'comment allez-vous?' });
      probe.send({ type: 'Flush' });
      probe.send({ type: 'Flush' });
      probe.send({ type: 'Speak', text: 'Merci.' });
      probe.send({ type: 'Flush' });
      await probe.waitFor(() => probe.count('Flushed') === 3);
      probe.ws.close();
      expect(probe.messages()[0]).toEqual({
        type: 'Metadata',
        request_id: expect.any(String),
        model_name: V1,
        model_version: expect.any(String),
        model_uuid: expect.any(String),
      });
      expect(probe.sequence()).toBe('Metadata audio* Flushed Flushed audio* Flushed');
      expect(
        probe
          .messages()
          .filter((m) => m['type'] === 'Flushed')
          .map((m) => m['sequence_id']),
      ).toEqual([0, 1, 2]);
      const first = probe.frames.filter((f) => f.kind === 'audio');
      expect(first.length).toBeGreaterThan(1);
      const calls = await t.control.calls('vendor_e', { endpoint: 'ws', key: KEY });
      expect(calls.map((c) => c.chars)).toEqual([28, 6]);
      const audio = probe.audio();
      expect(audio.length).toBe(
        (sampleCount(spokenMs('Bonjour, comment allez-vous?'), 16000) +
          sampleCount(spokenMs('Merci.'), 16000)) *
          2,
      );
      expect(readTakeId(audio, 'pcm')).toBe(calls[0]?.takeId);
    });

    it('stops audio on Clear, answers Cleared, and closes with 1000 on Close after queued work', async () => {
      await t.control.setPacing('vendor_e', { factor: 1 });
      const probe = await v1(`model=${V1}&encoding=mulaw&sample_rate=8000`);
      probe.send({ type: 'Speak', text: 'A long sentence that takes quite a while to speak out loud.' });
      probe.send({ type: 'Flush' });
      await probe.waitFor(() => probe.frames.some((f) => f.kind === 'audio'));
      probe.send({ type: 'Clear' });
      await probe.waitFor(() => probe.count('Cleared') === 1);
      await t.control.setPacing('vendor_e', { factor: 0 });
      probe.send({ type: 'Speak', text: 'Short.' });
      probe.send({ type: 'Flush' });
      probe.send({ type: 'Close' });
      expect((await probe.closed).code).toBe(1000);
      expect(probe.sequence()).toBe('Metadata audio* Cleared audio* Flushed');
      expect(probe.messages().find((m) => m['type'] === 'Cleared')).toEqual({
        type: 'Cleared',
        sequence_id: 1,
      });
    });

    it('reports a vendor failure as an Error and closes with 1011', async () => {
      await t.control.injectFault({ vendor: 'vendor_e', endpoint: 'ws', kind: 'error', afterBytes: 1000 });
      const probe = await v1();
      probe.send({ type: 'Speak', text: 'Something to say.' });
      probe.send({ type: 'Flush' });
      expect((await probe.closed).code).toBe(1011);
      expect(probe.audio().length).toBe(1000);
      expect(probe.messages().at(-1)).toMatchObject({ type: 'Error', code: 'NET-0000' });
    });

    it('closes on an unknown message type and on idle', async () => {
      const probe = await v1();
      probe.send({ type: 'Shout' });
      expect((await probe.closed).code).toBe(1008);
      expect(probe.messages().at(-1)).toMatchObject({ type: 'Error', code: 'MESSAGE-0000' });
      await t.control.setIdleTimeout('vendor_e', 100);
      const idle = await v1();
      expect((await idle.closed).code).toBe(1011);
      expect(idle.messages().at(-1)).toMatchObject({ type: 'Error', code: 'NET-0001' });
    });
  });

  describe('v2', () => {
    it('sends Connected, then per turn SpeechStarted, audio, Flushed and SpeechMetadata; Close gives SessionMetadata', async () => {
      const probe = await v2();
      probe.send({ type: 'Speak', text: 'Sure, let me check.' });
      probe.send({ type: 'Flush' });
      probe.send({ type: 'Speak', text: 'All done.' });
      probe.send({ type: 'Flush' });
      probe.send({ type: 'Close' });
      expect((await probe.closed).code).toBe(1000);
      expect(probe.sequence()).toBe(
        'Connected SpeechStarted audio* Flushed SpeechMetadata SpeechStarted audio* Flushed SpeechMetadata SessionMetadata',
      );
      const [connected] = probe.messages();
      expect(connected).toMatchObject({
        type: 'Connected',
        model_name: V2,
        model_uuids: [expect.any(String)],
      });
      const metadata = probe.messages().filter((m) => m['type'] === 'SpeechMetadata');
      expect(metadata[0]).toEqual({
        type: 'SpeechMetadata',
        speech_id: probe.messages()[1]?.['speech_id'],
        audio_duration_ms: Math.round(spokenMs('Sure, let me check.')),
        input_character_count: 19,
        billable_character_count: 19,
        controls_applied: { pronunciations_applied: 0, pronunciation_warnings: 0 },
      });
      expect(probe.messages().at(-1)).toEqual({
        type: 'SessionMetadata',
        total_audio_duration_ms: expect.any(Number),
        total_input_character_count: 28,
        total_billable_character_count: 28,
      });
      expect(await t.control.callCount('vendor_e', { endpoint: 'ws-v2', key: KEY })).toBe(2);
    });

    it('interrupts the turn being spoken with SpeechInterrupted, and warns when nothing is active', async () => {
      await t.control.setPacing('vendor_e', { factor: 1 });
      const probe = await v2();
      probe.send({ type: 'Interrupt' });
      await probe.waitFor(() => probe.count('Warning') === 1);
      expect(probe.messages().at(-1)).toMatchObject({ type: 'Warning', code: 'NO_ACTIVE_SPEECH' });
      probe.send({ type: 'Speak', text: 'A long answer that keeps going for a good while.' });
      probe.send({ type: 'Flush' });
      await probe.waitFor(() => probe.frames.some((f) => f.kind === 'audio'));
      probe.send({ type: 'Interrupt' });
      await probe.waitFor(() => probe.count('SpeechInterrupted') === 1);
      const interrupted = probe.messages().find((m) => m['type'] === 'SpeechInterrupted');
      expect(interrupted?.['speech_id']).toBe(
        probe.messages().find((m) => m['type'] === 'SpeechStarted')?.['speech_id'],
      );
      expect(interrupted?.['audio_played_ms']).toEqual(expect.any(Number));
      expect(probe.count('SpeechMetadata')).toBe(0);
      probe.ws.close();
    });

    it('applies Configure speed to later turns and refuses a speed off its steps', async () => {
      const probe = await v2();
      probe.send({ type: 'Configure', speed: 1.12 });
      probe.send({ type: 'Configure', speed: 1.15 });
      probe.send({ type: 'Speak', text: 'Faster now.' });
      probe.send({ type: 'Flush' });
      await probe.waitFor(() => probe.count('SpeechMetadata') === 1);
      probe.ws.close();
      expect(probe.messages().find((m) => m['type'] === 'ConfigureFailure')).toMatchObject({
        field: 'speed',
        value: 1.12,
      });
      expect(probe.messages().find((m) => m['type'] === 'ConfigureSuccess')).toEqual({
        type: 'ConfigureSuccess',
        applied: { speed: 1.15 },
      });
      expect(probe.audio().length).toBe(sampleCount(spokenMs('Faster now.', { speed: 1.15 }), 24000) * 2);
    });
  });
});
