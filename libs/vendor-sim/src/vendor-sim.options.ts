import { ConfigError, env, type EnvReader } from '@router/config';
import { DEFAULT_MS_PER_CHAR } from './kit/audio/take';
import { DEFAULT_PACING, type Pacing } from './kit/pacing';

export interface VendorSimConfig {
  /** 0 picks a free port (tests); the running simulator reports the one it got. */
  port: number;
  host?: string;
  /** Start-up pacing for every vendor; tests change it at run time through `SimControl`. */
  pacing?: Partial<Pacing>;
  /** Audio per character at speed 1 (default 60 ms). */
  msPerChar?: number;
}

function nonNegativeNumber(options: { default: number }): EnvReader<number> {
  return (raw, name) => {
    if (raw === undefined || raw.trim() === '') return options.default;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0)
      throw new ConfigError([`${name} must be a number >= 0, got "${raw}"`]);
    return value;
  };
}

/** The simulator's own environment variables, for the app's config schema. */
export const vendorSimEnv = {
  /** Time to first audio, ms. */
  SIM_TTFA_MS: env.int({ default: DEFAULT_PACING.ttfaMs, min: 0 }),
  /** Real-time factor: 1 = audio at playback speed, 0 = as fast as possible. */
  SIM_PACING: nonNegativeNumber({ default: DEFAULT_PACING.factor }),
  SIM_CHUNK_MS: env.int({ default: DEFAULT_PACING.chunkMs, min: 1 }),
  SIM_MS_PER_CHAR: env.int({ default: DEFAULT_MS_PER_CHAR, min: 1 }),
};

export function simConfigFromEnv(config: {
  SIM_TTFA_MS: number;
  SIM_PACING: number;
  SIM_CHUNK_MS: number;
  SIM_MS_PER_CHAR: number;
}): Pick<VendorSimConfig, 'pacing' | 'msPerChar'> {
  return {
    pacing: { ttfaMs: config.SIM_TTFA_MS, factor: config.SIM_PACING, chunkMs: config.SIM_CHUNK_MS },
    msPerChar: config.SIM_MS_PER_CHAR,
  };
}
