import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { freePort, REPO_ROOT, stopProcess, waitFor } from '@router/testing';

/**
 * The peer: `@portkey-ai/gateway` (an open-source Node AI gateway, a devDependency) run from its CLI as its
 * users run it, headless, bound to loopback (peer-loopback.preload.ts). It forwards OpenAI-style speech requests
 * to vendor_d's simulator as its `openai` provider with a custom host, given per request by header (127.0.0.1
 * is among its trusted custom hosts by default). Its log (it logs an error for every audio answer, which it tries
 * to read as JSON) goes to `logFile`.
 */
export async function startPeerGateway(
  logFile: string,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const cli = join(REPO_ROOT, 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js');
  const child = spawn(
    process.execPath,
    ['--require', join(__dirname, 'peer-loopback.preload.js'), cli, `--port=${port}`, '--headless'],
    { env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const log = createWriteStream(logFile);
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      'the peer gateway',
      async () => child.exitCode === null && (await fetch(url)).status > 0,
      20_000,
      100,
    );
  } catch (error) {
    await stopProcess(child);
    throw new Error(`${error instanceof Error ? error.message : String(error)}; see ${logFile}`);
  }
  return { url, pid: child.pid as number, stop: () => stopProcess(child) };
}
