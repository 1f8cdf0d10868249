import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppProcess, call, freePort, spawnApp, waitFor } from '@router/testing';

/**
 * One router per data directory, with real routers started from dist/ as `npm start` runs them: a second
 * one on a directory in use refuses to start and says why; one killed outright does not block a restart.
 */
describe('standalone router: one process per data directory', () => {
  const started: AppProcess[] = [];
  let dataDir: string;

  const spawnRouter = async (name: string): Promise<{ app: AppProcess; base: string }> => {
    const [port, adminPort, internalPort, tlsPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const app = spawnApp(
      name,
      'dist/apps/standalone/main.js',
      {
        PORT: String(port),
        ADMIN_PORT: String(adminPort),
        INTERNAL_PORT: String(internalPort),
        TLS_PORT: String(tlsPort),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      },
      mkdtempSync(join(tmpdir(), `${name}-logs-`)),
    );
    started.push(app);
    return { app, base: `http://127.0.0.1:${port}` };
  };
  const ready = (app: AppProcess, base: string): Promise<void> =>
    waitFor(
      app.name,
      async () => {
        if (app.child.exitCode !== null) throw new Error(readFileSync(app.logFile, 'utf8'));
        return (await call(base, 'GET', '/healthz')).status === 200;
      },
      90_000,
      250,
    );
  const exitCode = (app: AppProcess): Promise<number | null> =>
    app.child.exitCode !== null
      ? Promise.resolve(app.child.exitCode)
      : new Promise((resolve) => app.child.once('exit', (code) => resolve(code)));

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'router-shared-data-'));
  });

  afterAll(async () => {
    await Promise.all(started.map((app) => app.stop()));
  });

  it('refuses a second router on a data directory in use, naming it, the holder and DATA_DIR', async () => {
    const first = await spawnRouter('standalone-holder');
    await ready(first.app, first.base);

    const second = await spawnRouter('standalone-second-on-same-dir');
    const outcome = await Promise.race([
      exitCode(second.app),
      ready(second.app, second.base).then(() => 'started beside the first'),
    ]);
    expect(outcome).toBe(1);
    const said = readFileSync(second.app.logFile, 'utf8');
    expect(said).toContain(
      `the data directory ${dataDir} is in use by another router (pid ${first.app.child.pid})`,
    );
    expect(said).toContain('DATA_DIR');
    // The first one goes on, and still holds the directory.
    expect((await call(first.base, 'GET', '/healthz')).status).toBe(200);
    expect(JSON.parse(readFileSync(join(dataDir, 'router.lock'), 'utf8'))).toMatchObject({
      pid: first.app.child.pid,
    });

    // Killed outright, it leaves its lock behind; a restart on the same directory still starts.
    first.app.child.kill('SIGKILL');
    await exitCode(first.app);
    expect(existsSync(join(dataDir, 'router.lock'))).toBe(true);
    const restarted = await spawnRouter('standalone-restart');
    await ready(restarted.app, restarted.base);
    expect(JSON.parse(readFileSync(join(dataDir, 'router.lock'), 'utf8'))).toMatchObject({
      pid: restarted.app.child.pid,
    });

    // Stopped as usual, it gives the directory up.
    await restarted.app.stop();
    expect(existsSync(join(dataDir, 'router.lock'))).toBe(false);
  }, 240_000);
});
