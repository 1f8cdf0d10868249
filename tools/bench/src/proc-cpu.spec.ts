import { cpuBetween, parseMachineTicks, parseProcessTicks } from './proc-cpu';

describe('parseProcessTicks', () => {
  it('adds utime and stime (fields 14 and 15)', () => {
    const stat =
      '17700 (node) S 17694 17694 15392 0 -1 4194304 100 0 0 0 250 37 0 0 20 0 11 0 421803 3133440 412';
    expect(parseProcessTicks(stat)).toBe(287);
  });

  it('counts fields after the last parenthesis, whatever the command name holds', () => {
    const stat = '42 (we ird) (name)) R 1 42 42 0 -1 0 0 0 0 0 7 5 0 0 20 0 1 0 100 0 0';
    expect(parseProcessTicks(stat)).toBe(12);
  });

  it('refuses text that is not a stat line', () => {
    expect(() => parseProcessTicks('no parenthesis here')).toThrow('not a /proc/<pid>/stat line');
  });
});

describe('parseMachineTicks', () => {
  it('counts user, nice, system, irq and softirq as busy; idle, iowait and steal only in the total', () => {
    const procStat = 'cpu  100 10 50 800 20 3 7 10 0 0\ncpu0 50 5 25 400 10 1 3 5 0 0\n';
    expect(parseMachineTicks(procStat)).toEqual({ busy: 170, total: 1000 });
  });
});

describe('cpuBetween', () => {
  it('turns tick deltas into milliseconds at the given clock rate', () => {
    const before = { at: 1000, processes: { api: 10, worker: 5 }, machine: { busy: 100, total: 400 } };
    const after = { at: 3000, processes: { api: 60, worker: 5 }, machine: { busy: 300, total: 800 } };
    expect(cpuBetween(before, after, 100)).toEqual({
      elapsedMs: 2000,
      processesMs: { api: 500, worker: 0 },
      machineBusyMs: 2000,
      machineBusyShare: 0.5,
    });
  });
});
