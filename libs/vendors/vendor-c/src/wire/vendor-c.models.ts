import { vendorC } from '../vendor-c.definition';
import type { VendorCProblem } from './vendor-c.errors';

export const VENDOR_C_MODELS: readonly string[] = vendorC.catalogue.models.map((m) => m.id);
/** The model a request without `model_id` gets (the multilingual generation). */
export const DEFAULT_MODEL = 'c_model_3';

/** Characters per request, by model (fast tiers take more, the newest generation less). */
export const MODEL_CHARACTER_LIMITS: Readonly<Record<string, number>> = {
  c_model_1: 5000,
  c_model_2: 5000,
  c_model_3: 10_000,
  c_model_4: 30_000,
  c_model_5: 40_000,
  c_model_6: 30_000,
  c_model_7: 40_000,
  c_model_8: 5000,
  c_model_9: 5000,
};

export function isDialogueModel(model: string): boolean {
  return vendorC.modelTraits[model]?.dialogue === true;
}

/** The model a text-to-dialogue request without `model_id` gets. */
export const DEFAULT_DIALOGUE_MODEL = 'c_model_8';

export function modelProblem(model: string): VendorCProblem | undefined {
  if (VENDOR_C_MODELS.includes(model)) return undefined;
  return {
    status: 400,
    code: 'model_not_found',
    type: 'validation_error',
    message: `A model with model ID ${model} does not exist.`,
    param: 'model_id',
  };
}

export function languageProblem(model: string, language: string | undefined): VendorCProblem | undefined {
  if (language === undefined) return undefined;
  const languages = vendorC.catalogue.models.find((m) => m.id === model)?.languages ?? [];
  if (languages.includes(language)) return undefined;
  return {
    status: 400,
    code: 'unsupported_language',
    type: 'validation_error',
    message: `Model ${model} does not support the language_code ${language}.`,
    param: 'language_code',
  };
}

export function textLengthProblem(model: string, text: string): VendorCProblem | undefined {
  const limit = MODEL_CHARACTER_LIMITS[model] ?? 10_000;
  if (text.length <= limit) return undefined;
  return {
    status: 400,
    code: 'max_character_limit_exceeded',
    type: 'validation_error',
    message: `This request's text has ${text.length} characters and exceeds the character limit of ${limit} characters for model ${model}.`,
    param: 'text',
  };
}

export function dialogueModelProblem(model: string): VendorCProblem | undefined {
  if (isDialogueModel(model)) return undefined;
  return {
    status: 400,
    code: 'invalid_model',
    type: 'validation_error',
    message: `Model ${model} cannot be used for dialogue.`,
    param: 'model_id',
  };
}
