import type { AudioSpec, SimCodec } from '../kit/audio/audio-spec';
import {
  findVendorEModel,
  VENDOR_E_DEFAULT_V1_MODEL,
  VENDOR_E_GENERATIONS,
  type VendorEGeneration,
  type VendorEVoiceModel,
} from './vendor-e.models';

const CODECS: Readonly<Record<string, SimCodec>> = { linear16: 'pcm', mulaw: 'mulaw', alaw: 'alaw' };
const RATES: Readonly<Record<VendorEGeneration, readonly number[]>> = {
  v1: [8000, 16000, 24000, 32000, 48000],
  v2: [8000, 16000, 24000, 32000, 44100, 48000],
};
/** The second generation's socket takes speed in 0.05 steps from 0.85 to 1.15. */
export const V2_SPEED = { min: 0.85, max: 1.15, step: 0.05 };

export interface VendorESocketSettings {
  readonly model: VendorEVoiceModel;
  /** Raw audio only on the sockets (no container). */
  readonly spec: AudioSpec;
  readonly speed: number;
}

/** The second generation's speed rule; a message for a refusal, or null. */
export function v2SpeedProblem(speed: number): string | null {
  const steps = (speed - V2_SPEED.min) / V2_SPEED.step;
  if (
    !(speed >= V2_SPEED.min - 1e-9 && speed <= V2_SPEED.max + 1e-9) ||
    Math.abs(steps - Math.round(steps)) > 1e-6
  ) {
    return `speed must be between ${V2_SPEED.min} and ${V2_SPEED.max} in steps of ${V2_SPEED.step}`;
  }
  return null;
}

/** A socket's query (settings are fixed for the connection, apart from v2 `Configure`). */
export function parseVendorESocketQuery(
  generation: VendorEGeneration,
  query: URLSearchParams,
): { ok: true; settings: VendorESocketSettings } | { ok: false; message: string } {
  const name = query.get('model') ?? (generation === 'v1' ? VENDOR_E_DEFAULT_V1_MODEL : null);
  if (name === null) return { ok: false, message: 'model is required' };
  const model = findVendorEModel(name);
  if (!model || VENDOR_E_GENERATIONS[model.architecture] !== generation) {
    return { ok: false, message: `Model ${name} is not available on /${generation}/speak` };
  }
  const encoding = query.get('encoding') ?? 'linear16';
  const codec = CODECS[encoding];
  if (!codec) return { ok: false, message: `Unsupported encoding: ${encoding}` };
  const rateText = query.get('sample_rate');
  const rate = rateText === null ? 24000 : Number(rateText);
  if (!RATES[generation].includes(rate)) {
    return { ok: false, message: `sample_rate must be one of ${RATES[generation].join(', ')}` };
  }
  const speedText = query.get('speed');
  const speed = speedText === null ? 1.0 : Number(speedText);
  const speedProblem =
    generation === 'v2'
      ? v2SpeedProblem(speed)
      : speed >= 0.7 && speed <= 1.5
        ? null
        : 'speed must be between 0.7 and 1.5';
  if (speedProblem) return { ok: false, message: speedProblem };
  const expressivity = query.get('expressivity');
  if (generation === 'v2' && expressivity !== null && !['-2', '-1', '0', '1', '2'].includes(expressivity)) {
    return { ok: false, message: 'expressivity must be an integer from -2 to 2' };
  }
  return { ok: true, settings: { model, spec: { codec, sampleRate: rate }, speed } };
}
