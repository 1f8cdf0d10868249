/** The parts of a V8 `.cpuprofile` (Profiler.stop's result) this summary reads. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }>;
  /** Microseconds on the monotonic clock, the same clock as `process.hrtime` in every process. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Cost {
  name: string;
  ms: number;
  /** Of the busy time in the window. */
  share: number;
}

export interface CostSummary {
  busyMs: number;
  byFunction: Cost[];
  byModule: Cost[];
}

/** Where a frame's code lives: a package, a Node module, a project lib, or V8 itself. */
export function moduleOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return '(garbage collector)';
  if (!url) return '(native: syscalls, V8 builtins)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0] ?? ''}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const project = /\/dist\/((?:libs|apps|tools)\/(?:vendors\/)?[^/]+)/.exec(url);
  if (project) return project[1];
  if (url.startsWith('wasm://')) return '(wasm)';
  return url;
}

function frameName(frame: { functionName: string; url: string; lineNumber: number }): string {
  const where = frame.url.replace(/^.*\/(node_modules|dist)\//, '');
  return where
    ? `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`
    : frame.functionName;
}

const NOT_BUSY = new Set(['(idle)', '(program)']);

/**
 * Self time per function and per module over the samples taken between `fromUs` and `toUs` (the whole
 * profile without them), idle left out: what the process spent its CPU on in that window.
 */
export function summarizeProfile(
  profile: CpuProfile,
  window: { fromUs?: number; toUs?: number } = {},
  top = 12,
): CostSummary {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  let busyUs = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (
      (window.fromUs !== undefined && at < window.fromUs) ||
      (window.toUs !== undefined && at > window.toUs)
    ) {
      continue;
    }
    const frame = frames.get(profile.samples[i]);
    if (!frame || NOT_BUSY.has(frame.functionName)) continue;
    // A sample's delta is the time since the previous sample: the time this one stands for.
    busyUs += delta;
    const fn = frameName(frame);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + delta);
    const mod = moduleOf(frame.url, frame.functionName);
    byModule.set(mod, (byModule.get(mod) ?? 0) + delta);
  }
  const ranked = (m: Map<string, number>): Cost[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, share: busyUs > 0 ? us / busyUs : 0 }));
  return {
    busyMs: Math.round(busyUs / 100) / 10,
    byFunction: ranked(byFunction),
    byModule: ranked(byModule),
  };
}
