import { chartApps } from './chart-apps';

describe('chartApps', () => {
  const values = {
    apps: { 'native-api': { enabled: true, replicas: 2 } },
    mirrorDefaults: {
      replicas: 2,
      resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '512Mi' } },
      env: { A: '1' },
      secretEnv: ['DATABASE_URL', 'CACHE_KEY_SECRET'],
    },
    mirrors: {
      'mirror-vendor-c': {
        enabled: true,
        port: 3013,
        resources: { limits: { memory: '1Gi' } },
        env: { B: '2' },
        secretEnv: ['DATABASE_URL'],
      },
      'mirror-vendor-j': { enabled: false, port: 3020, replicas: 5 },
    },
  };

  it('keeps the apps and merges each mirror over the defaults, the mirror winning', () => {
    const apps = chartApps(values);
    expect(Object.keys(apps)).toEqual(['native-api', 'mirror-vendor-c', 'mirror-vendor-j']);
    expect(apps['native-api']).toBe(values.apps['native-api']);
    expect(apps['mirror-vendor-c']).toEqual({
      enabled: true,
      port: 3013,
      replicas: 2,
      // Maps merge key by key; a list is replaced whole.
      resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '1Gi' } },
      env: { A: '1', B: '2' },
      secretEnv: ['DATABASE_URL'],
      sharedConfig: true,
    });
    expect(apps['mirror-vendor-j']).toMatchObject({ enabled: false, replicas: 5, port: 3020 });
  });

  it('leaves the defaults as they were', () => {
    const before = structuredClone(values.mirrorDefaults);
    chartApps(values);
    expect(values.mirrorDefaults).toEqual(before);
  });
});
