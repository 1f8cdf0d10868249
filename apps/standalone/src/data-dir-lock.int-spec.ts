import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockDataDir } from './data-dir-lock';

/** The lock file on a real filesystem, against real processes (this one and a child that sleeps). */
describe('lockDataDir', () => {
  const fresh = (): string => mkdtempSync(join(tmpdir(), 'router-lock-'));
  const lockOf = (dir: string): { pid: number; started?: string } =>
    JSON.parse(readFileSync(join(dir, 'router.lock'), 'utf8')) as { pid: number; started?: string };
  const startedOf = (pid: number): string => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  };

  it('names this process in the lock and removes it on release, leaving the directory free', () => {
    const dir = fresh();
    const lock = lockDataDir(dir);
    expect(lockOf(dir)).toEqual({ pid: process.pid, started: startedOf(process.pid) });
    lock.release();
    expect(existsSync(join(dir, 'router.lock'))).toBe(false);
    lockDataDir(dir).release();
  });

  it('refuses a directory a live process holds, naming the directory, its pid and DATA_DIR', async () => {
    const dir = fresh();
    const holder = spawn('sleep', ['30']);
    try {
      await new Promise((resolve) => holder.once('spawn', resolve));
      const pid = holder.pid ?? 0;
      writeFileSync(join(dir, 'router.lock'), JSON.stringify({ pid, started: startedOf(pid) }));
      expect(() => lockDataDir(dir)).toThrow(
        `the data directory ${dir} is in use by another router (pid ${pid})`,
      );
      expect(() => lockDataDir(dir)).toThrow('DATA_DIR');
      // Untouched: the holder keeps its lock.
      expect(lockOf(dir).pid).toBe(pid);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('takes over a lock whose process is gone', async () => {
    const dir = fresh();
    const gone = spawn('true');
    const pid = gone.pid ?? 0;
    await new Promise((resolve) => gone.once('exit', resolve));
    writeFileSync(join(dir, 'router.lock'), JSON.stringify({ pid, started: '1' }));
    const lock = lockDataDir(dir);
    expect(lockOf(dir).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock whose pid now belongs to another process (another start time) or to this one', () => {
    const reused = fresh();
    writeFileSync(join(reused, 'router.lock'), JSON.stringify({ pid: process.ppid, started: '1' }));
    lockDataDir(reused).release();
    const ownPid = fresh();
    writeFileSync(join(ownPid, 'router.lock'), JSON.stringify({ pid: process.pid, started: '1' }));
    lockDataDir(ownPid).release();
    expect(existsSync(join(ownPid, 'router.lock'))).toBe(false);
  });

  it('takes over a lock file that names no process (cut short or garbled)', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'router.lock'), '{"pid":');
    lockDataDir(dir).release();
    expect(existsSync(join(dir, 'router.lock'))).toBe(false);
  });
});
