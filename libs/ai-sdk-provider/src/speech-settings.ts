import type {
  LanguageSetting,
  ModelVoice,
  ProviderId,
  RouterModelId,
  SpeedSetting,
  VendorFormat,
  VendorModel,
  VendorOptions,
  VendorSpeechRate,
} from '@speech-router/client';

/** The vendor token of a router model id (`vendor_c/c_model_1` → `vendor_c`). */
export type VendorOf<M extends RouterModelId> = M extends `${infer V extends ProviderId}/${string}`
  ? V
  : never;
/** The model of a router model id without its vendor (`vendor_c/c_model_1` → `c_model_1`). */
export type ModelOf<M extends RouterModelId> = M extends `${ProviderId}/${infer X}` ? X : never;

/**
 * A model's default settings, typed from the router's catalogue for its vendor and model: what
 * `generateSpeech` leaves out is taken from here (its `voice`, `language`, `speed` and `outputFormat` win).
 */
export type VendorSpeechSettings<V extends ProviderId, M extends VendorModel<V>> = {
  voice?: ModelVoice<V, M>;
  /** The format the router sends (default `mp3` where the vendor makes it, else `wav`). */
  responseFormat?: VendorFormat<V>;
  /** One of the vendor's speech rates (the catalogue's `speech_sample_rates`); the router's default is 24000. */
  sampleRate?: VendorSpeechRate<V>;
  /** The vendor's options under their catalogue names (`GET /v1/models`). */
  options?: VendorOptions<V>;
} & Partial<LanguageSetting<V, M>> &
  SpeedSetting<V>;

/** The default settings of the model `M` (`speechRouter.speech('vendor_a/a_model_1', { … })`). */
export type SpeechSettings<M extends RouterModelId> =
  VendorOf<M> extends infer V extends ProviderId
    ? ModelOf<M> extends infer X extends VendorModel<V>
      ? VendorSpeechSettings<V, X>
      : never
    : never;

/**
 * `providerOptions.speechRouter` of one call, for a model of vendor `V`: speech-body fields by their wire
 * names, the vendor's options among them, over the model's defaults.
 */
export type SpeechRouterProviderOptions<V extends ProviderId = ProviderId> = {
  response_format?: VendorFormat<V>;
  sample_rate?: VendorSpeechRate<V>;
} & VendorOptions<V>;
