import WebSocket from 'ws';

/**
 * One vendor_a mirror WebSocket of the load generator (`/vendor_a/text-to-speech/ws`, the vendor's own
 * protocol; ../shared/vendors/vendor_a.md): opened with the router key in the vendor's key header and its
 * `config` sent, then one sentence at a time: `text` with the whole sentence and `flush`, timed from sending
 * them to the first `audio` frame and to the `final` event. Kept between sentences, a socket may be closed by
 * the router while it waits (the vendor's idle limit): it is then no longer `usable`, and a sentence is never
 * sent on it (a send on a closed socket goes nowhere, and the sentence would wait for its timeout).
 */
export interface SaidOnSocket {
  ttfbMs: number;
  totalMs: number;
  bytes: number;
}

type Frame = { type?: unknown; data?: { audio?: unknown; event_type?: unknown; message?: unknown } };

/**
 * How long a kept socket may go without a message before it is retired instead of reused: vendor_a closes a
 * socket after 60 s without one, and its clients keep theirs alive every 20–30 s; one quiet longer could be
 * closed by the router just as a sentence is sent on it.
 */
const SPARE_IDLE_MS = 20_000;

export class MirrorSocketClient {
  private onFrame: ((frame: Frame | null) => void) | null = null;
  /** Closed here, or a sentence failed on it (an error frame, a close, a timeout): its state is unknown. */
  private retired = false;
  private lastSentAt = performance.now();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      let frame: Frame;
      try {
        frame = JSON.parse(data.toString('utf8')) as Frame;
      } catch {
        frame = { type: 'not-json' };
      }
      this.onFrame?.(frame);
    });
    ws.on('close', () => this.onFrame?.(null));
    // An error is followed by `close`, which is what a waiting sentence acts on.
    ws.on('error', () => undefined);
  }

  static open(url: string, routerKey: string, config: Record<string, unknown>, timeoutMs: number) {
    const ws = new WebSocket(url, { headers: { 'api-subscription-key': routerKey } });
    const client = new MirrorSocketClient(ws);
    return new Promise<MirrorSocketClient>((resolve, reject) => {
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new Error('socket open timed out'));
      }, timeoutMs);
      ws.once('open', () => {
        clearTimeout(timer);
        client.send({ type: 'config', data: config });
        resolve(client);
      });
      ws.once('unexpected-response', (_req, res) => {
        clearTimeout(timer);
        reject(new Error(`handshake ${res.statusCode ?? 'refused'}`));
      });
      ws.once('close', () => {
        clearTimeout(timer);
        reject(new Error('closed before open'));
      });
    });
  }

  /** Open, no sentence failed on it, and not quiet for so long that the router may be closing it. */
  get usable(): boolean {
    return (
      !this.retired &&
      this.ws.readyState === WebSocket.OPEN &&
      performance.now() - this.lastSentAt < SPARE_IDLE_MS
    );
  }

  /**
   * Says one sentence; rejects on an error frame, a close or the timeout (the socket is then unusable), and at
   * once on a socket that is no longer open.
   */
  say(text: string, timeoutMs: number): Promise<SaidOnSocket> {
    if (this.ws.readyState !== WebSocket.OPEN) {
      this.retired = true;
      return Promise.reject(new Error('socket closed'));
    }
    return new Promise((resolve, reject) => {
      let first = -1;
      let bytes = 0;
      const fail = (reason: string): void => {
        clearTimeout(timer);
        this.onFrame = null;
        this.retired = true;
        reject(new Error(reason));
      };
      const timer = setTimeout(() => fail('sentence timed out'), timeoutMs);
      const start = performance.now();
      this.onFrame = (frame) => {
        if (frame === null) return fail('socket closed');
        if (frame.type === 'error') return fail('error frame');
        if (frame.type === 'audio' && typeof frame.data?.audio === 'string') {
          if (first < 0) first = performance.now() - start;
          bytes += Buffer.byteLength(frame.data.audio, 'base64');
        } else if (frame.type === 'event' && frame.data?.event_type === 'final') {
          clearTimeout(timer);
          this.onFrame = null;
          if (first < 0) return reject(new Error('final without audio'));
          resolve({ ttfbMs: first, totalMs: performance.now() - start, bytes });
        }
      };
      this.send({ type: 'text', data: { text } });
      this.send({ type: 'flush' });
    });
  }

  close(): void {
    this.retired = true;
    this.ws.close();
  }

  private send(message: Record<string, unknown>): void {
    this.lastSentAt = performance.now();
    this.ws.send(JSON.stringify(message));
  }
}
