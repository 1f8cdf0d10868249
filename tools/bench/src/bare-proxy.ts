import { createServer } from 'node:http';
import { Pool } from 'undici';
import { plainForward } from './plain-forward';

/**
 * The side-by-side reference: the least a Node reverse proxy can do (one hop, keep-alive pool, bodies
 * piped), in a process of its own, forwarding to the simulator. Forked by main.ts with the upstream URL as
 * its argument; reports its port over IPC.
 */
function main(): void {
  const upstream = process.argv[2];
  if (!upstream || !process.send) {
    process.stderr.write('bare-proxy: run me through child_process.fork with the upstream URL\n');
    process.exit(2);
  }
  const pool = new Pool(upstream, { keepAliveTimeout: 120_000, keepAliveMaxTimeout: 600_000 });
  const server = createServer({ keepAliveTimeout: 120_000 }, plainForward(pool));
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  });
  const stop = (): void => {
    server.close();
    server.closeAllConnections();
    void pool.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
}

main();
