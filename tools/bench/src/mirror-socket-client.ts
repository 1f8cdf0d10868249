import WebSocket from 'ws';

/**
 * One vendor_a mirror WebSocket of the load generator (`/vendor_a/text-to-speech/ws`, the vendor's own
 * protocol; ../shared/vendors/vendor_a.md): opened with the router key in the vendor's key header and its
 * `config` sent, then one sentence at a time: `text` with the whole sentence and `flush`, timed from sending
 * them to the first `audio` frame and to the `final` event.
 */
export interface SaidOnSocket {
  ttfbMs: number;
  totalMs: number;
  bytes: number;
}

type Frame = { type?: unknown; data?: { audio?: unknown; event_type?: unknown; message?: unknown } };

export class MirrorSocketClient {
  private onFrame: ((frame: Frame | null) => void) | null = null;
  usable = true;

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
    ws.on('close', () => {
      this.usable = false;
      this.onFrame?.(null);
    });
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
        ws.send(JSON.stringify({ type: 'config', data: config }));
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

  /** Says one sentence; rejects on an error frame, a close or the timeout (the socket is then unusable). */
  say(text: string, timeoutMs: number): Promise<SaidOnSocket> {
    return new Promise((resolve, reject) => {
      let first = -1;
      let bytes = 0;
      const fail = (reason: string): void => {
        clearTimeout(timer);
        this.onFrame = null;
        this.usable = false;
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
      this.ws.send(JSON.stringify({ type: 'text', data: { text } }));
      this.ws.send(JSON.stringify({ type: 'flush' }));
    });
  }

  close(): void {
    this.usable = false;
    this.ws.close();
  }
}
