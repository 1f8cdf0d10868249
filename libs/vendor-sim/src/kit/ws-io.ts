import { WebSocket, type RawData } from 'ws';

/** Sends one message and resolves once it is handed to the socket, so a slow reader slows the stream. */
export function sendMessage(ws: WebSocket, data: string | Buffer): Promise<void> {
  if (ws.readyState !== WebSocket.OPEN) return Promise.resolve();
  return new Promise((resolve) => ws.send(data, () => resolve()));
}

export function sendJsonMessage(ws: WebSocket, message: unknown): Promise<void> {
  return sendMessage(ws, JSON.stringify(message));
}

/** Aborted when the socket closes, so takes playing into it stop. */
export function socketSignal(ws: WebSocket): AbortSignal {
  const controller = new AbortController();
  ws.once('close', () => controller.abort());
  return controller.signal;
}

/** Parses a text frame as a JSON object; undefined for binary frames, bad JSON or non-objects. */
export function parseJsonObject(data: RawData, isBinary: boolean): Record<string, unknown> | undefined {
  if (isBinary) return undefined;
  const text = Array.isArray(data)
    ? Buffer.concat(data).toString('utf8')
    : Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Buffer.from(new Uint8Array(data)).toString('utf8');
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Closes a socket after `timeoutMs` without a client message; `touch()` on every message restarts it.
 */
export class IdleTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly onIdle: () => void,
  ) {
    this.touch();
  }

  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.onIdle, this.timeoutMs);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/** Runs jobs one after another (a socket's takes are spoken in order). */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly onError: (error: unknown) => void) {}

  push(job: () => Promise<void>): Promise<void> {
    this.tail = this.tail.then(job).catch(this.onError);
    return this.tail;
  }
}
