import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The checkout's root, whether this runs from source (Jest) or from dist/ (the e2e global setup). */
export const REPO_ROOT = ((): string => {
  let dir = __dirname;
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No nx.json above ${__dirname}`);
    dir = parent;
  }
  return dir;
})();

/**
 * Ports for the apps a test starts are drawn from below the kernel's ephemeral range (32768-60999 on Linux),
 * which it hands to every outgoing connection and every `listen(0)`: a port picked there can be taken by some
 * other process's connection between the pick and the app's listen. Several Jests start stacks at once, so a
 * port is also reserved across processes, by a file of its own, until RESERVED_MS has passed.
 */
const PORT_RANGE = { from: 20_000, to: 32_767 } as const;
const RESERVED_DIR = join(tmpdir(), 'router-test-ports');
const RESERVED_MS = 15 * 60_000;

/** Whether nothing listens on `port` (any address) right now. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** Takes `port` for this process unless another took it within RESERVED_MS. */
function reserve(port: number): boolean {
  const file = join(RESERVED_DIR, String(port));
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    try {
      if (Date.now() - statSync(file).mtimeMs < RESERVED_MS) return false;
      writeFileSync(file, String(process.pid));
      return true;
    } catch {
      return false;
    }
  }
}

/** A port no process listens on and no other test process was given lately (see PORT_RANGE). */
export async function freePort(): Promise<number> {
  mkdirSync(RESERVED_DIR, { recursive: true });
  for (let tries = 0; tries < 1_000; tries += 1) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from + 1));
    if (reserve(port) && (await portIsFree(port))) return port;
  }
  throw new Error(`no free port in ${PORT_RANGE.from}-${PORT_RANGE.to} after 1000 tries`);
}

export interface AppProcess {
  name: string;
  child: ChildProcess;
  logFile: string;
  stop(): Promise<void>;
}

/** Starts `node dist/apps/<app>/main.js` (or a tool) with its output in a log file the tests can read. */
export function spawnApp(
  name: string,
  entry: string,
  env: Record<string, string>,
  logDir: string,
): AppProcess {
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${name}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, ['--enable-source-maps', join(REPO_ROOT, entry)], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  return {
    name,
    child,
    logFile,
    stop: () => stopProcess(child),
  };
}

/** `signal` asks it to stop (SIGTERM unless said; PostgreSQL's fast shutdown is SIGINT), SIGKILL after the grace. */
export function stopProcess(
  child: ChildProcess,
  graceMs = 5000,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** Polls until `probe` resolves true, failing with `what` after the deadline. */
export async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function httpOk(url: string): Promise<boolean> {
  const res = await fetch(url);
  return res.ok;
}
