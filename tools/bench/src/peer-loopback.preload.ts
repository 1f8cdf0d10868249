import { Server } from 'node:net';

/**
 * Loaded into the peer gateway only (peer-gateway.ts): its CLI listens on every interface and has no option
 * for an address, so a listen without a host is bound to loopback here. Nothing else is changed.
 */
const listen = Reflect.get(Server.prototype, 'listen') as (this: Server, ...args: unknown[]) => Server;
Server.prototype.listen = function listenOnLoopback(this: Server, ...args: unknown[]): Server {
  const [first, second] = args;
  if (typeof first === 'number' && typeof second !== 'string') args.splice(1, 0, '127.0.0.1');
  else if (typeof first === 'object' && first !== null && !('host' in first) && !('path' in first))
    args[0] = { ...first, host: '127.0.0.1' };
  return listen.apply(this, args);
} as typeof Server.prototype.listen;
