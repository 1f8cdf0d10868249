import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A TCP proxy in front of a PostgreSQL server that can be frozen: while frozen it accepts connections and
 * passes no byte either way, as a server that hangs (paused, swapping, behind a link that drops silently).
 * With no upstream it only ever accepts and says nothing.
 */
export interface FreezingProxy {
  /** A URL like `upstreamUrl` (or postgresql://…/router without one) pointing at the proxy. */
  url: string;
  freeze(): void;
  /**
   * Lets bytes flow again. `lostConnections`: the connections opened before stay frozen for good, as ones a
   * link dropped without a reset; only new connections get through.
   */
  thaw(options?: { lostConnections?: boolean }): void;
  /** Connections accepted so far (a query that reached the proxy opened one unless its pool had one idle). */
  connections(): number;
  close(): Promise<void>;
}

export async function startFreezingProxy(upstreamUrl?: string): Promise<FreezingProxy> {
  const upstream = upstreamUrl ? new URL(upstreamUrl) : undefined;
  let frozen = upstream === undefined;
  const sockets = new Set<Socket>();
  const pairs: Array<[Socket, Socket]> = [];
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const flow = (): void => {
    for (const [client, server] of pairs) {
      for (const socket of [client, server]) {
        if (frozen) socket.pause();
        else socket.resume();
      }
    }
  };
  let accepted = 0;
  const server: Server = createServer((client) => {
    accepted += 1;
    track(client);
    if (!upstream) return;
    const toServer = connect(Number(upstream.port || 5432), upstream.hostname);
    track(toServer);
    // Bytes read while frozen are held, not passed: pause() stops reading, and the pipes write nothing.
    client.pipe(toServer);
    toServer.pipe(client);
    client.on('close', () => toServer.destroy());
    toServer.on('close', () => client.destroy());
    pairs.push([client, toServer]);
    flow();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  const url = new URL(upstreamUrl ?? 'postgresql://router@127.0.0.1/router');
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    url: url.toString(),
    freeze: () => {
      frozen = true;
      flow();
    },
    thaw: (options) => {
      if (options?.lostConnections) pairs.length = 0;
      frozen = false;
      flow();
    },
    connections: () => accepted,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
