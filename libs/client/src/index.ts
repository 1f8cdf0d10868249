export { RouterClient } from './router.client';
export type { CallOptions, ProviderKeysApi, RouterClientOptions } from './router.client';
export type { SpeechAudio } from './speech-audio.stream';
export { StreamSession } from './stream.session';
export type { CloseInfo, FlushResult, InterruptResult, StreamOptions } from './stream.session';
export type { Sentence, SentenceEnd, WordTiming } from './stream-sentence';
export { RouterApiError, RouterConnectionError, StreamClosedError } from './client.errors';
export type { RouterErrorBody, RouterErrorCode } from './client.errors';
export type * from './api.types';
export { PROVIDER_IDS } from './api.types';
export type {
  AudioFrame,
  ClientMessage,
  CloseMessage,
  ErrorMessage,
  FlushMessage,
  FlushedMessage,
  InterruptMessage,
  InterruptedMessage,
  ReadyMessage,
  ResolvedStreamSettings,
  SentenceEndMessage,
  SentenceStartMessage,
  ServerMessage,
  SettingsMessage,
  StreamEvent,
  StreamSettings,
  TextMessage,
  WireWordTiming,
  WordsMessage,
} from './stream.messages';
export type {
  HandshakeResponse,
  WebSocketConstructor,
  WebSocketData,
  WebSocketLike,
} from './websocket.types';
export type { VendorCatalogue } from './vendors.generated';
export { VENDOR_TRAITS } from './vendors.generated';
export type {
  VendorAOptions,
  VendorBOptions,
  VendorCOptions,
  VendorDOptions,
  VendorEOptions,
  VendorFOptions,
  VendorGOptions,
  VendorHOptions,
  VendorIOptions,
  VendorJOptions,
} from './vendors.generated';
export type {
  LanguageSetting,
  ModelLanguage,
  ModelVoice,
  RouterModelId,
  SpeedSetting,
  VendorFormat,
  VendorModel,
  VendorOptions,
  VendorSpeechRate,
  VendorStreamRate,
  VendorVoice,
} from './vendor-settings';
