import { chartEnvNames, composeEnvNames, configMapDataKeys } from './env-names';

describe('chartEnvNames', () => {
  const app = {
    sharedConfig: true,
    env: { A: '1' },
    secretEnv: ['DATABASE_URL'],
    optionalSecretEnv: ['ADMIN_TOKEN'],
  };

  it('collects the fixed, ConfigMap, plain, secret and extra variables', () => {
    const names = chartEnvNames({ ...app, extraEnv: [{ name: 'X' }] }, ['NATS_URL']);
    expect([...names].sort()).toEqual([
      'A',
      'ADMIN_TOKEN',
      'DATABASE_URL',
      'LOG_LEVEL',
      'NATS_URL',
      'PORT',
      'X',
    ]);
  });

  it("adds the mirrors' URLs only for an app with mirrorUrls", () => {
    const urls = ['MIRROR_VENDOR_C_URL'];
    expect(chartEnvNames({ ...app, mirrorUrls: true }, [], urls).has('MIRROR_VENDOR_C_URL')).toBe(true);
    expect(chartEnvNames(app, [], urls).has('MIRROR_VENDOR_C_URL')).toBe(false);
  });

  it('leaves the ConfigMap out when the app does not read it', () => {
    expect(chartEnvNames({ ...app, sharedConfig: false }, ['NATS_URL']).has('NATS_URL')).toBe(false);
  });
});

describe('configMapDataKeys', () => {
  it('reads the keys under data: and stops at the end of the block', () => {
    const template =
      'kind: ConfigMap\ndata:\n  NATS_URL: {{ .Values.nats.url | quote }}\n  S3_BUCKET: x\nother: 1\n';
    expect(configMapDataKeys(template)).toEqual(['NATS_URL', 'S3_BUCKET']);
  });

  it('refuses a template without data', () => {
    expect(() => configMapDataKeys('kind: ConfigMap\n')).toThrow('No data');
  });
});

describe('composeEnvNames', () => {
  it('reads the map and the list forms', () => {
    expect([...composeEnvNames({ A: '1', B: null })]).toEqual(['A', 'B']);
    expect([...composeEnvNames(['A=1', 'B'])]).toEqual(['A', 'B']);
    expect(composeEnvNames(undefined).size).toBe(0);
  });
});
