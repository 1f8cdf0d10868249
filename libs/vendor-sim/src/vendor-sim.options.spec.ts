import { loadConfig, vendorSimEnv } from '@router/config';
import { DEFAULT_MS_PER_CHAR } from './kit/audio/take';
import { DEFAULT_PACING } from './kit/pacing';
import { simConfigFromEnv } from './vendor-sim.options';

describe('the simulator environment (libs/config vendorSimEnv)', () => {
  it("defaults to the simulator's own pacing and audio length, so an unset variable changes nothing", () => {
    expect(simConfigFromEnv(loadConfig(vendorSimEnv, {}))).toEqual({
      pacing: DEFAULT_PACING,
      msPerChar: DEFAULT_MS_PER_CHAR,
    });
  });

  it('reads each variable into its place', () => {
    const config = loadConfig(vendorSimEnv, {
      SIM_TTFA_MS: '250',
      SIM_PACING: '1.5',
      SIM_CHUNK_MS: '40',
      SIM_MS_PER_CHAR: '70',
    });
    expect(simConfigFromEnv(config)).toEqual({
      pacing: { ttfaMs: 250, factor: 1.5, chunkMs: 40 },
      msPerChar: 70,
    });
  });

  it('refuses a negative pacing factor, naming it', () => {
    expect(() => loadConfig(vendorSimEnv, { SIM_PACING: '-1' })).toThrow('SIM_PACING must be a number >= 0');
  });
});
