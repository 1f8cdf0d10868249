/** A frame for the client: JSON already serialised (text) or binary audio. */
export type SocketFrame = string | Buffer;

/**
 * How a quiet connection ends: after `ms` without a message from the client, `frames` are sent (the vendor's
 * idle error, where it sends one) and the socket is closed with `code` and `reason`. Here, not in the
 * vendors' kit, because the service kit's socket server applies it and imports nothing from the vendors.
 */
export interface SocketIdle {
  ms: number;
  frames?: readonly SocketFrame[];
  code: number;
  reason: string;
  /**
   * What restarts the clock. `client` (when left out): each message from the client, whatever it is (a
   * keep-alive, a ping, one that is refused), and nothing the router sends, as vendors count "without
   * messages". `either`: each frame sent either way, so a socket never idles while its reply plays (native
   * /v1/stream: no message and no audio; vendor_c, whose vendor does not close while it is speaking).
   */
  clock?: 'client' | 'either';
}
