import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Kernel clock ticks per second, the unit of /proc's CPU times (100 on nearly every Linux). */
export function clockTicksPerSecond(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

/**
 * utime + stime of one process (all its threads) in ticks, from the text of /proc/<pid>/stat. The command
 * name in parentheses may hold spaces or parentheses itself, so fields are counted after its last `)`.
 */
export function parseProcessTicks(stat: string): number {
  const close = stat.lastIndexOf(')');
  if (close < 0) throw new Error('not a /proc/<pid>/stat line');
  // After `) ` come field 3 (state) onwards; utime and stime are fields 14 and 15.
  const fields = stat
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error('no utime/stime in stat line');
  return utime + stime;
}

/** Busy and total ticks of the whole machine (all cores), from the `cpu` line of /proc/stat. */
export function parseMachineTicks(procStat: string): { busy: number; total: number } {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('no cpu line in /proc/stat');
  // user nice system idle iowait irq softirq steal (guest time is already inside user).
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map((v) => Number(v) || 0);
  const busy = user + nice + system + irq + softirq;
  return { busy, total: busy + idle + iowait + steal };
}

export function processTicks(pid: number): number {
  return parseProcessTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

export function machineTicks(): { busy: number; total: number } {
  return parseMachineTicks(readFileSync('/proc/stat', 'utf8'));
}

export interface CpuSnapshot {
  at: number;
  /** Ticks per named process. */
  processes: Record<string, number>;
  machine: { busy: number; total: number };
}

export interface CpuDelta {
  elapsedMs: number;
  /** CPU milliseconds per named process over the interval. */
  processesMs: Record<string, number>;
  /** CPU milliseconds of the whole machine over the interval, and how busy it was (0..1 of all cores). */
  machineBusyMs: number;
  machineBusyShare: number;
}

/** Reads the CPU times of the given processes (name → pid) and of the machine at one instant. */
export function snapshot(pids: Record<string, number>): CpuSnapshot {
  return {
    at: performance.now(),
    processes: Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, processTicks(pid)])),
    machine: machineTicks(),
  };
}

export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot, ticksPerSecond: number): CpuDelta {
  const toMs = (ticks: number): number => (ticks * 1000) / ticksPerSecond;
  const busy = after.machine.busy - before.machine.busy;
  const total = after.machine.total - before.machine.total;
  return {
    elapsedMs: after.at - before.at,
    processesMs: Object.fromEntries(
      Object.entries(after.processes).map(([name, ticks]) => [
        name,
        toMs(ticks - (before.processes[name] ?? 0)),
      ]),
    ),
    machineBusyMs: toMs(busy),
    machineBusyShare: total > 0 ? busy / total : 0,
  };
}

/**
 * The machine's busy CPU over the interval that none of the measured processes used: the services they talk to
 * (PostgreSQL, NATS, the S3 emulator) and the kernel's share.
 */
export function unmeasuredMs(delta: CpuDelta): number {
  return delta.machineBusyMs - Object.values(delta.processesMs).reduce((sum, ms) => sum + ms, 0);
}
