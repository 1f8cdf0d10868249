export * from './vendor-sim.app';
export { simConfigFromEnv } from './vendor-sim.options';
export { SimControl, type InjectFault, type CallQuery } from './control/sim-control.client';
export { CONTROL_PREFIX } from './control/control.routes';
export type { CallRecord, CallCounts } from './kit/call-log';
export type { ReadCounts } from './kit/read-log';
export type { FaultKind, FaultSpec, FaultState } from './kit/faults';
export type { Pacing } from './kit/pacing';
export { DEFAULT_PACING } from './kit/pacing';
export { SimState } from './kit/sim-state';
export { checkKey, simKeyId } from './kit/sim-keys';
export * from './kit/audio/audio-spec';
export { readTakeId, findTakeIds } from './kit/audio/read-take-id';
export {
  createTake,
  spokenMs,
  takePieces,
  DEFAULT_MS_PER_CHAR,
  type Take,
  type TakePiece,
  type CharTiming,
} from './kit/audio/take';
export { parseWav, wavHeader, type WavInfo, WAV_HEADER_BYTES } from './kit/audio/pcm.codec';
export {
  parseMp3,
  parseMp3Header,
  mp3Bitrate,
  mp3SamplesPerFrame,
  id3Length,
  type Mp3Frame,
  type Mp3Parse,
} from './kit/audio/mp3.codec';
export { parseAdts, type AdtsFrame } from './kit/audio/aac.codec';
export { parseOgg, type OggPage } from './kit/audio/ogg-opus.codec';
export { parseFlacStreamInfo, type FlacStreamInfo } from './kit/audio/flac.codec';
export { mulawToLinear, alawToLinear } from './kit/audio/g711.codec';
export { sampleCount } from './kit/audio/sample-source';
export { vendorGTake } from './vendor-g/vendor-g.audio';
