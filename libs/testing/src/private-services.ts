import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, REPO_ROOT, stopProcess, waitFor } from './processes';

/**
 * NATS and the S3 emulator as processes of one test's own, on free ports, so a fault test can stop and
 * restart them without touching the shared services (4222, 4569) that every other test and engineer uses.
 * Each keeps its port across restarts, so the apps connected to it reconnect to the same address.
 */
export interface PrivateServer {
  readonly name: string;
  readonly port: number;
  /** Whether the process is running (false after stop(), true again after restart()). */
  readonly running: boolean;
  /** Stops the process (SIGTERM, SIGKILL after a grace); the port is then closed. */
  stop(): Promise<void>;
  /** Starts the process again on the same port (stopping it first if it runs); resolves once it listens. */
  restart(): Promise<void>;
  /** Stops it for good and removes what it kept on disk. */
  close(): Promise<void>;
}

export interface PrivateNats extends PrivateServer {
  /** `nats://127.0.0.1:<port>`. */
  readonly url: string;
}

export interface PrivateS3 extends PrivateServer {
  /** `http://127.0.0.1:<port>`, with s3rver's built-in account. */
  readonly s3: { endpoint: string; accessKey: string; secretKey: string };
  /** Its data directory: objects survive a restart, as a real store's would. */
  readonly directory: string;
}

export interface PrivateServerOptions {
  /** Where its output goes (`<name>.log`); by default a directory removed by close(). */
  logDir?: string;
  /** How long a start may take before it counts as failed. */
  startTimeoutMs?: number;
}

/** Where Debian and the release archives put it (tools/services/ensure.sh installs it), else the PATH's. */
const NATS_SERVER =
  ['/usr/sbin/nats-server', '/usr/local/bin/nats-server', '/usr/bin/nats-server'].find((p) =>
    existsSync(p),
  ) ?? 'nats-server';

/** `nats-server` on a free loopback port, without JetStream (the router uses plain request/reply). */
export async function startPrivateNats(options: PrivateServerOptions = {}): Promise<PrivateNats> {
  const port = await freePort();
  const server = await startServerProcess({
    name: 'nats',
    port,
    command: NATS_SERVER,
    args: ['-a', '127.0.0.1', '-p', String(port)],
    ...options,
  });
  return Object.assign(server, { url: `nats://127.0.0.1:${port}` });
}

/** The s3rver emulator from node_modules, as tools/services/ensure.sh starts it, with its own data directory. */
export async function startPrivateS3(options: PrivateServerOptions = {}): Promise<PrivateS3> {
  const port = await freePort();
  const directory = mkdtempSync(join(tmpdir(), 'router-private-s3-'));
  let server: PrivateServer;
  try {
    server = await startServerProcess({
      name: 's3',
      port,
      command: process.execPath,
      args: [
        join(REPO_ROOT, 'node_modules/s3rver/bin/s3rver.js'),
        ...['-d', directory, '-a', '127.0.0.1', '-p', String(port), '--silent'],
      ],
      ...options,
      removeOnClose: [directory],
    });
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return Object.assign(server, {
    directory,
    s3: { endpoint: `http://127.0.0.1:${port}`, accessKey: 'S3RVER', secretKey: 'S3RVER' },
  });
}

interface ServerProcessSpec extends PrivateServerOptions {
  name: string;
  port: number;
  command: string;
  args: string[];
  /** Directories removed by close() besides its own log directory. */
  removeOnClose?: string[];
}

async function startServerProcess(spec: ServerProcessSpec): Promise<PrivateServer> {
  const ownLogDir = spec.logDir === undefined;
  const logDir = spec.logDir ?? mkdtempSync(join(tmpdir(), `router-private-${spec.name}-`));
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${spec.name}.log`);
  const startTimeoutMs = spec.startTimeoutMs ?? 15_000;
  let child: ChildProcess | null = null;

  const launch = async (): Promise<void> => {
    const log = createWriteStream(logFile, { flags: 'a' });
    const started = spawn(spec.command, spec.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    started.stdout?.pipe(log);
    started.stderr?.pipe(log);
    child = started;
    const exited = new Promise<never>((_, reject) => {
      started.once('error', (error) => reject(new Error(`${spec.name}: ${error.message}`)));
      started.once('exit', (code, signal) =>
        reject(new Error(`${spec.name} exited (${signal ?? code}) while starting; see ${logFile}`)),
      );
    });
    exited.catch(() => undefined);
    try {
      await Promise.race([
        waitFor(`${spec.name} on 127.0.0.1:${spec.port}`, () => portOpen(spec.port), startTimeoutMs, 50),
        exited,
      ]);
    } catch (error) {
      await stopProcess(started, 1000);
      throw error;
    }
  };

  const stop = async (): Promise<void> => {
    const running = child;
    child = null;
    if (running) await stopProcess(running);
  };

  await launch();
  return {
    name: spec.name,
    port: spec.port,
    get running() {
      return child !== null && child.exitCode === null && child.signalCode === null;
    },
    stop,
    async restart() {
      await stop();
      await launch();
    },
    async close() {
      await stop();
      for (const dir of [...(spec.removeOnClose ?? []), ...(ownLogDir ? [logDir] : [])])
        rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True once something accepts connections on the loopback port. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
