const HEAD_END = '\r\n\r\n';
/** An app's handshake answer is a few hundred bytes; one that grows past this goes on unread. */
const MAX_HEAD_BYTES = 16 * 1024;

/**
 * An app's answer to a spliced handshake, held until its blank line so that it can name the sub-protocol the
 * client offered its key in: the app never saw that protocol (the gateway took it off the request), and a
 * client that offered protocols drops a socket whose answer names none of them (RFC 6455 4.1). An answer
 * that names one already (the app chose one of the client's other protocols) or is no 101 goes on as it came.
 */
export class HandshakeAnswer {
  private held: Buffer = Buffer.alloc(0);

  constructor(private readonly protocol: string) {}

  /**
   * Takes the app's next bytes. Returns what to pass on once the answer's head is whole (the head, naming the
   * protocol, and the bytes after it), or undefined while the head is still coming.
   */
  read(chunk: Buffer): Buffer | undefined {
    const bytes = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    const end = bytes.indexOf(HEAD_END);
    if (end < 0) {
      if (bytes.length >= MAX_HEAD_BYTES) return bytes;
      this.held = bytes;
      return undefined;
    }
    this.held = Buffer.alloc(0);
    const head = answerNaming(bytes.toString('latin1', 0, end), this.protocol);
    return Buffer.concat([Buffer.from(head, 'latin1'), bytes.subarray(end)]);
  }
}

/** A handshake answer's head (without its blank line) naming `protocol`, unless it is no 101 or names one. */
export function answerNaming(head: string, protocol: string): string {
  if (!/^HTTP\/1\.1 101 /.test(head) || /\r\nsec-websocket-protocol\s*:/i.test(head)) return head;
  return `${head}\r\nSec-WebSocket-Protocol: ${protocol}`;
}
