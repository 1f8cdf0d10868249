import { appEnvSchemas, env, type EnvDoc, ENV_DOCS } from '@router/config';
import { MIRRORS } from '@router/vendors';
import { envReference, envReferenceTable, unreadEnvDocs, valuesEnvComment } from './env-reference';

const schemas = appEnvSchemas(MIRRORS.map((mirror) => mirror.vendor));

describe('the configuration reference', () => {
  it('documents every variable of every app once, and nothing no app reads', () => {
    expect(() => envReference(schemas)).not.toThrow();
    expect(unreadEnvDocs(schemas)).toEqual([]);
  });

  it('reads the apps and each default from the schemas, mirror apps folded into "mirrors"', () => {
    const rows = envReference(schemas);
    const row = (variable: string) => rows.find((r) => r.variables.includes(variable));
    expect(row('CACHE_SWEEP_INTERVAL_MS')).toMatchObject({ apps: 'cache-service', defaults: '`3600000`' });
    expect(row('LOG_LEVEL')).toMatchObject({ apps: 'all', defaults: '`info`' });
    expect(row('MIRROR_SOCKET_IDLE_CAP_MS')).toMatchObject({ apps: 'mirrors', defaults: '`0`' });
    expect(row('CACHE_KEY_SECRET')).toMatchObject({
      apps: 'native-api, standalone, mirrors',
      defaults: '— (native-api, mirrors); unset (standalone)',
    });
    expect(row('PORT')?.defaults).toContain('`3011` … `3020` (mirrors)');
    // A family is one row with every member the schemas have, so a new vendor appears in it.
    expect(row('VENDOR_A_BASE_URL')?.variables).toEqual(
      Object.keys(schemas['synthesis-worker']).filter((name) => /^VENDOR_[A-Z]_BASE_URL$/.test(name)),
    );
  });

  it('refuses a variable no entry documents, naming it', () => {
    const withNew = {
      ...schemas,
      'cache-service': { ...schemas['cache-service'], CACHE_NEW_MS: env.int({ default: 1 }) },
    };
    expect(() => envReference(withNew)).toThrow('CACHE_NEW_MS is documented by 0 entries of ENV_DOCS');
  });

  it('refuses a row whose variables different apps read', () => {
    const names = (doc: EnvDoc): readonly string[] => (Array.isArray(doc.variables) ? doc.variables : []);
    const docs = ENV_DOCS.filter((doc) => !names(doc).includes('ADMIN_PORT')).map((doc) =>
      names(doc).includes('DATA_DIR') ? { ...doc, variables: ['DATA_DIR', 'ADMIN_PORT'] } : doc,
    );
    expect(() => envReference(schemas, docs)).toThrow(
      'ADMIN_PORT, DATA_DIR share a row but not their apps (DATA_DIR differ)',
    );
  });

  it('lays the table out as Prettier does: every cell padded to its column', () => {
    const table = envReferenceTable(envReference(schemas));
    const widths = table.map((line) => line.length);
    expect(new Set(widths).size).toBe(1);
    expect(table[1]).toMatch(/^\| -+ \| -+ \| -+ \| -+ \|$/);
  });
});

describe('valuesEnvComment', () => {
  it('lists every variable with its default, required ones marked, within the width', () => {
    const lines = valuesEnvComment(schemas['cache-service'], '    ', 110);
    const text = lines.join(' ');
    expect(text).toContain('NATS_URL (required)');
    expect(text).toContain('CACHE_USAGE_FLUSH_MS=2000');
    expect(text).toContain('NATS_SUBJECT_PREFIX,');
    for (const line of lines) {
      expect(line.startsWith('    #')).toBe(true);
      expect(line.length).toBeLessThanOrEqual(110);
    }
  });
});
