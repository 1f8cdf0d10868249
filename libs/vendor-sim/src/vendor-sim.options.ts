import type { Pacing } from './kit/pacing';

export interface VendorSimConfig {
  /** 0 picks a free port (tests); the running simulator reports the one it got. */
  port: number;
  host?: string;
  /** Start-up pacing for every vendor; tests change it at run time through `SimControl`. */
  pacing?: Partial<Pacing>;
  /** Audio per character at speed 1 (default 60 ms). */
  msPerChar?: number;
}

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
