// An ES-module app using both packages as their READMEs do; type errors fail the check, and so does a run that
// finds the plugin's classes not to be the framework's own.
import { tts as framework } from '@livekit/agents';
import { TTS, type TTSOptions, isRouterTTSMetrics } from '@speech-router/livekit-plugin';
import { createSpeechRouter, type SpeechRouterProviderOptions } from '@speech-router/ai-sdk-provider';
import { createProviderRegistry, experimental_generateSpeech as generateSpeech } from 'ai';

const options: TTSOptions = {
  vendor: 'vendor_c',
  model: 'c_model_1',
  voice: 'a-voice-id',
  sampleRate: 16000,
  options: { voice_settings: { stability: 0.5, similarity_boost: 0.75 }, sync_alignment: true },
  baseUrl: 'http://127.0.0.1:9',
  apiKey: 'rtr_example',
};
const router = createSpeechRouter({ baseURL: 'http://127.0.0.1:9', apiKey: 'rtr_example' });
const plugin = new TTS(options);
/** Settings the types refuse (never run: each would be refused by the router too). */
export function refusedByTypes(): void {
  // @ts-expect-error vendor_b makes no mp3
  void new TTS({ vendor: 'vendor_b', model: 'b_model_1', voice: 'v', language: 'hi', format: 'mp3' });
  // @ts-expect-error vendor_a needs a language
  void new TTS({ vendor: 'vendor_a', model: 'a_model_1', voice: 'aarila' });
  // @ts-expect-error c_model_1 is vendor_c's, not vendor_d's
  void new TTS({ vendor: 'vendor_d', model: 'c_model_1', voice: 'brook' });
  // @ts-expect-error vendor_a has no model a_model_9
  router.speech('vendor_a/a_model_9');
}

const model = router.speech('vendor_a/a_model_1', {
  voice: 'aarila',
  language: 'en-IN',
  options: { temperature: 0.4 },
});
const registry = createProviderRegistry({ speechRouter: router });
const fromRegistry = registry.speechModel('speechRouter:vendor_j/j_model_1');
const providerOptions = {
  sample_rate: 16000,
  voice_settings: { stability: 0.4, similarity_boost: 0.8 },
} satisfies SpeechRouterProviderOptions<'vendor_c'>;
const call: Parameters<typeof generateSpeech>[0] = {
  model,
  text: 'Hello.',
  providerOptions: { speechRouter: providerOptions },
};

if (!(plugin instanceof framework.TTS))
  throw new Error('ES module: the plugin TTS is not a @livekit/agents TTS');
if (plugin.sampleRate !== 16000 || plugin.numChannels !== 1 || !plugin.capabilities.streaming) {
  throw new Error('ES module: the plugin TTS has the wrong audio settings');
}
if (
  model.specificationVersion !== 'v3' ||
  typeof call.model !== 'object' ||
  isRouterTTSMetrics({ type: 'x' })
) {
  throw new Error('ES module: the AI SDK model is not a v3 speech model');
}
void plugin.close();
console.log('packages: the ES-module consumer type-checks and runs');
