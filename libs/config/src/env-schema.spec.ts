import { ConfigError, env, loadConfig } from './env-schema';

describe('loadConfig', () => {
  const schema = {
    PORT: env.int({ default: 8080, min: 1, max: 65535 }),
    NATS_URL: env.url({ protocols: ['nats'] }),
    VERBOSE: env.bool({ default: false }),
    MODE: env.oneOf(['a', 'b'] as const, { default: 'a' }),
  };

  it('applies defaults and parses values', () => {
    expect(loadConfig(schema, { NATS_URL: 'nats://127.0.0.1:4222', VERBOSE: 'yes' })).toEqual({
      PORT: 8080,
      NATS_URL: 'nats://127.0.0.1:4222',
      VERBOSE: true,
      MODE: 'a',
    });
  });

  it('names every bad variable at once', () => {
    let caught: unknown;
    try {
      loadConfig(schema, { PORT: '70000', NATS_URL: 'http://x', MODE: 'c' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems).toEqual([
      'PORT must be at most 65535',
      'NATS_URL must use nats, got http:',
      'MODE must be one of a, b',
    ]);
  });

  it('reports a missing required variable by name', () => {
    expect(() => loadConfig(schema, {})).toThrow('NATS_URL is required');
  });

  it('refuses a non-integer', () => {
    expect(() => loadConfig(schema, { NATS_URL: 'nats://x', PORT: '80a' })).toThrow(
      'PORT must be an integer',
    );
  });
});
