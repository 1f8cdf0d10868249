import { type CpuProfile, moduleOf, summarizeProfile } from './profile-summary';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

/** Three functions and idle; samples 1 ms apart starting at t = 1000 µs. */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)') },
    { id: 2, callFrame: frame('(idle)') },
    { id: 3, callFrame: frame('commit', 'file:///r/dist/libs/cache/src/commit-take.js', 9) },
    { id: 4, callFrame: frame('request', 'file:///r/node_modules/@prisma/client/runtime/client.js', 70) },
    { id: 5, callFrame: frame('(garbage collector)') },
  ],
  startTime: 1000,
  samples: [3, 4, 4, 2, 5, 4, 3],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000],
};

describe('summarizeProfile', () => {
  it('ranks self time per function and per module, idle left out', () => {
    const s = summarizeProfile(profile);
    expect(s.busyMs).toBe(6);
    expect(s.byModule.map((c) => [c.name, c.ms])).toEqual([
      ['@prisma/client', 3],
      ['libs/cache', 2],
      ['(garbage collector)', 1],
    ]);
    expect(s.byFunction[0]).toEqual({
      name: 'request @prisma/client/runtime/client.js:71',
      ms: 3,
      share: 0.5,
    });
  });

  it('keeps only the samples inside the window', () => {
    // Samples fall at 2000, 3000, … 8000 µs: 4000..6000 holds request, idle and GC.
    const s = summarizeProfile(profile, { fromUs: 4000, toUs: 6000 });
    expect(s.busyMs).toBe(2);
    expect(s.byModule.map((c) => c.name).sort()).toEqual(['(garbage collector)', '@prisma/client']);
  });
});

describe('moduleOf', () => {
  it('names packages, Node modules, project libs and V8 itself', () => {
    expect(moduleOf('file:///r/node_modules/undici/lib/core/request.js', 'x')).toBe('undici');
    expect(moduleOf('node:internal/streams/pipeline', 'x')).toBe('node:internal');
    expect(moduleOf('file:///r/dist/libs/vendors/vendor-a/src/a.js', 'x')).toBe('libs/vendors/vendor-a');
    expect(moduleOf('file:///r/dist/apps/native-api/main.js', 'x')).toBe('apps/native-api');
    expect(moduleOf('', 'writev')).toBe('(native: syscalls, V8 builtins)');
    expect(moduleOf('', '(garbage collector)')).toBe('(garbage collector)');
  });
});
