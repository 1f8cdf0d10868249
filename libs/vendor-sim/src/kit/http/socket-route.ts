import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/** What a socket route gets at the HTTP upgrade: it accepts (optionally echoing a sub-protocol) or refuses. */
export interface UpgradeContext {
  readonly req: IncomingMessage;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** A request header (case-insensitive). */
  header(name: string): string | undefined;
  /** The sub-protocols the client offered. */
  readonly protocols: readonly string[];
  accept(protocol?: string): Promise<WebSocket>;
  /** Answers the upgrade with a plain HTTP response and closes the socket. */
  refuse(status: number, body: unknown, headers?: Record<string, string>): void;
}

export interface SocketRoute {
  /** Same pattern syntax as HTTP routes. */
  readonly path: string;
  upgrade(context: UpgradeContext): void | Promise<void>;
}

export function writeUpgradeRefusal(
  socket: Duplex,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`);
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};
