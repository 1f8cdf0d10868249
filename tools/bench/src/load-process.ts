import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import type { S3BlobStoreOptions } from '@router/blob-store';
import type {
  CapacityStepResult,
  CapacityStepSpec,
  FromLoadGenerator,
  IdleStreamsResult,
  LoadSetup,
  OpenLoopResult,
  OpenLoopSpec,
  PhaseResult,
  PhaseSpec,
  ToLoadGenerator,
} from './load-plan';

/** The load generator's process, driven one phase at a time over the fork IPC channel. */
export class LoadProcess {
  private waiting: { resolve(m: FromLoadGenerator): void; reject(e: Error): void } | undefined;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: FromLoadGenerator) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.resolve(message);
    });
    child.once('exit', (code) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.reject(new Error(`load generator exited with code ${code}`));
    });
  }

  /** Forks `load-generator.js` (beside this file once built) and hands it the targets. */
  static async start(setup: Omit<LoadSetup, 'kind'>): Promise<LoadProcess> {
    const child = fork(join(__dirname, 'load-generator.js'), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [],
    });
    const load = new LoadProcess(child);
    const answer = await load.exchange({ kind: 'setup', ...setup });
    if (answer.kind !== 'ready') throw new Error(`load generator did not start: ${JSON.stringify(answer)}`);
    return load;
  }

  get pid(): number {
    return this.child.pid as number;
  }

  async run(spec: Omit<PhaseSpec, 'kind'>): Promise<PhaseResult> {
    const answer = await this.exchange({ kind: 'phase', ...spec });
    if (answer.kind === 'failed') throw new Error(`load generator: ${answer.message}`);
    if (answer.kind !== 'result' || answer.id !== spec.id) throw new Error(`unexpected answer to ${spec.id}`);
    return answer;
  }

  /** Requests of one variant at a fixed rate (see OpenLoopSpec). */
  async openLoop(spec: Omit<OpenLoopSpec, 'kind'>): Promise<OpenLoopResult> {
    const answer = await this.exchange({ kind: 'open-loop', ...spec });
    if (answer.kind === 'failed') throw new Error(`load generator: ${answer.message}`);
    if (answer.kind !== 'open-loop' || answer.id !== spec.id)
      throw new Error(`unexpected answer to ${spec.id}`);
    return answer;
  }

  /** One capacity step on the idle /v1/stream connections held open (see CapacityStepSpec). */
  async capacityStep(spec: Omit<CapacityStepSpec, 'kind'>): Promise<CapacityStepResult> {
    const answer = await this.exchange({ kind: 'capacity-step', ...spec });
    if (answer.kind === 'failed') throw new Error(`load generator: ${answer.message}`);
    if (answer.kind !== 'capacity-step' || answer.id !== spec.id)
      throw new Error(`unexpected answer to ${spec.id}`);
    return answer;
  }

  /** Holds `count` idle /v1/stream connections open (see IdleStreamsSpec). */
  async idleStreams(count: number): Promise<IdleStreamsResult> {
    const answer = await this.exchange({ kind: 'idle-streams', count });
    if (answer.kind === 'failed') throw new Error(`load generator: ${answer.message}`);
    if (answer.kind !== 'idle-streams') throw new Error(`unexpected answer to idle-streams ${count}`);
    return answer;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    this.child.send({ kind: 'stop' });
    await exited;
    clearTimeout(timer);
  }

  private exchange(message: Exclude<ToLoadGenerator, { kind: 'stop' }>): Promise<FromLoadGenerator> {
    if (this.waiting) return Promise.reject(new Error('one phase at a time'));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.child.send(message);
    });
  }
}

/** A reference process forked from `script` (beside this file once built), once it reports its port. */
interface Forked {
  port: number;
  pid: number;
  stop(): Promise<void>;
}

async function forkReference(
  script: string,
  args: string[],
  what: string,
  env: Record<string, string> = {},
): Promise<Forked> {
  const child = fork(join(__dirname, script), args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
    env: { ...process.env, ...env },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`${what} exited with code ${code}`)));
  });
  return {
    port,
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The bare reverse proxy (bare-proxy.ts) in its own process, in front of `upstream`. */
export async function startBareProxy(
  upstream: string,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const proxy = await forkReference('bare-proxy.js', [upstream], 'bare proxy');
  return { url: `http://127.0.0.1:${proxy.port}`, pid: proxy.pid, stop: () => proxy.stop() };
}

/** The names under which the naive chain's processes are read for CPU, gateway first. */
export const CHAIN_PROCESSES = ['chain-gateway', 'chain-app', 'chain-worker', 'chain-indexer'] as const;

/** The table of the naive chain's indexer, in the bench's scratch database: a row per take it cached. */
export const NAIVE_INDEX_TABLE = 'naive_chain_takes';

/** Where the naive chain writes the takes it is asked to cache (the `chain-cached` variant). */
export interface NaiveCacheWrite {
  s3: S3BlobStoreOptions;
  databaseUrl: string;
}

/**
 * The naive gateway → app → NATS → worker chain (naive-chain.ts), three processes in front of `vendorUrl`,
 * talking over the NATS at `natsUrl` on `subject`, and the indexer its worker commits cached takes to. The
 * indexer and the worker start first, so their subscriptions are in place before anyone can publish, and
 * the gateway last, once the app's port is known.
 */
export async function startNaiveChain(
  vendorUrl: string,
  natsUrl: string,
  subject: string,
  cacheWrite: NaiveCacheWrite,
): Promise<{ url: string; pids: Record<(typeof CHAIN_PROCESSES)[number], number>; stop(): Promise<void> }> {
  const started: Forked[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(started.map((p) => p.stop()));
  };
  try {
    const indexer = await forkReference('naive-chain.js', ['indexer', natsUrl, subject], 'chain indexer', {
      DATABASE_URL: cacheWrite.databaseUrl,
    });
    started.push(indexer);
    const worker = await forkReference(
      'naive-chain.js',
      ['worker', natsUrl, subject, vendorUrl],
      'chain worker',
      { NAIVE_CHAIN_S3: JSON.stringify(cacheWrite.s3) },
    );
    started.push(worker);
    const app = await forkReference('naive-chain.js', ['app', natsUrl, subject], 'chain app');
    started.push(app);
    const gateway = await forkReference(
      'naive-chain.js',
      ['gateway', `http://127.0.0.1:${app.port}`],
      'chain gateway',
    );
    started.push(gateway);
    return {
      url: `http://127.0.0.1:${gateway.port}`,
      pids: {
        'chain-gateway': gateway.pid,
        'chain-app': app.pid,
        'chain-worker': worker.pid,
        'chain-indexer': indexer.pid,
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
