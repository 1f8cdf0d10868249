/**
 * Each app declares the environment it reads as a schema and validates it once at start-up; nothing else
 * reads `process.env`. A bad or missing variable stops the app with a message naming it.
 */
/**
 * Reads one variable from its raw value; `earlier` holds the variables the schema declares before it (one that
 * failed is there as undefined), for a default that follows another variable.
 */
export type EnvReader<T> = (
  raw: string | undefined,
  name: string,
  earlier: Readonly<Record<string, unknown>>,
) => T;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

class Invalid extends Error {}

function fail(message: string): never {
  throw new Invalid(message);
}

export const env = {
  string(options: { default?: string; minLength?: number } = {}): EnvReader<string> {
    return (raw, name) => {
      const value = raw === undefined || raw === '' ? options.default : raw;
      if (value === undefined) fail(`${name} is required`);
      if (options.minLength !== undefined && value.length < options.minLength) {
        fail(`${name} must be at least ${options.minLength} characters long`);
      }
      return value;
    };
  },
  /**
   * A port that, left unset, sits `offset` above the port variable `base` (declared before it), so the ports
   * of one process move together: a second process given another `base` starts beside the first. A `base` of
   * 0 (any free port) leaves this one to the system as well.
   */
  portBeside(base: string, offset: number): EnvReader<number> {
    const given = env.int({ min: 0, max: 65535 });
    return (raw, name, earlier) => {
      if (raw !== undefined && raw !== '') return given(raw, name, earlier);
      if (!(base in earlier)) throw new Error(`${name} follows ${base}: declare ${base} before it`);
      const port = earlier[base];
      if (typeof port !== 'number') return 0; // `base` is invalid: its own problem is reported
      if (port === 0) return 0;
      if (port + offset > 65535) fail(`${name} must be set when ${base} is above ${65535 - offset}`);
      return port + offset;
    };
  },
  optionalString(): EnvReader<string | undefined> {
    return (raw) => (raw === undefined || raw === '' ? undefined : raw);
  },
  /** An optional string that goes with the optional variable `partner` (declared before it): both set, or neither. */
  optionalStringWith(partner: string): EnvReader<string | undefined> {
    return (raw, name, earlier) => {
      if (!(partner in earlier))
        throw new Error(`${name} goes with ${partner}: declare ${partner} before it`);
      const value = raw === undefined || raw === '' ? undefined : raw;
      if ((value === undefined) !== (earlier[partner] === undefined)) {
        fail(`${partner} and ${name} go together: set both or neither`);
      }
      return value;
    };
  },
  int(options: { default?: number; min?: number; max?: number } = {}): EnvReader<number> {
    return (raw, name) => {
      if (raw === undefined || raw === '') {
        if (options.default === undefined) fail(`${name} is required`);
        return options.default;
      }
      if (!/^-?\d+$/.test(raw.trim())) fail(`${name} must be an integer, got "${raw}"`);
      const value = Number(raw);
      if (options.min !== undefined && value < options.min) fail(`${name} must be at least ${options.min}`);
      if (options.max !== undefined && value > options.max) fail(`${name} must be at most ${options.max}`);
      return value;
    };
  },
  bool(options: { default?: boolean } = {}): EnvReader<boolean> {
    return (raw, name) => {
      if (raw === undefined || raw === '') {
        if (options.default === undefined) fail(`${name} is required`);
        return options.default;
      }
      if (/^(1|true|yes|on)$/i.test(raw)) return true;
      if (/^(0|false|no|off)$/i.test(raw)) return false;
      fail(`${name} must be true or false, got "${raw}"`);
    };
  },
  url(options: { default?: string; protocols: string[]; optional?: boolean }): EnvReader<string> {
    return (raw, name) => {
      const value = raw === undefined || raw === '' ? options.default : raw;
      if (value === undefined) fail(`${name} is required`);
      let parsed: URL;
      try {
        parsed = new URL(value);
      } catch {
        fail(`${name} must be a URL (${options.protocols.join(', ')})`);
      }
      if (!options.protocols.includes(parsed.protocol.replace(/:$/, ''))) {
        fail(`${name} must use ${options.protocols.join(' or ')}, got ${parsed.protocol}`);
      }
      return value;
    };
  },
  optionalUrl(options: { protocols: string[] }): EnvReader<string | undefined> {
    const required = env.url(options);
    return (raw, name, earlier) =>
      raw === undefined || raw === '' ? undefined : required(raw, name, earlier);
  },
  oneOf<T extends string>(values: readonly T[], options: { default?: T } = {}): EnvReader<T> {
    return (raw, name) => {
      const value = raw === undefined || raw === '' ? options.default : raw;
      if (value === undefined) fail(`${name} is required`);
      if (!(values as readonly string[]).includes(value)) fail(`${name} must be one of ${values.join(', ')}`);
      return value as T;
    };
  },
};

export type EnvSchema = Record<string, EnvReader<unknown>>;
export type ConfigOf<S extends EnvSchema> = { [K in keyof S]: S[K] extends EnvReader<infer T> ? T : never };

/** Reads every variable of the schema, collecting all problems before failing, so one start names them all. */
export function loadConfig<S extends EnvSchema>(schema: S, source: NodeJS.ProcessEnv): ConfigOf<S> {
  const problems: string[] = [];
  const result: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(schema)) {
    try {
      result[name] = read(source[name], name, result);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      result[name] = undefined;
      problems.push(error.message);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return result as ConfigOf<S>;
}

/**
 * The variables of a schema with no default, without which the app does not start: what a deployment must
 * give it (the deployment checks read them from the schema rather than from a list of their own).
 */
export function requiredVariables(schema: EnvSchema): string[] {
  return Object.entries(variableDefaults(schema))
    .filter(([, unset]) => unset.required)
    .map(([name]) => name);
}

/** What a variable is when it is not set: required (the app does not start without it), or a value. */
export type VariableDefault =
  { readonly required: true } | { readonly required: false; readonly value: unknown };

/** Each variable of a schema read as unset, in order (a default that follows another sees its default). */
export function variableDefaults(schema: EnvSchema): Record<string, VariableDefault> {
  const earlier: Record<string, unknown> = {};
  const defaults: Record<string, VariableDefault> = {};
  for (const [name, read] of Object.entries(schema)) {
    try {
      earlier[name] = read(undefined, name, earlier);
      defaults[name] = { required: false, value: earlier[name] };
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      earlier[name] = undefined;
      defaults[name] = { required: true };
    }
  }
  return defaults;
}
