import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { basename, dirname, join } from 'node:path';

/**
 * Loaded with `NODE_OPTIONS=--require …` into each app when the benchmark profiles (`--cpu-prof`): Node 20
 * refuses `--cpu-prof` itself in NODE_OPTIONS, and the stack spawns the apps with fixed arguments. Starts
 * V8's sampling profiler at once and writes the profile when the process exits.
 */
const dir = process.env['BENCH_CPU_PROFILE_DIR'];
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  process.once('exit', () => {
    // The in-process session answers synchronously, so the profile is written before the process ends.
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      const app = basename(dirname(process.argv[1] ?? 'node'));
      writeFileSync(join(dir, `${app}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
