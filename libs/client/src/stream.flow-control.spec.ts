import { EventEmitter } from 'node:events';
import { RouterClient } from './index';

/** A WebSocket double: the test plays the router by emitting events; calls are recorded. */
class ScriptedSocket extends EventEmitter {
  static last: ScriptedSocket;
  binaryType = 'arraybuffer' as 'nodebuffer' | 'arraybuffer' | 'fragments';
  readonly sent: unknown[] = [];
  readonly calls: string[] = [];

  constructor(
    readonly url: string,
    readonly options: { headers: Record<string, string>; perMessageDeflate: boolean },
  ) {
    super();
    ScriptedSocket.last = this;
    setImmediate(() => this.emit('open'));
  }

  send(data: string, callback?: (error?: Error) => void): void {
    const message = JSON.parse(data);
    this.sent.push(message);
    callback?.();
    if (message.type === 'settings') {
      setImmediate(() => this.text({ type: 'ready', session_id: 's', settings: { model: message.model } }));
    }
  }

  close(code?: number): void {
    this.calls.push(`close ${code}`);
    setImmediate(() => this.emit('close', code ?? 1005, new Uint8Array()));
  }

  terminate(): void {
    this.calls.push('terminate');
  }

  pause(): void {
    this.calls.push('pause');
  }

  resume(): void {
    this.calls.push('resume');
  }

  text(message: object): void {
    this.emit('message', new TextEncoder().encode(JSON.stringify(message)), false);
  }

  frame(bytes: number): void {
    this.emit('message', new Uint8Array(bytes), true);
  }
}

describe('StreamSession flow control (scripted socket)', () => {
  const client = new RouterClient({
    baseUrl: 'https://router.invalid/base',
    apiKey: 'rtr_key',
    WebSocket: ScriptedSocket,
  });

  it('connects to wss …/v1/stream with the key, without deflate, and asks for Node buffers', async () => {
    const session = await client.stream({ model: 'vendor_b/b_model_1', voice: 'v' });
    const socket = ScriptedSocket.last;
    expect(socket.url).toBe('wss://router.invalid/base/v1/stream');
    expect(socket.options).toEqual({
      headers: { authorization: 'Bearer rtr_key' },
      perMessageDeflate: false,
    });
    expect(socket.binaryType).toBe('nodebuffer');
    session.disconnect();
  });

  it('stops reading the socket when unread audio passes the limit and resumes once it is read down', async () => {
    const session = await client.stream(
      { model: 'vendor_b/b_model_1', voice: 'v' },
      { maxBufferedBytes: 1000 },
    );
    const socket = ScriptedSocket.last;
    socket.text({ type: 'sentence_start', sentence: 0, text: 'A.', cached: false });
    socket.frame(600);
    expect(socket.calls).toEqual([]);
    socket.frame(600);
    expect(socket.calls).toEqual(['pause']);

    const events = session.events();
    await events.next(); // ready
    await events.next(); // sentence_start
    await events.next(); // 600 bytes: 600 still held, above half the limit
    expect(socket.calls).toEqual(['pause']);
    await events.next(); // nothing held
    expect(socket.calls).toEqual(['pause', 'resume']);
    session.disconnect();
  });

  it('keeps reading while a flush waits for its answer, however much is held', async () => {
    const session = await client.stream(
      { model: 'vendor_b/b_model_1', voice: 'v' },
      { maxBufferedBytes: 100 },
    );
    const socket = ScriptedSocket.last;
    socket.text({ type: 'sentence_start', sentence: 0, text: 'A.', cached: false });
    socket.frame(500);
    expect(socket.calls).toEqual(['pause']);
    const flush = session.flush('f');
    expect(socket.calls).toEqual(['pause', 'resume']);
    socket.frame(500);
    socket.text({ type: 'flushed', id: 'f', last_sentence: 0 });
    expect(await flush).toEqual({ id: 'f', lastSentence: 0, interrupted: false });
    // Nothing waits any more and 1000 bytes are unread: reading stops again.
    expect(socket.calls).toEqual(['pause', 'resume', 'pause']);
    session.disconnect();
  });
});
