import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A router this example started: where it listens and its demo org's key. */
export interface LocalRouter {
  baseUrl: string;
  apiKey: string;
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 120_000;

/**
 * Starts the standalone router (every app in one process, embedded database, simulated vendors) from dist/ on
 * a fresh data directory and free ports, as `npm start` would, and reads the demo org's key from what it
 * prints on a first start.
 */
export async function startLocalRouter(): Promise<LocalRouter> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-agent-router-'));
  const [port, internalPort, adminPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(
    process.execPath,
    [join(__dirname, '..', '..', '..', 'apps', 'standalone', 'main.js')],
    {
      env: {
        ...process.env,
        PORT: String(port),
        INTERNAL_PORT: String(internalPort),
        ADMIN_PORT: String(adminPort),
        TLS_SELF_SIGNED: 'false',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stop = async (): Promise<void> => {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const apiKey = await demoKey(child);
    return { baseUrl: `http://127.0.0.1:${port}`, apiKey, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The demo org's key, printed once the router is listening on a first start. */
function demoKey(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let printed = '';
    const timer = setTimeout(
      () => reject(new Error(`The router did not start within ${STARTUP_TIMEOUT_MS} ms:\n${printed}`)),
      STARTUP_TIMEOUT_MS,
    );
    const read = (chunk: Buffer): void => {
      printed += chunk.toString('utf8');
      const key = /\brtr_[A-Za-z0-9_-]+/.exec(printed);
      if (key && printed.includes('Create an org')) {
        clearTimeout(timer);
        resolve(key[0]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The router exited with code ${code}:\n${printed}`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
