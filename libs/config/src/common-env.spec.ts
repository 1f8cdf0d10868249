import { mirrorUpstreamEnv, mirrorUrls } from './common-env';
import { ConfigError, loadConfig } from './env-schema';

describe('mirror app URLs', () => {
  it('keys the configured mirror apps by vendor token and leaves the others out', () => {
    const config = loadConfig(mirrorUpstreamEnv, {
      MIRROR_VENDOR_C_URL: 'http://mirror-vendor-c:3105',
      MIRROR_VENDOR_J_URL: 'http://127.0.0.1:3114',
    });
    expect(mirrorUrls(config)).toEqual({
      vendor_c: 'http://mirror-vendor-c:3105',
      vendor_j: 'http://127.0.0.1:3114',
    });
    expect(mirrorUrls(loadConfig(mirrorUpstreamEnv, {}))).toEqual({});
  });

  it('refuses a mirror URL that is not plain http, naming the variable', () => {
    expect(() => loadConfig(mirrorUpstreamEnv, { MIRROR_VENDOR_A_URL: 'ftp://mirror' })).toThrow(ConfigError);
    expect(() => loadConfig(mirrorUpstreamEnv, { MIRROR_VENDOR_A_URL: 'ftp://mirror' })).toThrow(
      /MIRROR_VENDOR_A_URL/,
    );
  });
});
