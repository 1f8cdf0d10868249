import { VENDOR_TOKENS, type VendorToken } from './common-env';
import { ConfigError, loadConfig, requiredVariables } from './env-schema';
import {
  mirrorAppEnv,
  mirrorAppName,
  mirrorAppPort,
  mirrorAppVendor,
  mirrorUpstreamEnv,
  mirrorUrls,
  mirrorUrlVariable,
} from './mirror-env';

const ALL: VendorToken[] = VENDOR_TOKENS.map((letter) => `vendor_${letter}` as const);

describe('a mirror app as deployments name it', () => {
  it('is mirror-vendor-x on 3011 + the vendor place, reached through MIRROR_VENDOR_X_URL', () => {
    expect([mirrorAppName('vendor_c'), mirrorAppPort('vendor_c'), mirrorUrlVariable('vendor_c')]).toEqual([
      'mirror-vendor-c',
      3013,
      'MIRROR_VENDOR_C_URL',
    ]);
    expect(ALL.map(mirrorAppPort)).toEqual([3011, 3012, 3013, 3014, 3015, 3016, 3017, 3018, 3019, 3020]);
    expect(new Set(ALL.map(mirrorAppName)).size).toBe(10);
  });

  it("reads the vendor back from an app's name, and nothing from another name", () => {
    expect(ALL.map((vendor) => mirrorAppVendor(mirrorAppName(vendor)))).toEqual(ALL);
    for (const name of [
      'mirror-vendor-k',
      'mirror-vendor-cc',
      'native-api',
      'mirror-vendor-',
      'xmirror-vendor-c',
    ]) {
      expect(mirrorAppVendor(name)).toBeUndefined();
    }
  });

  it('refuses a string that is not a vendor token', () => {
    expect(() => mirrorAppName('vendor_k' as VendorToken)).toThrow(/vendor_k/);
  });

  it('reads its own default PORT and needs what every app that plays replies needs', () => {
    const schema = mirrorAppEnv('vendor_j');
    expect(requiredVariables(schema).sort()).toEqual(
      [
        'NATS_URL',
        'DATABASE_URL',
        'S3_ENDPOINT',
        'S3_ACCESS_KEY',
        'S3_SECRET_KEY',
        'INTERNAL_SIGNING_SECRET',
        'PROVIDER_KEY_MASTER_KEYS',
        'CACHE_KEY_SECRET',
      ].sort(),
    );
    const config = loadConfig(schema, {
      NATS_URL: 'nats://127.0.0.1:4222',
      DATABASE_URL: 'postgresql://router@127.0.0.1/router',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY: 'a',
      S3_SECRET_KEY: 'b',
      INTERNAL_SIGNING_SECRET: 's'.repeat(32),
      PROVIDER_KEY_MASTER_KEYS: '1:x',
      CACHE_KEY_SECRET: 'c'.repeat(32),
    });
    expect(config.PORT).toBe(3020);
  });
});

describe('mirror app URLs (gateway)', () => {
  it('has a variable for each vendor given and none for the others', () => {
    expect(Object.keys(mirrorUpstreamEnv(['vendor_c', 'vendor_j']))).toEqual([
      'MIRROR_VENDOR_C_URL',
      'MIRROR_VENDOR_J_URL',
    ]);
    expect(mirrorUpstreamEnv([])).toEqual({});
  });

  it('keys the configured mirror apps by vendor token and leaves the others out', () => {
    const vendors: VendorToken[] = ['vendor_a', 'vendor_c', 'vendor_j'];
    const config = loadConfig(mirrorUpstreamEnv(vendors), {
      MIRROR_VENDOR_C_URL: 'http://mirror-vendor-c:3013',
      MIRROR_VENDOR_J_URL: 'http://127.0.0.1:3020',
      // Not a vendor given: not read.
      MIRROR_VENDOR_B_URL: 'http://mirror-vendor-b:3012',
    });
    expect(mirrorUrls(config, vendors)).toEqual({
      vendor_c: 'http://mirror-vendor-c:3013',
      vendor_j: 'http://127.0.0.1:3020',
    });
    expect(mirrorUrls(loadConfig(mirrorUpstreamEnv(vendors), {}), vendors)).toEqual({});
  });

  it('refuses a mirror URL that is not plain http, naming the variable', () => {
    const schema = mirrorUpstreamEnv(['vendor_a']);
    expect(() => loadConfig(schema, { MIRROR_VENDOR_A_URL: 'ftp://mirror' })).toThrow(ConfigError);
    expect(() => loadConfig(schema, { MIRROR_VENDOR_A_URL: 'ftp://mirror' })).toThrow(/MIRROR_VENDOR_A_URL/);
  });
});
