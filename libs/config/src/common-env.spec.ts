import { requestLogEnv } from './common-env';
import { loadConfig } from './env-schema';

describe('requestLogEnv', () => {
  it('keeps the request log on unless REQUEST_LOG_ENABLED turns it off', () => {
    expect(loadConfig(requestLogEnv, {}).REQUEST_LOG_ENABLED).toBe(true);
    expect(loadConfig(requestLogEnv, { REQUEST_LOG_ENABLED: 'false' }).REQUEST_LOG_ENABLED).toBe(false);
    expect(loadConfig(requestLogEnv, { REQUEST_LOG_ENABLED: 'true' }).REQUEST_LOG_ENABLED).toBe(true);
    expect(() => loadConfig(requestLogEnv, { REQUEST_LOG_ENABLED: 'perhaps' })).toThrow(
      'REQUEST_LOG_ENABLED',
    );
  });
});
