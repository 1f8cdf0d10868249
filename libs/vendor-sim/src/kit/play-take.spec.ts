import { createTake, type TakePiece } from './audio/take';
import { type FaultSpec, GARBAGE_BYTES } from './faults';
import { playTake, type StreamTarget } from './play-take';

function recorder(withEnd = true): StreamTarget & { sent: TakePiece[]; events: string[] } {
  const controller = new AbortController();
  const sent: TakePiece[] = [];
  const events: string[] = [];
  return {
    sent,
    events,
    signal: controller.signal,
    open: () => events.push('open'),
    send: async (piece) => {
      sent.push(piece);
      events.push('send');
    },
    fail: (_fault, started) => {
      events.push(`fail:${started}`);
    },
    cut: () => {
      events.push('cut');
      controller.abort();
    },
    ...(withEnd
      ? {
          end: (partial: TakePiece | undefined, garbage?: Buffer) => {
            events.push(
              `end:${partial?.bytes.length ?? 'none'}${garbage ? `+garbage:${garbage.length}` : ''}`,
            );
          },
        }
      : {}),
  };
}

const pacing = { ttfaMs: 0, factor: 0, chunkMs: 100 };
const take = createTake('x'.repeat(20), { codec: 'pcm', sampleRate: 8000 });

describe('playTake', () => {
  it('sends every byte after opening', async () => {
    const target = recorder();
    expect(await playTake(take, target, pacing)).toBe('done');
    expect(target.events[0]).toBe('open');
    expect(Buffer.concat(target.sent.map((p) => p.bytes)).equals(take.bytes)).toBe(true);
  });

  it('fails before opening for an error with no afterBytes', async () => {
    const target = recorder();
    expect(await playTake(take, target, pacing, { vendor: 'v', kind: 'error' })).toBe('failed');
    expect(target.events).toEqual(['fail:false']);
  });

  it('sends exactly afterBytes, then applies the fault', async () => {
    const fault: FaultSpec = { vendor: 'v', kind: 'cut', afterBytes: 1234 };
    const target = recorder();
    expect(await playTake(take, target, pacing, fault)).toBe('cut');
    expect(Buffer.concat(target.sent.map((p) => p.bytes)).length).toBe(1234);
    expect(target.events.at(-1)).toBe('cut');
  });

  it('applies a fault beyond the take after all its audio', async () => {
    const target = recorder();
    expect(await playTake(take, target, pacing, { vendor: 'v', kind: 'error', afterBytes: 10_000_000 })).toBe(
      'failed',
    );
    expect(Buffer.concat(target.sent.map((p) => p.bytes)).length).toBe(take.bytes.length);
    expect(target.events.at(-1)).toBe('fail:true');
  });

  it('resumes after a mid-stream stall', async () => {
    const target = recorder();
    const started = Date.now();
    expect(
      await playTake(take, target, pacing, { vendor: 'v', kind: 'stall', stallMs: 60, afterBytes: 100 }),
    ).toBe('done');
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(Buffer.concat(target.sent.map((p) => p.bytes)).equals(take.bytes)).toBe(true);
  });

  it('ends the body after afterBytes with the rest of that piece, for the target to send in part', async () => {
    const target = recorder();
    const fault: FaultSpec = { vendor: 'v', kind: 'end', afterBytes: 1234 };
    expect(await playTake(take, target, pacing, fault)).toBe('ended');
    expect(Buffer.concat(target.sent.map((p) => p.bytes)).length).toBe(1234);
    // Pieces of 100 ms at 8 kHz, 16 bits: 1600 bytes, so the fault falls 1234 bytes into the first.
    expect(target.events.at(-1)).toBe(`end:${1600 - 1234}`);
  });

  it('ends an opened, empty body for an end fault with no afterBytes, and cuts where there is no body to end', async () => {
    const opened = recorder();
    expect(await playTake(take, opened, pacing, { vendor: 'v', kind: 'end' })).toBe('ended');
    expect(opened.events).toEqual(['open', 'end:none']);
    const socket = recorder(false);
    expect(await playTake(take, socket, pacing, { vendor: 'v', kind: 'end', afterBytes: 100 })).toBe('cut');
    expect(socket.events.at(-1)).toBe('cut');
  });

  it('goes on with garbage after afterBytes and ends the body (an odd count: no whole 16-bit samples)', async () => {
    const target = recorder();
    expect(await playTake(take, target, pacing, { vendor: 'v', kind: 'garbage', afterBytes: 1000 })).toBe(
      'ended',
    );
    expect(Buffer.concat(target.sent.map((p) => p.bytes)).length).toBe(1000);
    expect(target.events.at(-1)).toBe(`end:none+garbage:${GARBAGE_BYTES.length}`);
    expect(GARBAGE_BYTES.length % 2).toBe(1);
    const socket = recorder(false);
    expect(await playTake(take, socket, pacing, { vendor: 'v', kind: 'garbage' })).toBe('cut');
  });

  it('trickles the pieces from afterBytes on, and still sends the whole take', async () => {
    const target = recorder();
    const fault: FaultSpec = { vendor: 'v', kind: 'trickle', trickleMs: 5, afterBytes: 1 };
    expect(await playTake(take, target, pacing, fault)).toBe('done');
    expect(target.sent.length).toBeGreaterThan(2);
    expect(Buffer.concat(target.sent.map((p) => p.bytes)).equals(take.bytes)).toBe(true);
  });
});
