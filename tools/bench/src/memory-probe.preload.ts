import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Loaded with `NODE_OPTIONS=--require …` into each app of the benchmark's stack (never into a deployment):
 * on SIGUSR2 the app collects all its garbage and writes `process.memoryUsage()` to
 * `<BENCH_MEMORY_PROBE_DIR>/<pid>.json`, so the benchmark can read what live objects hold (memory-probe.ts).
 * Setting `--expose-gc` here and taking `gc` from a fresh context keeps it off the app's own global object.
 */
const dir = process.env['BENCH_MEMORY_PROBE_DIR'];
if (dir) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  process.on('SIGUSR2', () => {
    // Several full collections: objects freed by one (weak references, finalizers) go in the next.
    for (let i = 0; i < 4; i++) gc();
    const file = join(dir, `${process.pid}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(process.memoryUsage()));
    renameSync(`${file}.tmp`, file);
  });
}
