import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  type AppProcess,
  call,
  freePort,
  portIsFree,
  REPO_ROOT,
  SPEC_VENDOR_TOKENS,
  spawnApp,
  waitFor,
} from '@router/testing';

const run = promisify(execFile);

/** A PORT whose three neighbours (the internal, admin and TLS ports that follow it) are free as well. */
async function freePortRun(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (
      port < 65532 &&
      (await portIsFree(port + 1)) &&
      (await portIsFree(port + 2)) &&
      (await portIsFree(port + 3))
    ) {
      return port;
    }
  }
}

/**
 * A new user's first minutes: `npm start` on a fresh data directory (only PORT given, as `PORT=18080 npm start`
 * would), then the command it prints, pasted into a shell. Started from dist/, as `npm start` runs it.
 */
async function startRouter(name: string, port: number): Promise<{ app: AppProcess; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), `router-${name}-`));
  const app = spawnApp(
    name,
    'dist/apps/standalone/main.js',
    { PORT: String(port), DATA_DIR: dataDir },
    dataDir,
  );
  const exited = new Promise<never>((_, reject) =>
    app.child.once('exit', (code) =>
      reject(new Error(`${name} exited with code ${code}; see ${app.logFile}`)),
    ),
  );
  await Promise.race([
    waitFor(name, async () => readFileSync(app.logFile, 'utf8').includes('Create an org'), 90_000, 250),
    exited,
  ]);
  return { app, dataDir };
}

describe('standalone router: the first sound of a fresh start', () => {
  let first: AppProcess;
  let second: AppProcess | undefined;
  let port: number;
  let printed: string;

  beforeAll(async () => {
    port = await freePortRun();
    ({ app: first } = await startRouter('standalone-first-sound', port));
    printed = readFileSync(first.logFile, 'utf8');
  }, 120_000);

  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  /** The one printed line that is a speech request. */
  const printedCommand = (): string => {
    const line = printed
      .split('\n')
      .find((l) => l.trim().startsWith('curl ') && l.includes('/v1/audio/speech'));
    if (!line) throw new Error(`no speech command printed:\n${printed}`);
    return line.trim();
  };

  it('prints one command that writes an mp3 of the simulated vendor_a, with the demo key in it', async () => {
    const command = printedCommand();
    const demoKey = /rtr_[A-Za-z0-9_-]+/.exec(printed)?.[0] ?? '';
    expect(command).toContain(`Bearer ${demoKey}`);
    expect(command).toContain(`http://localhost:${port}/v1/audio/speech`);

    const cwd = mkdtempSync(join(tmpdir(), 'router-first-sound-'));
    await run('bash', ['-c', command], { cwd });
    const audio = readFileSync(join(cwd, 'hello.mp3'));
    // MPEG audio: an ID3 tag or straight away a frame's 11-bit sync word, then more frames.
    const start = audio.subarray(0, 3).toString('latin1') === 'ID3' ? 10 + id3Size(audio) : 0;
    expect(audio.length).toBeGreaterThan(start + 1000);
    expect(audio[start]).toBe(0xff);
    expect((audio[start + 1] ?? 0) & 0xe0).toBe(0xe0);
  });

  it('gives the demo org a simulated key for every vendor, each answering (here: voices of vendor_c)', async () => {
    const demoKey = /rtr_[A-Za-z0-9_-]+/.exec(printed)?.[0] ?? '';
    const keys = await call(`http://127.0.0.1:${port}`, 'GET', '/v1/provider-keys', { key: demoKey });
    expect(keys.status).toBe(200);
    expect((keys.body as Array<{ provider: string }>).map((k) => k.provider).sort()).toEqual([
      ...SPEC_VENDOR_TOKENS,
    ]);
    const voices = await call(`http://127.0.0.1:${port}`, 'GET', '/v1/voices?provider=vendor_c', {
      key: demoKey,
    });
    expect(voices.status).toBe(200);
  });

  it('is the command the README shows, with <key> for the key and the default port', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const demoKey = /rtr_[A-Za-z0-9_-]+/.exec(printed)?.[0] ?? '';
    const asInReadme = printedCommand()
      .replace(`Bearer ${demoKey}`, 'Bearer <key>')
      .replace(`localhost:${port}`, 'localhost:8080');
    expect(readme).toContain(asInReadme);
  });

  it('keeps its internal and admin ports beside PORT, so a second router given another PORT starts too', async () => {
    expect((await call(`http://127.0.0.1:${port + 1}`, 'GET', '/readyz')).status).toBe(200);
    expect(printed).toContain(`ADMIN_URL=http://127.0.0.1:${port + 2}`);

    const otherPort = await freePortRun();
    ({ app: second } = await startRouter('standalone-second', otherPort));
    expect((await call(`http://127.0.0.1:${otherPort}`, 'GET', '/healthz')).status).toBe(200);
    expect((await call(`http://127.0.0.1:${port}`, 'GET', '/healthz')).status).toBe(200);
  }, 120_000);
});

/** The size of an ID3v2 tag's body (four 7-bit bytes after its 6-byte header). */
function id3Size(audio: Buffer): number {
  return ((audio[6] & 0x7f) << 21) | ((audio[7] & 0x7f) << 14) | ((audio[8] & 0x7f) << 7) | (audio[9] & 0x7f);
}
