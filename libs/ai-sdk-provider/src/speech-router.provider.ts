import {
  type EmbeddingModelV3,
  type ImageModelV3,
  type LanguageModelV3,
  NoSuchModelError,
  type ProviderV3,
} from '@ai-sdk/provider';
import type { RouterModelId } from '@speech-router/client';
import { SpeechRouterSpeechModel, type SpeechRouterProviderSettings } from './speech-model';
import type { SpeechSettings } from './speech-settings';

/**
 * The speech router as an AI SDK provider of speech models, for any of its ten vendors. It is a full provider
 * (`createProviderRegistry({ speechRouter })` takes it), whose other kinds of model do not exist.
 */
export interface SpeechRouterProvider extends ProviderV3 {
  /** A router model (`<vendor>/<model>`) with its default settings, typed for its vendor and model. */
  speech<M extends RouterModelId>(modelId: M, settings?: SpeechSettings<M>): SpeechRouterSpeechModel;
  /** The same, as the AI SDK's provider registry names it. */
  speechModel<M extends RouterModelId>(modelId: M, settings?: SpeechSettings<M>): SpeechRouterSpeechModel;
}

/** A provider on one router (its address and key, else the environment's `SPEECH_ROUTER_URL` and `SPEECH_ROUTER_API_KEY`). */
export function createSpeechRouter(settings: SpeechRouterProviderSettings = {}): SpeechRouterProvider {
  const speech = <M extends RouterModelId>(
    modelId: M,
    defaults?: SpeechSettings<M>,
  ): SpeechRouterSpeechModel => new SpeechRouterSpeechModel(modelId, (defaults ?? {}) as object, settings);
  return {
    specificationVersion: 'v3',
    speech,
    speechModel: speech,
    languageModel: (modelId: string): LanguageModelV3 => noSuchModel(modelId, 'languageModel'),
    embeddingModel: (modelId: string): EmbeddingModelV3 => noSuchModel(modelId, 'embeddingModel'),
    imageModel: (modelId: string): ImageModelV3 => noSuchModel(modelId, 'imageModel'),
  };
}

function noSuchModel(modelId: string, modelType: 'languageModel' | 'embeddingModel' | 'imageModel'): never {
  throw new NoSuchModelError({ modelId, modelType, message: 'The speech router makes speech models only' });
}

/** The provider on the router named by the environment (`SPEECH_ROUTER_URL`, `SPEECH_ROUTER_API_KEY`). */
export const speechRouter: SpeechRouterProvider = createSpeechRouter();
