import { RouterError } from '@router/contracts';
import { findVendor, VENDOR_IDS } from '@router/vendors';
import {
  RESPONSE_FORMATS,
  SAMPLE_RATES,
  type ClientSettings,
  type VendorDefinition,
} from '@router/vendors-core';

/**
 * Parsers of the settings fields every native surface shares (the speech body's top level, the /v1/stream
 * settings message): strict JSON types, no coercion. Each throws `bad_request` naming the field.
 */

export function refuse(message: string): never {
  throw RouterError.badRequest(message);
}

export function parseModel(value: unknown): { def: VendorDefinition; modelId: string } {
  if (value === undefined || value === null) refuse('model is required');
  if (typeof value !== 'string') refuse('model must be a string "<provider>/<model_id>"');
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) {
    refuse(`model ${JSON.stringify(value)} must be "<provider>/<model_id>", e.g. "vendor_a/a_model_1"`);
  }
  const provider = value.slice(0, slash);
  const def = findVendor(provider);
  if (!def) {
    refuse(
      `model ${JSON.stringify(value)} names unknown provider ${JSON.stringify(provider)}; use one of ${VENDOR_IDS.join(', ')}`,
    );
  }
  return { def, modelId: value.slice(slash + 1) };
}

function parseVoice(value: unknown): string {
  if (value === undefined || value === null || value === '') refuse('voice is required');
  if (typeof value !== 'string') refuse('voice must be a string');
  return value;
}

function parseLanguage(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') refuse('language must be a string or null');
  if (value === '') refuse('language must not be empty (leave it out or send null)');
  return value;
}

function parseResponseFormat(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !(RESPONSE_FORMATS as readonly string[]).includes(value)) {
    refuse(`response_format must be one of ${RESPONSE_FORMATS.join(', ')}`);
  }
  return value;
}

function parseSpeed(value: unknown): number | null {
  if (value === undefined) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) refuse('speed must be a number');
  return value;
}

function parseSampleRate(value: unknown): number | null {
  if (value === undefined) return null;
  if (typeof value !== 'number' || !(SAMPLE_RATES as readonly number[]).includes(value)) {
    refuse(`sample_rate must be one of ${SAMPLE_RATES.join(', ')}`);
  }
  return value;
}

/** The settings fields after `model`, in the order their problems are reported; options are the caller's. */
export function parseSettingsFields(
  modelId: string,
  field: (name: string) => unknown,
): Omit<ClientSettings, 'options'> {
  return {
    model: modelId,
    voice: parseVoice(field('voice')),
    language: parseLanguage(field('language')),
    format: parseResponseFormat(field('response_format')),
    speed: parseSpeed(field('speed')),
    sampleRate: parseSampleRate(field('sample_rate')),
  };
}
