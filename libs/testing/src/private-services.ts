import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chownSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, REPO_ROOT, stopProcess, waitFor } from './processes';

/**
 * NATS, the S3 emulator and PostgreSQL as processes of one test's own, on free ports, so a fault test can stop and
 * restart them without touching the shared services (4222, 4569) that every other test and engineer uses.
 * Each keeps its port across restarts, so the apps connected to it reconnect to the same address.
 */
export interface PrivateServer {
  readonly name: string;
  readonly port: number;
  /** Whether the process is running (false after stop(), true again after restart()). */
  readonly running: boolean;
  /** The process's id while it runs. */
  readonly pid: number | undefined;
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

/** pause(): no request is answered. */
export interface PrivateS3 extends PrivateServer, Pausable {
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
  return Object.assign(pausable(server, 'the private S3 emulator'), {
    directory,
    s3: { endpoint: `http://127.0.0.1:${port}`, accessKey: 'S3RVER', secretKey: 'S3RVER' },
  });
}

/** pause(): no session starts, no statement ends. */
export interface PrivatePostgres extends PrivateServer, Pausable {
  /** `postgresql://router:router@127.0.0.1:<port>/router`: a superuser's, on a database made at the start. */
  readonly url: string;
}

/** The processes descended from `root` (read from /proc: each one's parent). */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // /proc/<pid>/stat: `pid (comm) state ppid …`; comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // A process that ended while the list was read.
    }
  }
  const found: number[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop();
    for (const [pid, ppid] of parents) {
      if (ppid === parent) {
        found.push(pid);
        frontier.push(pid);
      }
    }
  }
  return found;
}

/** Sends `signal` to `pid` and its descendants (the parent first, so it starts no new one meanwhile). */
function signalTree(pid: number, signal: NodeJS.Signals): void {
  const signalOne = (target: number): void => {
    try {
      process.kill(target, signal);
    } catch {
      // Ended meanwhile.
    }
  };
  if (signal === 'SIGSTOP') {
    signalOne(pid);
    for (const child of descendants(pid)) signalOne(child);
  } else {
    for (const child of descendants(pid)) signalOne(child);
    signalOne(pid);
  }
}

/** Where Debian puts the server's programs (tools/services/ensure.sh installs them): the newest version's. */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const version = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))[0]
    : undefined;
  if (!version)
    throw new Error('PostgreSQL is not installed (tools/services/ensure.sh postgres installs it)');
  return join(root, version, 'bin');
}

/**
 * A PostgreSQL server of one test's own (never the shared one on 5432, which every other test uses): a cluster
 * made with initdb in a directory of its own, on a free loopback port, TCP only, with a `router` superuser and
 * a `router` database. stop() is PostgreSQL's fast shutdown (SIGINT: sessions are ended at once, as when an
 * operator or a failover stops it); restart() starts it again on the same port and data, so a test can stop
 * the database under a running stack and bring it back. The server refuses to run as root: as root it runs as
 * the `postgres` user (setpriv, which execs, so the signals reach the server itself).
 */
export async function startPrivatePostgres(options: PrivateServerOptions = {}): Promise<PrivatePostgres> {
  const bin = postgresBin();
  const port = await freePort();
  const directory = mkdtempSync(join(tmpdir(), 'router-private-pg-'));
  const asRoot = process.getuid?.() === 0;
  const asServerUser = (command: string, args: string[]): [string, string[]] =>
    asRoot
      ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', command, ...args]]
      : [command, args];
  let server: PrivateServer;
  try {
    if (asRoot) {
      const id = (flag: string): number =>
        Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
      chownSync(directory, id('-u'), id('-g'));
    }
    const data = join(directory, 'data');
    const [initdb, initArgs] = asServerUser(join(bin, 'initdb'), [
      ...['-D', data, '-U', 'router', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
    ]);
    execFileSync(initdb, initArgs, { stdio: 'pipe' });
    const [command, args] = asServerUser(join(bin, 'postgres'), [
      ...[
        '-D',
        data,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
      ],
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'max_connections=300'],
    ]);
    server = await startServerProcess({
      name: 'postgres',
      port,
      command,
      args,
      ...options,
      stopSignal: 'SIGINT',
      removeOnClose: [directory],
    });
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  const base = `postgresql://router:router@127.0.0.1:${port}`;
  // The port opens before the server takes sessions (57P03 while it starts): the first statement is retried.
  await waitFor('the private PostgreSQL to take sessions', async () => {
    const client = new Client({ connectionString: `${base}/postgres` });
    try {
      await client.connect();
      await client.query('CREATE DATABASE router');
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === '42P04') return true; // made by an earlier attempt
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  });
  return Object.assign(pausable(server, 'the private PostgreSQL'), { url: `${base}/router` });
}

/** A server that can be made to hang and let go on. */
export interface Pausable {
  /**
   * Makes the server hang: SIGSTOP to its process and every process it started. Connections are still
   * accepted (by the kernel, on the listening socket) and nothing answers, as with a server that is paused,
   * swapping or stuck.
   */
  pause(): void;
  /** SIGCONT: it goes on. */
  resume(): void;
}

/** `server` with pause() and resume(); a paused server is let go on before it is stopped, restarted or closed. */
function pausable<S extends PrivateServer>(server: S, what: string): S & Pausable {
  const stopServer = server.stop.bind(server);
  const restartServer = server.restart.bind(server);
  const closeServer = server.close.bind(server);
  let paused = false;
  const pid = (): number => {
    if (server.pid === undefined) throw new Error(`${what} is not running`);
    return server.pid;
  };
  const resume = (): void => {
    if (paused) signalTree(pid(), 'SIGCONT');
    paused = false;
  };
  return Object.assign(server, {
    pause: () => {
      signalTree(pid(), 'SIGSTOP');
      paused = true;
    },
    resume,
    stop: async () => {
      if (paused && server.pid !== undefined) resume();
      await stopServer();
    },
    restart: async () => {
      if (paused && server.pid !== undefined) resume();
      await restartServer();
    },
    close: async () => {
      if (paused && server.pid !== undefined) resume();
      await closeServer();
    },
  });
}

interface ServerProcessSpec extends PrivateServerOptions {
  name: string;
  port: number;
  command: string;
  args: string[];
  /** Directories removed by close() besides its own log directory. */
  removeOnClose?: string[];
  /** What asks it to stop (SIGTERM unless said). */
  stopSignal?: NodeJS.Signals;
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
    if (running) await stopProcess(running, 5000, spec.stopSignal);
  };

  await launch();
  return {
    name: spec.name,
    port: spec.port,
    get running() {
      return child !== null && child.exitCode === null && child.signalCode === null;
    },
    get pid() {
      return child?.pid;
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
