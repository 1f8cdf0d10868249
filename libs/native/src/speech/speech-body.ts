import type { SynthSettings } from '@router/contracts';
import { jsonObjectOf } from '@router/service-kit';
import { resolveSettings, type ClientSettings, type VendorDefinition } from '@router/vendors-core';
import { parseModel, parseSettingsFields, refuse } from '../reply/settings-fields';

/** A valid `POST /v1/audio/speech` body: the vendor, its canonical settings and the text to speak. */
export interface SpeechRequest {
  def: VendorDefinition;
  settings: SynthSettings;
  input: string;
}

/** The speech body's `input` limit (spec: Limits), in characters (Unicode code points). */
export const SPEECH_INPUT_MAX_CHARS = 20_000;

/** The fields of the speech body table other than the vendor options (spec: Native speech). */
export const SPEECH_BODY_FIELDS = [
  'model',
  'input',
  'voice',
  'language',
  'response_format',
  'speed',
  'sample_rate',
  'stream_format',
] as const;

const BODY_FIELDS: ReadonlySet<string> = new Set(SPEECH_BODY_FIELDS);

/**
 * Parses and validates the body of `POST /v1/audio/speech` (spec: Native speech). The body's own fields
 * are checked here with strict JSON types (no coercion: `"1.0"` is not a number); every other field must be
 * an option of the chosen vendor, sent top-level under its catalogue name, else it is an unknown field.
 * The settings then go through the catalogue-driven `resolveSettings` (surface `speech`), which checks
 * them against the model, format and rate rules and fills every default. A null vendor option means the
 * same as leaving it out (the body table types every option "or null"); the body's own fields take null
 * only where the table says so (`language`).
 *
 * Throws `RouterError` `bad_request` naming the field or rule.
 */
export function parseSpeechBody(body: unknown): SpeechRequest {
  const fields = jsonObjectOf(body, 'the body');
  const field = (name: string): unknown => (Object.hasOwn(fields, name) ? fields[name] : undefined);

  const { def, modelId } = parseModel(field('model'));
  const input = parseInput(field('input'));
  const fieldSettings = parseSettingsFields(modelId, field);
  parseStreamFormat(field('stream_format'));

  const optionNames = new Set(def.catalogue.options.map((o) => o.name));
  const options: Record<string, unknown> = {};
  for (const name of Object.keys(fields)) {
    if (BODY_FIELDS.has(name)) continue;
    if (!optionNames.has(name)) {
      refuse(
        `unknown field ${JSON.stringify(name)}: it is neither a speech body field nor an option of ${def.id}`,
      );
    }
    const value = fields[name];
    // Option names come from the catalogue, so `name` can never be `__proto__` here.
    if (value !== null && value !== undefined) options[name] = value;
  }

  const client: ClientSettings = { ...fieldSettings, options };
  return { def, settings: resolveSettings(def, client, 'speech'), input };
}

function parseInput(value: unknown): string {
  if (value === undefined || value === null) refuse('input is required');
  if (typeof value !== 'string') refuse('input must be a string');
  // Counted in characters as a person counts them, so text outside the BMP is not charged double.
  let length = 0;
  for (const _char of value) {
    length += 1;
    if (length > SPEECH_INPUT_MAX_CHARS) break;
  }
  if (length === 0) refuse('input must not be empty');
  if (length > SPEECH_INPUT_MAX_CHARS) {
    refuse(`input must be at most ${SPEECH_INPUT_MAX_CHARS.toLocaleString('en-US')} characters`);
  }
  return value;
}

function parseStreamFormat(value: unknown): void {
  if (value === undefined || value === 'audio') return;
  if (value === 'sse') refuse('stream_format sse is not supported: the body is the audio itself; use audio');
  refuse('stream_format must be audio');
}
