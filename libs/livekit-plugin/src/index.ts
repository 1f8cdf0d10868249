export { TTS, ChunkedStream, SynthesizeStream, isRouterTTSMetrics } from './tts';
export type { RouterTTSMetrics } from './tts';
export { API_KEY_ENV, BASE_URL_ENV, DEFAULT_SAMPLE_RATE } from './tts.options';
export type { RouterConnectionOptions, TTSOptions, VendorTTSOptions, VoiceOptions } from './tts.options';
export { USERDATA_SENTENCE } from './reply';
export type { FrameSentence } from './reply';
export { AudioFormatError, PCM_FORMATS } from './pcm-decoder';
export type { PcmFormat } from './pcm-decoder';
