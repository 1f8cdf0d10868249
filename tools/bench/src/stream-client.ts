import WebSocket from 'ws';
import { llmDeltas } from './load-plan';

/**
 * One `/v1/stream` connection of the load generator (docs/stream-protocol.md): opened with the router key,
 * settings sent and `ready` received, then replies one at a time.
 */

type StreamEvent =
  | { kind: 'message'; message: Record<string, unknown> }
  | { kind: 'audio'; bytes: number; at: number }
  | { kind: 'pong' }
  | { kind: 'closed'; code: number };

export interface Spoken {
  /** From sending the delta that ends the sentence to the first audio frame (ms). */
  ttfbMs: number;
  /** From the same moment to `sentence_end` (ms). */
  totalMs: number;
  bytes: number;
  cached: boolean;
}

export class StreamClient {
  private watcher: ((event: StreamEvent) => void) | null = null;
  private closedWith: number | null = null;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) {
        this.emit({ kind: 'audio', bytes: data.length, at: performance.now() });
        return;
      }
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
      } catch {
        message = { type: 'not-json' };
      }
      this.emit({ kind: 'message', message });
    });
    ws.on('pong', () => this.emit({ kind: 'pong' }));
    ws.on('close', (code: number) => {
      this.closedWith = code;
      this.emit({ kind: 'closed', code });
    });
    // A socket error is followed by `close`, which is what the waiters act on.
    ws.on('error', () => undefined);
  }

  /** Opens a connection and sends `settings`; resolves once the router answered `ready`. */
  static async open(
    url: string,
    routerKey: string,
    settings: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<StreamClient> {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${routerKey}` } });
    const client = new StreamClient(ws);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('handshake timeout')), timeoutMs);
        ws.once('open', () => {
          clearTimeout(timer);
          resolve();
        });
        ws.once('unexpected-response', (_req, res) => {
          clearTimeout(timer);
          reject(new Error(`handshake ${res.statusCode ?? '?'}`));
        });
        ws.once('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      });
      const answer = client.until(
        (e) => (e.kind === 'message' ? answerTo('ready', e.message) : undefined),
        'ready',
        timeoutMs,
      );
      client.send({ type: 'settings', ...settings });
      await answer;
      return client;
    } catch (error) {
      ws.terminate();
      throw error;
    }
  }

  /** Still open, and not left in an unknown state by a reply that timed out. */
  get usable(): boolean {
    return this.closedWith === null && this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * Says one sentence as an LLM streams it (load-plan `llmDeltas`): the words first, then, once the router has
   * had them (a ping answered after them), the stop and the next token, timed from sending the stop. After
   * the sentence's `sentence_end`, an `interrupt` drops the held next token so the connection is ready for
   * the next reply. Throws with a short reason on an `error` message, a close or a timeout.
   */
  async speak(text: string, timeoutMs: number): Promise<Spoken> {
    const deltas = llmDeltas(text);
    for (const delta of deltas.before) this.send({ type: 'text', text: delta });
    const pong = this.until((e) => (e.kind === 'pong' ? true : undefined), 'pong', timeoutMs);
    this.ws.ping();
    await pong;
    let start = 0;
    let first = -1;
    let bytes = 0;
    let cached: boolean | undefined;
    const sentence = this.until<Spoken>(
      (e) => {
        if (e.kind === 'audio') {
          if (first < 0) first = e.at - start;
          bytes += e.bytes;
          return undefined;
        }
        if (e.kind !== 'message') return undefined;
        const { message } = e;
        if (message['type'] === 'sentence_start') cached = message['cached'] === true;
        if (message['type'] === 'error') throw new Error(`error ${errorCode(message)}`);
        if (message['type'] !== 'sentence_end') return undefined;
        if (first < 0 || cached === undefined) throw new Error('sentence without audio');
        return { ttfbMs: first, totalMs: performance.now() - start, bytes, cached };
      },
      'sentence_end',
      timeoutMs,
    );
    start = performance.now();
    this.send({ type: 'text', text: deltas.end });
    this.send({ type: 'text', text: deltas.next });
    try {
      return await sentence;
    } finally {
      if (this.usable) {
        const interrupted = this.until(
          (e) => (e.kind === 'message' ? answerTo('interrupted', e.message) : undefined),
          'interrupted',
          timeoutMs,
        );
        this.send({ type: 'interrupt' });
        await interrupted.catch(() => this.ws.terminate());
      }
    }
  }

  close(): Promise<void> {
    if (this.closedWith !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.ws.terminate();
        resolve();
      }, 5000);
      this.ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      this.ws.close(1000);
    });
  }

  private send(message: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(message));
  }

  private emit(event: StreamEvent): void {
    this.watcher?.(event);
  }

  /**
   * Resolves with the first value `step` returns for an event; rejects when `step` throws, the socket closes
   * or `timeoutMs` passes (the connection is then terminated: its state is unknown).
   */
  private until<T>(step: (event: StreamEvent) => T | undefined, what: string, timeoutMs: number): Promise<T> {
    if (this.closedWith !== null) return Promise.reject(new Error(`closed ${this.closedWith}`));
    return new Promise<T>((resolve, reject) => {
      const finish = (error: Error | null, value?: T): void => {
        clearTimeout(timer);
        this.watcher = null;
        if (error) reject(error);
        else resolve(value as T);
      };
      const timer = setTimeout(() => {
        this.ws.terminate();
        finish(new Error(`timeout waiting for ${what}`));
      }, timeoutMs);
      this.watcher = (event) => {
        if (event.kind === 'closed') return finish(new Error(`closed ${event.code}`));
        try {
          const value = step(event);
          if (value !== undefined) finish(null, value);
        } catch (error) {
          finish(error instanceof Error ? error : new Error(String(error)));
        }
      };
    });
  }
}

/** `true` for a message of type `type`; an `error` message instead rejects with its code. */
function answerTo(type: string, message: Record<string, unknown>): true | undefined {
  if (message['type'] === 'error') throw new Error(`error ${errorCode(message)}`);
  return message['type'] === type ? true : undefined;
}

function errorCode(message: Record<string, unknown>): string {
  const error = message['error'];
  return error !== null && typeof error === 'object' && 'code' in error ? String(error.code) : 'unknown';
}
