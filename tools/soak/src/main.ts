import { setMaxListeners } from 'node:events';
import { parseOptions } from './soak-options';
import { runSoak } from './soak';
import { summary } from './soak-summary';

/**
 * `node dist/tools/soak/main.js`: mixed traffic with faults against the stack on private services, then the
 * checks (tools/soak/README.md). Exits 1 on a violation, 2 on a failure to run at all.
 */

function log(line: string): void {
  process.stderr.write(`soak: ${line}\n`);
}

async function main(): Promise<number> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    return 2;
  }
  const stop = new AbortController();
  // Every client and the fault runner wait on it at once: more than Node's default of 10 listeners.
  setMaxListeners(0, stop.signal);
  const onSignal = (): void => {
    log('interrupted: stopping the traffic and every process the soak started');
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const result = await runSoak(options, log, stop.signal);
  process.stdout.write(`${summary(result)}\n`);
  process.stdout.write(`${JSON.stringify({ ...result.verdict, faults: result.faults })}\n`);
  if (stop.signal.aborted) return 130;
  return result.verdict.violations.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(2);
  },
);
