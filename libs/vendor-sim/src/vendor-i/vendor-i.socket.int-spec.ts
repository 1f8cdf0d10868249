import { readTakeId } from '../kit/audio/read-take-id';
import { sampleCount } from '../kit/audio/sample-source';
import { spokenMs } from '../kit/audio/take';
import { joinAudio, openProbe, useTestSim, type Message, type RefusedUpgrade } from '../test/sim-harness';
import { VENDOR_I_VOICES } from './vendor-i.voices';

const KEY = 'i-key-ws';
const VERSION = '2026-08-14';
const VOICE = VENDOR_I_VOICES[1]?.id ?? '';
const SETTINGS = {
  model_id: 'i_model_1',
  voice: { mode: 'id', id: VOICE },
  output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
  language: 'en',
};

const of = (context: string) => (m: Message) => m['context_id'] === context;
const audio = (messages: readonly Message[]): Buffer =>
  joinAudio(
    messages.filter((m) => m['type'] === 'chunk'),
    (m) => m['data'] as string,
  );

describe('vendor_i simulator WebSocket', () => {
  const t = useTestSim();
  const url = (query = `api_key=${KEY}&vendor_i_version=${VERSION}`) =>
    `${t.wsBase('vendor_i')}/tts/websocket?${query}`;

  it('refuses a wrong key at the handshake with 401 and a missing version with 400', async () => {
    const wrong = await openProbe(url(`api_key=bad-key&vendor_i_version=${VERSION}`)).catch(
      (e: RefusedUpgrade) => e,
    );
    expect(wrong).toMatchObject({ status: 401 });
    expect(JSON.parse((wrong as RefusedUpgrade).body)).toMatchObject({
      error_code: 'invalid_api_key',
      title: 'Unauthorized',
    });
    const header = await openProbe(url(`vendor_i_version=${VERSION}`), {
      headers: { 'X-API-Key': 'bad' },
    }).catch((e: RefusedUpgrade) => e);
    expect(header).toMatchObject({ status: 401 });
    const noVersion = await openProbe(url(`api_key=${KEY}`)).catch((e: RefusedUpgrade) => e);
    expect(noVersion).toMatchObject({ status: 400 });
  });

  it('speaks a one-message context with timestamps, then one done', async () => {
    const probe = await openProbe(url());
    const text = 'One whole sentence at once.';
    probe.send({ ...SETTINGS, transcript: text, context_id: 'c1', add_timestamps: true });
    const messages = (await probe.waitFor((m) => m['type'] === 'done')).filter(of('c1'));
    expect(messages.filter((m) => m['type'] === 'done')).toEqual([
      { type: 'done', done: true, status_code: 200, context_id: 'c1' },
    ]);
    expect(audio(messages).length).toBe(sampleCount(spokenMs(text), 16000) * 2);
    const words = messages
      .filter((m) => m['type'] === 'timestamps')
      .flatMap((m) => (m['word_timestamps'] as { words: string[] }).words);
    expect(words).toEqual(text.split(' '));
    const [record] = await t.control.calls('vendor_i', { key: KEY, endpoint: 'ws' });
    expect(readTakeId(audio(messages), 'pcm')).toBe(record?.takeId);
    probe.close();
  });

  it('multiplexes contexts, acknowledges flushes with rising flush ids and runs timestamps on', async () => {
    const probe = await openProbe(url());
    probe.send({
      ...SETTINGS,
      transcript: 'First part, ',
      context_id: 'a',
      continue: true,
      add_timestamps: true,
    });
    probe.send({ ...SETTINGS, transcript: 'other context.', context_id: 'b', continue: false });
    probe.send({
      ...SETTINGS,
      transcript: 'then more.',
      context_id: 'a',
      continue: true,
      flush: true,
      add_timestamps: true,
    });
    await probe.waitFor((m) => m['type'] === 'flush_done' && m['context_id'] === 'a');
    probe.send({
      ...SETTINGS,
      transcript: 'Last bit.',
      context_id: 'a',
      continue: true,
      flush: true,
      add_timestamps: true,
    });
    probe.send({ ...SETTINGS, transcript: '', context_id: 'a', continue: false });
    const all = await probe.waitFor((m) => m['type'] === 'done' && m['context_id'] === 'a');
    await probe.waitFor((m) => m['type'] === 'done' && m['context_id'] === 'b');
    const a = all.filter(of('a'));
    expect(a.filter((m) => m['type'] === 'flush_done').map((m) => m['flush_id'])).toEqual([1, 2]);
    expect(
      a.filter((m) => m['type'] === 'chunk').every((m) => m['flush_id'] === 1 || m['flush_id'] === 2),
    ).toBe(true);
    const starts = a
      .filter((m) => m['type'] === 'timestamps')
      .flatMap((m) => (m['word_timestamps'] as { start: number[] }).start);
    expect(starts.at(-1)).toBeGreaterThan(spokenMs('First part, then more.') / 1000 - 0.01);
    expect(audio(a).length).toBe(
      (sampleCount(spokenMs('First part, then more.'), 16000) + sampleCount(spokenMs('Last bit.'), 16000)) *
        2,
    );
    expect(await t.control.callCount('vendor_i', { endpoint: 'ws' })).toBe(3);
    probe.close();
  });

  it('speaks buffered text after max_buffer_delay_ms without more text', async () => {
    const probe = await openProbe(url());
    probe.send({
      ...SETTINGS,
      transcript: 'Waiting text.',
      context_id: 'w',
      continue: true,
      max_buffer_delay_ms: 50,
    });
    const messages = await probe.waitFor((m) => m['type'] === 'chunk');
    expect(messages.some((m) => m['type'] === 'done')).toBe(false);
    probe.close();
  });

  it('sends errors as frames for their context and keeps the socket open', async () => {
    const probe = await openProbe(url());
    probe.send({ ...SETTINGS, voice: { mode: 'id', id: 'nope' }, transcript: 'Hi.', context_id: 'x' });
    const [error] = (await probe.waitFor((m) => m['type'] === 'error')).filter((m) => m['type'] === 'error');
    expect(error).toMatchObject({ context_id: 'x', status_code: 404, title: 'Invalid voice' });
    await t.control.injectFault({
      vendor: 'vendor_i',
      endpoint: 'ws',
      kind: 'error',
      status: 500,
      afterBytes: 1000,
    });
    probe.send({ ...SETTINGS, transcript: 'This one fails midway through.', context_id: 'y' });
    const failed = (await probe.waitFor((m) => m['type'] === 'error' && m['context_id'] === 'y')).filter(
      of('y'),
    );
    expect(audio(failed).length).toBe(1000);
    probe.send({ ...SETTINGS, transcript: 'Still open.', context_id: 'z' });
    await probe.waitFor((m) => m['type'] === 'done' && m['context_id'] === 'z');
    probe.close();
  });

  it('stops a cancelled context', async () => {
    await t.control.setPacing('vendor_i', { factor: 1 });
    const probe = await openProbe(url());
    probe.send({
      ...SETTINGS,
      transcript: 'A long sentence that takes a while to speak out.',
      context_id: 'k',
    });
    await probe.waitFor((m) => m['type'] === 'chunk');
    probe.send({ context_id: 'k', cancel: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const count = probe.messages.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(probe.messages.length).toBe(count);
    expect(probe.messages.some((m) => m['type'] === 'done')).toBe(false);
    probe.close();
  });

  it('closes an idle socket after the idle timeout', async () => {
    await t.control.setIdleTimeout('vendor_i', 100);
    const probe = await openProbe(url());
    expect((await probe.closed).code).toBe(1000);
  });
});
