import { ConfigError, env, loadConfig, requiredVariables } from './env-schema';

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

describe('env.portBeside', () => {
  const schema = {
    PORT: env.int({ default: 8080, min: 0, max: 65535 }),
    INTERNAL_PORT: env.portBeside('PORT', 1),
  };

  it('puts an unset port beside the one it follows, so a second process given another PORT moves with it', () => {
    expect(loadConfig(schema, {})).toEqual({ PORT: 8080, INTERNAL_PORT: 8081 });
    expect(loadConfig(schema, { PORT: '18080' })).toEqual({ PORT: 18080, INTERNAL_PORT: 18081 });
  });

  it('takes a port that is set as it is', () => {
    expect(loadConfig(schema, { PORT: '18080', INTERNAL_PORT: '9999' }).INTERNAL_PORT).toBe(9999);
    expect(() => loadConfig(schema, { INTERNAL_PORT: '70000' })).toThrow(
      'INTERNAL_PORT must be at most 65535',
    );
  });

  it('leaves it to the system when the port it follows is (PORT 0: any free port)', () => {
    expect(loadConfig(schema, { PORT: '0' }).INTERNAL_PORT).toBe(0);
  });

  it('asks for it by name when the port beside would be past the last one', () => {
    expect(() => loadConfig(schema, { PORT: '65535' })).toThrow(
      'INTERNAL_PORT must be set when PORT is above 65534',
    );
  });

  it('names only the bad variable when the one it follows is bad', () => {
    expect(() => loadConfig(schema, { PORT: 'x' })).toThrow(ConfigError);
    try {
      loadConfig(schema, { PORT: 'x' });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual(['PORT must be an integer, got "x"']);
    }
  });
});

describe('requiredVariables', () => {
  it('names the variables without a default, in schema order, and no optional or defaulted one', () => {
    expect(
      requiredVariables({
        PORT: env.int({ default: 8080 }),
        NATS_URL: env.url({ protocols: ['nats'] }),
        INTERNAL_PORT: env.portBeside('PORT', 1),
        TOKEN: env.optionalString(),
        SECRET: env.string({ minLength: 32 }),
        MODE: env.oneOf(['a', 'b'] as const),
      }),
    ).toEqual(['NATS_URL', 'SECRET', 'MODE']);
  });
});

describe('env.optionalStringWith', () => {
  const schema = { CERT: env.optionalString(), KEY: env.optionalStringWith('CERT') };

  it('takes both or neither', () => {
    expect(loadConfig(schema, {})).toEqual({ CERT: undefined, KEY: undefined });
    expect(loadConfig(schema, { CERT: 'c.pem', KEY: 'k.pem' })).toEqual({ CERT: 'c.pem', KEY: 'k.pem' });
  });

  it('refuses one without the other, naming both', () => {
    for (const given of [{ CERT: 'c.pem' }, { KEY: 'k.pem' }]) {
      expect(() => loadConfig(schema, given)).toThrow('CERT and KEY go together: set both or neither');
    }
  });
});
