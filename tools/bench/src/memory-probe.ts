import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** `process.memoryUsage()` of an app right after a forced full GC (memory-probe.preload.ts), in bytes. */
export interface MemoryReading {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  /** C++ objects bound to JS ones, Buffers included. */
  external: number;
  /** Buffers and ArrayBuffers (part of `external`). */
  arrayBuffers: number;
}

/** Asks the app `pid` (started with the preload writing to `dir`) to collect its garbage and report its memory. */
export async function readMemory(pid: number, dir: string, timeoutMs = 10_000): Promise<MemoryReading> {
  const file = join(dir, `${pid}.json`);
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline)
      throw new Error(`process ${pid} wrote no memory reading within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return JSON.parse(readFileSync(file, 'utf8')) as MemoryReading;
}
