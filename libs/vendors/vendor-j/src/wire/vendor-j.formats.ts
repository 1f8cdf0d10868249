/** The vendor's only audio: 16-bit signed little-endian PCM, mono, at this rate. */
export const VENDOR_J_SAMPLE_RATE = 24000;
/** The `inlineData.mimeType` of bare PCM parts. */
export const VENDOR_J_PCM_MIME = 'audio/L16;codec=pcm;rate=24000';
export const VENDOR_J_WAV_MIME = 'audio/wav';
/** The newest model answers `generateContent` with a WAV file instead of bare PCM. */
export const VENDOR_J_WAV_MODELS: readonly string[] = ['j_model_3'];
