import { readTakeId } from '../kit/audio/read-take-id';
import { sampleCount } from '../kit/audio/sample-source';
import { spokenMs } from '../kit/audio/take';
import { joinAudio, openProbe, useTestSim, type Message } from '../test/sim-harness';

const KEY = 'h-key-ws';
const SETTINGS = { voice_id: 'h1_voice_f2', model: 'h_model_1', sample_rate: 16000 };

const audioOf = (m: Message): string | undefined =>
  m['status'] === 'chunk' ? ((m['data'] as { audio?: string }).audio ?? undefined) : undefined;
const complete = (m: Message) => m['status'] === 'complete';

describe('vendor_h simulator over its WebSocket', () => {
  const t = useTestSim();
  const open = (query = '', key = KEY) =>
    openProbe(`${t.wsBase('vendor_h')}/waves/v1/tts/live${query}`, {
      headers: { authorization: `Bearer ${key}` },
    });

  it('refuses a wrong key at the handshake with 401 {error}', async () => {
    await expect(open('', 'bad-key')).rejects.toMatchObject({
      status: 401,
      body: '{"error":"unauthorized"}',
    });
    await expect(open('?timeout=500')).rejects.toMatchObject({ status: 400 });
  });

  it('buffers while continue is true, speaks on flush and at the last message, then one complete', async () => {
    const probe = await open();
    probe.send({ ...SETTINGS, text: 'Hello ', continue: true });
    probe.send({ ...SETTINGS, text: 'there.', continue: true, flush: true });
    probe.send({ ...SETTINGS, text: ' Bye now.', continue: false, request_id: 'ext-1' });
    const messages = await probe.waitFor(complete);
    const chunks = messages.filter((m) => m['status'] === 'chunk');
    expect(chunks[0]).toMatchObject({ request_id: 'req_1', data: { audio: expect.any(String) } });
    const audio = joinAudio(messages, audioOf);
    expect(audio.length).toBe(
      (sampleCount(spokenMs('Hello there.'), 16000) + sampleCount(spokenMs(' Bye now.'), 16000)) * 2,
    );
    expect(messages.filter(complete)).toHaveLength(1);
    const calls = await t.control.calls('vendor_h', { key: KEY, endpoint: 'ws' });
    expect(calls.map((c) => c.chars)).toEqual([12, 9]);
    expect(readTakeId(audio, 'pcm')).toBe(calls[0]?.takeId);
    probe.close();
  });

  it('sends word timestamps when asked, counted from the start of the turn', async () => {
    const probe = await open();
    probe.send({ ...SETTINGS, text: 'One two.', word_timestamps: true, flush: true, continue: true });
    probe.send({ ...SETTINGS, text: 'Three.', word_timestamps: true });
    const words = (await probe.waitFor(complete))
      .filter((m) => m['status'] === 'word_timestamp')
      .map((m) => m['data'] as { id: number; word: string; start: number; end: number });
    expect(words.map((w) => [w.id, w.word])).toEqual([
      [0, 'One'],
      [1, 'two.'],
      [2, 'Three.'],
    ]);
    expect(words[2]?.start).toBeCloseTo(spokenMs('One two.') / 1000, 3);
    probe.close();
  });

  it('keeps contexts apart, closes one with context_close, and answers ping with pong', async () => {
    const probe = await open();
    probe.send({ type: 'ping' });
    probe.send({ ...SETTINGS, text: 'First context.', context_id: 'c1', continue: true });
    probe.send({ ...SETTINGS, text: 'Second context.', context_id: 'c2', continue: false });
    probe.send({ context_id: 'c1', context_close: true });
    await probe.waitFor((m) => complete(m) && m['context_id'] === 'c1');
    await probe.waitFor((m) => complete(m) && m['context_id'] === 'c2');
    expect(probe.messages[0]).toEqual({ type: 'pong' });
    const c1 = probe.messages.filter((m) => m['context_id'] === 'c1');
    expect(joinAudio(c1, audioOf).length).toBe(sampleCount(spokenMs('First context.'), 16000) * 2);
    expect(new Set(probe.messages.filter(complete).map((m) => m['request_id'])).size).toBe(2);
    probe.close();
  });

  it('skips text with no letter or digit and reports bad settings as an error, staying open', async () => {
    const probe = await open();
    probe.send({ ...SETTINGS, text: '... !' });
    probe.send({ ...SETTINGS, voice_id: 'nobody', text: 'Hi.' });
    await probe.waitFor((m) => m['status'] === 'error');
    await probe.waitFor(complete);
    expect(probe.messages.some((m) => m['status'] === 'chunk')).toBe(false);
    probe.send({ ...SETTINGS, text: 'Still here.' });
    await probe.waitFor((m) => m['status'] === 'chunk');
    expect(await t.control.callCount('vendor_h', { key: KEY })).toBe(1);
    probe.close();
  });

  it('drops the rest of a request after an injected error, without complete', async () => {
    await t.control.injectFault({
      vendor: 'vendor_h',
      kind: 'error',
      status: 500,
      afterBytes: 2000,
      message: 'boom',
    });
    const probe = await open();
    probe.send({ ...SETTINGS, text: 'A first sentence here.', flush: true, continue: true });
    probe.send({ ...SETTINGS, text: 'A second one.', continue: false });
    const messages = await probe.waitFor((m) => m['status'] === 'error');
    expect(messages.find((m) => m['status'] === 'error')).toMatchObject({
      message: 'boom',
      request_id: 'req_1',
    });
    probe.send({ type: 'ping' });
    await probe.waitFor((m) => m['type'] === 'pong');
    expect(probe.messages.some(complete)).toBe(false);
    expect(await t.control.callCount('vendor_h', { key: KEY })).toBe(1);
    probe.close();
  });

  it('stops the audio of a cancelled request', async () => {
    await t.control.setPacing('vendor_h', { factor: 1 });
    const probe = await open();
    probe.send({ ...SETTINGS, text: 'A long enough sentence to be cancelled midway.', context_id: 'x' });
    await probe.waitFor((m) => m['status'] === 'chunk');
    probe.send({ context_id: 'x', cancel_request: true });
    const sent = probe.messages.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(probe.messages.length - sent).toBeLessThanOrEqual(1);
    expect(probe.messages.some(complete)).toBe(false);
    probe.close();
  });

  it('times out an idle connection with the vendor error, then closes', async () => {
    await t.control.setIdleTimeout('vendor_h', 100);
    const probe = await open();
    await probe.closed;
    expect(probe.messages).toEqual([
      { status: 'error', message: 'Connection timed out after 0 seconds of inactivity' },
    ]);
  });
});
