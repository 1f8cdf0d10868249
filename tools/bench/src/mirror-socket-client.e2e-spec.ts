import { mirrorE2e } from '@router/testing';
import { MirrorSocketClient } from './mirror-socket-client';
import { onSpare } from './spare-connections';

/*
 * The load generator's vendor_a mirror sockets (`a-ws-*`) on the e2e stack, which caps every mirror socket's
 * idle time at 10 s: a socket kept between sentences that the mirror closed meanwhile must not be spoken on (a
 * send on a closed socket goes nowhere: the sentence waited its whole 15 s timeout, the benchmark's
 * "sentence timed out").
 */

const kit = mirrorE2e('vendor_a');
const { stack, newOrg, unique, calls } = kit;
const TIMEOUT_MS = 15_000;
const CONFIG = {
  target_language_code: 'en-IN',
  speaker: 'aarila',
  output_audio_codec: 'linear16',
  speech_sample_rate: 16000,
};

const url = `${stack.gatewayUrl.replace(/^http/, 'ws')}/vendor_a/text-to-speech/ws?model=a_model_1&send_completion_event=true`;

async function until(holds: () => boolean): Promise<void> {
  while (!holds()) await new Promise((resolve) => setTimeout(resolve, 100));
}

describe("the load generator's vendor_a mirror sockets (e2e)", () => {
  it('says the next sentence on a new socket once the mirror closed the kept one for idling', async () => {
    const { key, vendorKey } = await newOrg();
    const opened: MirrorSocketClient[] = [];
    const open = async (): Promise<MirrorSocketClient> => {
      const client = await MirrorSocketClient.open(url, key, CONFIG, TIMEOUT_MS);
      opened.push(client);
      return client;
    };
    const spares: MirrorSocketClient[] = [];
    const say = (text: string) =>
      onSpare(spares, open, async (client) => {
        const said = await client.say(text, TIMEOUT_MS);
        expect(said.bytes).toBeGreaterThan(0);
        return undefined;
      });
    const before = await calls(vendorKey);

    expect(await say(unique('The first sentence, on a new socket'))).toBeUndefined();
    expect(spares).toHaveLength(1);
    expect(spares[0]).toBe(opened[0]);
    // The mirror closes the kept socket after the stack's 10 s without a message.
    await until(() => !opened[0]?.usable);
    // Spoken on anyway, it is refused at once rather than waiting out the timeout.
    await expect(opened[0]?.say(unique('Never sent'), TIMEOUT_MS)).rejects.toThrow('socket closed');
    expect(await say(unique('The next sentence, after the idle close'))).toBeUndefined();
    expect(opened).toHaveLength(2);
    expect(spares).toHaveLength(1);
    expect(spares[0]).toBe(opened[1]);
    expect(await calls(vendorKey)).toBe(before + 2);
    for (const client of spares.splice(0)) client.close();
  }, 45_000);
});
