import { readTakeId } from '../kit/audio/read-take-id';
import { sampleCount } from '../kit/audio/sample-source';
import { spokenMs } from '../kit/audio/take';
import { joinAudio, openProbe, useTestSim, type Message } from '../test/sim-harness';

const KEY = 'g-key-ws';
const TEXT = 'Each sentence is a stream of its own.';

function config(streamId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    api_key: KEY,
    stream_id: streamId,
    model: 'g_model_3',
    language: 'en',
    voice: 'Tobin',
    audio_format: 'pcm_s16le',
    sample_rate: 24000,
    ...extra,
  };
}

const of = (id: string) => (m: Message) => m['stream_id'] === id;
const terminated = (id: string) => (m: Message) => m['stream_id'] === id && m['terminated'] === true;

describe('vendor_g simulator over its WebSocket', () => {
  const t = useTestSim();
  const open = () => openProbe(`${t.wsBase('vendor_g')}/tts-websocket`);

  it('speaks one stream: audio, an audio_end message, then terminated', async () => {
    const probe = await open();
    probe.send(config('s1'));
    probe.send({ stream_id: 's1', text: TEXT.slice(0, 10), text_end: false });
    probe.send({ stream_id: 's1', text: TEXT.slice(10), text_end: true });
    const messages = (await probe.waitFor(terminated('s1'))).filter(of('s1'));
    const audio = joinAudio(messages, (m) => m['audio'] as string | undefined);
    expect(audio.length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
    const end = messages.findIndex((m) => m['audio_end'] === true);
    expect(end).toBe(messages.length - 2);
    expect(messages.at(-1)).toEqual({ stream_id: 's1', terminated: true });
    const [record] = await t.control.calls('vendor_g', { key: KEY, endpoint: 'ws' });
    expect(readTakeId(audio, 'pcm')).toBe(record?.takeId);
    probe.close();
  });

  it('multiplexes streams, each a take of its own, and lets an id be reused once terminated', async () => {
    const probe = await open();
    for (const id of ['a', 'b']) {
      probe.send(config(id));
      probe.send({ stream_id: id, text: `${TEXT} (${id})`, text_end: true });
    }
    const all = await probe.waitFor(terminated('a')).then(() => probe.waitFor(terminated('b')));
    const a = joinAudio(all.filter(of('a')), (m) => m['audio'] as string | undefined);
    const b = joinAudio(all.filter(of('b')), (m) => m['audio'] as string | undefined);
    expect(readTakeId(a, 'pcm')).not.toBe(readTakeId(b, 'pcm'));
    probe.send(config('a'));
    probe.send({ stream_id: 'a', text: 'Again.', text_end: true });
    await probe.waitFor((m) => terminated('a')(m) && probe.messages.filter(terminated('a')).length === 2);
    expect(await t.control.callCount('vendor_g', { key: KEY, endpoint: 'ws' })).toBe(3);
    probe.close();
  });

  it('reports a bad key, bad settings and a sixth stream as stream errors and keeps the socket open', async () => {
    const probe = await open();
    probe.send(config('k', { api_key: 'bad-key' }));
    probe.send(config('v', { speed: 2 }));
    await probe.waitFor(terminated('v'));
    expect(probe.messages.find((m) => m['stream_id'] === 'k' && 'error_code' in m)).toMatchObject({
      error_code: 401,
    });
    expect(probe.messages.find((m) => m['stream_id'] === 'v' && 'error_code' in m)).toMatchObject({
      error_code: 400,
      error_message: expect.stringContaining('speed'),
    });
    for (const id of ['1', '2', '3', '4', '5', '6']) probe.send(config(id));
    await probe.waitFor(terminated('6'));
    expect(probe.messages.find((m) => m['stream_id'] === '6' && 'error_code' in m)).toMatchObject({
      error_code: 429,
    });
    probe.send({ stream_id: '1', text: 'Still open.', text_end: true });
    await probe.waitFor(terminated('1'));
    expect(probe.messages.filter(of('1')).some((m) => m['audio_end'] === true)).toBe(true);
    probe.close();
  });

  it('sends character timestamps when asked', async () => {
    const probe = await open();
    probe.send(config('ts', { return_timestamps: true }));
    probe.send({ stream_id: 'ts', text: 'Hi there.', text_end: true });
    const messages = (await probe.waitFor(terminated('ts'))).filter((m) => m['timestamps'] !== undefined);
    const chars = messages.flatMap((m) => (m['timestamps'] as { characters: string[] }).characters);
    expect(chars.join('')).toBe('Hi there.');
    probe.close();
  });

  it('stops a cancelled stream with terminated and ignores keep-alives', async () => {
    await t.control.setPacing('vendor_g', { factor: 1 });
    const probe = await open();
    probe.send({ keep_alive: true });
    probe.send(config('c'));
    probe.send({ stream_id: 'c', text: TEXT, text_end: true });
    await probe.waitFor((m) => of('c')(m) && typeof m['audio'] === 'string');
    probe.send({ stream_id: 'c', cancel: true });
    const messages = (await probe.waitFor(terminated('c'))).filter(of('c'));
    expect(messages.some((m) => m['audio_end'] === true)).toBe(false);
    expect(probe.messages.some((m) => 'error_code' in m)).toBe(false);
    probe.close();
  });

  it('turns an injected error into error_code/error_message then terminated, after the audio so far', async () => {
    await t.control.injectFault({
      vendor: 'vendor_g',
      kind: 'error',
      status: 503,
      afterBytes: 3000,
      message: 'busy',
    });
    const probe = await open();
    probe.send(config('f'));
    probe.send({ stream_id: 'f', text: TEXT, text_end: true });
    const messages = (await probe.waitFor(terminated('f'))).filter(of('f'));
    expect(joinAudio(messages, (m) => m['audio'] as string | undefined).length).toBe(3000);
    expect(messages.at(-2)).toEqual({ stream_id: 'f', error_code: 503, error_message: 'busy' });
    probe.close();
  });

  it('closes an idle connection', async () => {
    await t.control.setIdleTimeout('vendor_g', 100);
    const probe = await open();
    expect((await probe.closed).code).toBe(1000);
  });
});
