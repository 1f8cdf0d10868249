import { runWorkerThatDiesBeforeCommit } from './crash-worker';

// Started by the crash e2e test as its own process: `node dist/tools/crash-worker/main.js`.
runWorkerThatDiesBeforeCommit(process.env).catch((error: unknown) => {
  process.stderr.write(`crash-worker failed to start: ${String(error)}\n`);
  process.exit(1);
});
