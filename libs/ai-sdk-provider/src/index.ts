export { createSpeechRouter, speechRouter } from './speech-router.provider';
export type { SpeechRouterProvider } from './speech-router.provider';
export { API_KEY_ENV, BASE_URL_ENV, PROVIDER_OPTIONS_KEY, SpeechRouterSpeechModel } from './speech-model';
export type { ModelDefaults, SpeechResult, SpeechRouterProviderSettings } from './speech-model';
export type {
  ModelOf,
  SpeechRouterProviderOptions,
  SpeechSettings,
  VendorOf,
  VendorSpeechSettings,
} from './speech-settings';
