import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { ForwardedResponse } from './forwarded-response';

/** A client's response whose socket takes nothing until told: `writableLength` is what it has not taken. */
class SlowClient extends EventEmitter {
  writableLength = 0;
  destroyed = false;
  headersSent = true;
  writableFinished = false;
  socket = new EventEmitter();
  write(chunk: Buffer): boolean {
    this.writableLength += chunk.length;
    return false;
  }
  take(bytes: number): void {
    this.writableLength -= bytes;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

const STALL_MS = 1_000;

function forward(client: SlowClient): { stalled: jest.Mock; paused: jest.Mock } {
  const stalled = jest.fn();
  const paused = jest.fn();
  const controller = {
    pause: paused,
    resume: jest.fn(),
    abort: jest.fn(),
  } as unknown as Dispatcher.DispatchController;
  const handler = new ForwardedResponse(client as unknown as ServerResponse, jest.fn(), jest.fn(), {
    ms: STALL_MS,
    onStalled: stalled,
  });
  handler.onRequestStart(controller);
  handler.onResponseData(controller, Buffer.alloc(64 * 1024));
  return { stalled, paused };
}

describe('ForwardedResponse stall bound', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('cuts a client that takes nothing of what waits for it for the bound', () => {
    const client = new SlowClient();
    const { stalled, paused } = forward(client);
    expect(paused).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(STALL_MS - 1);
    expect(client.destroyed).toBe(false);
    jest.advanceTimersByTime(1);
    expect(client.destroyed).toBe(true);
    expect(stalled).toHaveBeenCalledTimes(1);
  });

  it('holds a client that takes a little in every bound, without ever catching up', () => {
    const client = new SlowClient();
    const { stalled } = forward(client);
    for (let bound = 0; bound < 10; bound += 1) {
      client.take(1_024);
      jest.advanceTimersByTime(STALL_MS);
    }
    expect(client.destroyed).toBe(false);
    expect(stalled).not.toHaveBeenCalled();
    // Once it stops taking, one more whole bound cuts it.
    jest.advanceTimersByTime(STALL_MS);
    expect(client.destroyed).toBe(true);
    expect(stalled).toHaveBeenCalledTimes(1);
  });

  it('starts the bound again once the client has taken everything (drain)', () => {
    const client = new SlowClient();
    const { stalled } = forward(client);
    jest.advanceTimersByTime(STALL_MS / 2);
    client.take(client.writableLength);
    client.emit('drain');
    jest.advanceTimersByTime(STALL_MS * 5);
    expect(client.destroyed).toBe(false);
    expect(stalled).not.toHaveBeenCalled();
  });
});
