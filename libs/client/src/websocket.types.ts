import { concatBytes } from './bytes';

/**
 * The part of the `ws` package's WebSocket the client uses, restated so the published declarations do not
 * need `@types/ws`. The default is `ws` itself; pass another constructor with the same shape (a `ws`
 * subclass with an agent, say) through `RouterClientOptions.WebSocket`.
 */

/** The HTTP response of a refused handshake (`ws`'s `unexpected-response`: a Node IncomingMessage). */
export interface HandshakeResponse extends AsyncIterable<unknown> {
  readonly statusCode?: number | undefined;
}

/** The payload of a `message` event, as `ws` gives it for each `binaryType`. */
export type WebSocketData = Uint8Array | ArrayBuffer | Uint8Array[];

export interface WebSocketLike {
  binaryType: 'nodebuffer' | 'arraybuffer' | 'fragments';
  send(data: string | Uint8Array, callback?: (error?: Error) => void): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  /** Stops reading from the socket (flow control); `resume()` starts again. */
  pause(): void;
  resume(): void;
  on(event: 'open', listener: () => void): this;
  on(event: 'message', listener: (data: WebSocketData, isBinary: boolean) => void): this;
  on(event: 'close', listener: (code: number, reason: Uint8Array) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'unexpected-response', listener: (request: unknown, response: HandshakeResponse) => void): this;
}

export type WebSocketConstructor = new (
  url: string,
  options: { headers: Record<string, string>; perMessageDeflate: boolean },
) => WebSocketLike;

const utf8 = new TextDecoder();

/** The bytes of a frame, whichever `binaryType` delivered it. */
export function frameBytes(data: WebSocketData): Uint8Array {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (Array.isArray(data)) return concatBytes(data);
  return data;
}

export function frameText(data: WebSocketData): string {
  return utf8.decode(frameBytes(data));
}
