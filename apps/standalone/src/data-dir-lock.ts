import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Who holds a data directory: its process id and, where /proc says it, that process's start time. */
interface Holder {
  pid: number;
  started?: string;
}

export interface DataDirLock {
  /** Gives the directory up (idempotent); also done on the process's exit. */
  release(): void;
}

const LOCK_FILE = 'router.lock';

/**
 * One router per data directory: two processes writing one embedded database (and one blob folder) can
 * lose data. The lock is a file naming its holder, made whole under a temporary name and linked into place
 * (a link never replaces a file, so of two routers starting at once one wins). A lock whose holder is gone
 * (a router killed with SIGKILL, or a machine that restarted) is taken over: a process id alone can be
 * reused, so the holder is also known by its start time where the system says it (Linux), and a lock naming
 * this very process (a container restarted with the same pid) is stale too.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = join(dataDir, LOCK_FILE);
  const self: Holder = { pid: process.pid, ...startTime(process.pid) };
  const claim = join(dataDir, `${LOCK_FILE}.${process.pid}`);
  writeFileSync(claim, JSON.stringify(self));
  try {
    for (let attempt = 0; ; attempt++) {
      if (tryLink(claim, lockFile)) break;
      const holder = readHolder(lockFile);
      if (holder === 'gone') continue;
      if (holder !== undefined && holderAlive(holder)) {
        throw new Error(
          `the data directory ${dataDir} is in use by another router (pid ${holder.pid}). ` +
            `Two routers cannot share one embedded database: start this one with DATA_DIR set to another ` +
            `directory (and another PORT), or stop process ${holder.pid} first.`,
        );
      }
      if (attempt >= 3) {
        throw new Error(
          `could not lock the data directory ${dataDir}: its lock file ${lockFile} keeps changing. ` +
            `Set DATA_DIR to another directory.`,
        );
      }
      takeOverStale(lockFile, holder);
    }
  } finally {
    rmSync(claim, { force: true });
  }
  let held = true;
  const release = (): void => {
    if (!held) return;
    held = false;
    process.removeListener('exit', release);
    // Only our own lock is removed: never one another process took after ours was given up.
    const holder = readHolder(lockFile);
    if (holder !== 'gone' && holder?.pid === self.pid && holder.started === self.started) {
      rmSync(lockFile, { force: true });
    }
  };
  process.on('exit', release);
  return { release };
}

function tryLink(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** The lock's holder, `undefined` for a file that names none, `'gone'` when the file vanished meanwhile. */
function readHolder(lockFile: string): Holder | undefined | 'gone' {
  let text: string;
  try {
    text = readFileSync(lockFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<Holder>;
    if (typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return undefined;
    return {
      pid: parsed.pid,
      ...(typeof parsed.started === 'string' ? { started: parsed.started } : {}),
    };
  } catch {
    return undefined;
  }
}

function holderAlive(holder: Holder): boolean {
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists, under another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = startTime(holder.pid).started;
  return holder.started === undefined || now === undefined || now === holder.started;
}

/**
 * Moves a stale lock aside and removes it, unless what was moved is not the stale lock that was read (a
 * router that took the directory over meanwhile), which is linked back.
 */
function takeOverStale(lockFile: string, stale: Holder | undefined): void {
  const aside = `${lockFile}.stale.${process.pid}`;
  try {
    renameSync(lockFile, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = readHolder(aside);
  const same =
    moved === stale ||
    (moved !== 'gone' &&
      moved !== undefined &&
      stale !== undefined &&
      moved.pid === stale.pid &&
      moved.started === stale.started);
  if (!same) tryLink(aside, lockFile);
  unlinkSync(aside);
}

/** The process's start time since boot from /proc (Linux), absent elsewhere. */
function startTime(pid: number): { started?: string } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3; the start time is field 22.
    const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return started ? { started } : {};
  } catch {
    return {};
  }
}
