import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Refusal } from './surface-routes';

/** How long the body of a refused upgrade may take to arrive before the connection is cut. */
const BODY_BOUND_MS = 10_000;

/**
 * Answers an upgrade request the gateway refuses as a plain HTTP answer, leaving the connection usable: the
 * request's declared body (at most `maxBodyBytes`) is read past, the refusal written without closing, and the
 * socket handed back to the HTTP server (`reserve`), which reads the next request pipelined behind it. Node
 * stops parsing a connection at an upgrade and gives it away whole, so a refusal that closed it would drop a
 * request that was already on its way. A body the gateway cannot read past (chunked, over the limit, or a
 * request that asked to close) is refused with the connection closed.
 */
export function refuseUpgradeKeepingConnection(
  req: IncomingMessage,
  socket: Socket,
  head: Buffer,
  refusal: Refusal,
  maxBodyBytes: number,
  reserve: (socket: Socket) => void,
): void {
  const declared = req.headers['content-length'] === undefined ? 0 : Number(req.headers['content-length']);
  const readable =
    req.headers['transfer-encoding'] === undefined &&
    Number.isSafeInteger(declared) &&
    declared >= 0 &&
    declared <= maxBodyBytes &&
    req.httpVersion === '1.1' &&
    !/(^|,)\s*close\s*(,|$)/i.test(req.headers.connection ?? '');
  if (!readable) return writeRawAnswer(socket, refusal, true);
  let left = declared;
  const bound = setTimeout(() => socket.destroy(), BODY_BOUND_MS).unref();
  const passed = (rest: Buffer): void => {
    clearTimeout(bound);
    socket.removeListener('data', take);
    writeRawAnswer(socket, refusal, false);
    reserve(socket);
    // The server reads the socket's stream from here on; what came after the body is its next request.
    if (rest.length > 0) socket.emit('data', rest);
    socket.resume();
  };
  const take = (chunk: Buffer): void => {
    if (chunk.length < left) {
      left -= chunk.length;
      return;
    }
    const rest = chunk.subarray(left);
    left = 0;
    passed(rest);
  };
  if (head.length >= left) return passed(head.subarray(left));
  left -= head.length;
  socket.on('data', take);
  socket.resume();
}

/** An HTTP answer written on a connection taken over at an upgrade; `close` ends the connection after it. */
export function writeRawAnswer(socket: Socket, refusal: Refusal, close: boolean): void {
  const headers = {
    ...refusal.headers,
    'content-length': String(refusal.body.length),
    connection: close ? 'close' : 'keep-alive',
  };
  const head = [`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}`]
    .concat(Object.entries(headers).map(([name, value]) => `${name}: ${value}`))
    .join('\r\n');
  const bytes = Buffer.concat([Buffer.from(`${head}\r\n\r\n`), refusal.body]);
  if (close) socket.end(bytes);
  else socket.write(bytes);
}
