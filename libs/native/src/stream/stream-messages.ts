import type { SynthSettings } from '@router/contracts';
import { jsonObjectOf } from '@router/service-kit';
import { resolveSettings, type VendorDefinition } from '@router/vendors-core';
import { parseModel, parseSettingsFields, refuse } from '../reply/settings-fields';

/** A client message of /v1/stream once checked (docs/stream-protocol.md). */
export type ClientMessage =
  | { type: 'settings'; def: VendorDefinition; settings: SynthSettings }
  | { type: 'text'; text: string }
  | { type: 'flush'; id: string | null }
  | { type: 'interrupt'; playedMs: number | null }
  | { type: 'close' };

/** One `text` message's limit, in characters (the speech body's input limit). */
export const STREAM_TEXT_MAX_CHARS = 20_000;
export const FLUSH_ID_MAX_CHARS = 64;

/** Each client message's fields (the AsyncAPI file describes the same; a test keeps them in step). */
export const CLIENT_MESSAGE_FIELDS: Readonly<Record<ClientMessage['type'], readonly string[]>> = {
  settings: ['type', 'model', 'voice', 'language', 'response_format', 'speed', 'sample_rate', 'options'],
  text: ['type', 'text'],
  flush: ['type', 'id'],
  interrupt: ['type', 'played_ms'],
  close: ['type'],
};

/**
 * Parses one text frame of /v1/stream. Throws `bad_request` naming the field or rule: not JSON, not an object
 * or nested past JSON_MAX_DEPTH, no or an unknown `type`, a field the message does not have, a value of the wrong type or out of range. Settings are
 * checked against the vendor's catalogue with its streaming sample rates.
 */
export function parseClientMessage(frame: string): ClientMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(frame);
  } catch {
    refuse('a message must be a JSON object');
  }
  const fields = jsonObjectOf(parsed, 'a message');
  const type = fields['type'];
  if (typeof type !== 'string' || !Object.hasOwn(CLIENT_MESSAGE_FIELDS, type)) {
    refuse(`type must be one of ${Object.keys(CLIENT_MESSAGE_FIELDS).join(', ')}`);
  }
  const kind = type as ClientMessage['type'];
  for (const name of Object.keys(fields)) {
    if (!CLIENT_MESSAGE_FIELDS[kind].includes(name))
      refuse(`unknown field ${JSON.stringify(name)} in a ${kind} message`);
  }
  const field = (name: string): unknown => (Object.hasOwn(fields, name) ? fields[name] : undefined);
  switch (kind) {
    case 'settings':
      return { type: 'settings', ...parseSettings(field) };
    case 'text':
      return { type: 'text', text: parseText(field('text')) };
    case 'flush':
      return { type: 'flush', id: parseFlushId(field('id')) };
    case 'interrupt':
      return { type: 'interrupt', playedMs: parsePlayedMs(field('played_ms')) };
    case 'close':
      return { type: 'close' };
  }
}

function parseSettings(field: (name: string) => unknown): { def: VendorDefinition; settings: SynthSettings } {
  const { def, modelId } = parseModel(field('model'));
  const fieldSettings = parseSettingsFields(modelId, field);
  const options = parseOptions(def, field('options'));
  return { def, settings: resolveSettings(def, { ...fieldSettings, options }, 'stream') };
}

/** Vendor options by catalogue name; a null option is the same as leaving it out. */
function parseOptions(def: VendorDefinition, value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) refuse('options must be an object');
  const names = new Set(def.catalogue.options.map((o) => o.name));
  const options: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(value as Record<string, unknown>)) {
    if (!names.has(name)) {
      refuse(
        names.size === 0
          ? `options.${name} is not an option of ${def.id}, which has none`
          : `options.${name} is not an option of ${def.id}; its options are ${[...names].join(', ')}`,
      );
    }
    // Option names come from the catalogue, so `name` can never be `__proto__` here.
    if (option !== null) options[name] = option;
  }
  return options;
}

function parseText(value: unknown): string {
  if (typeof value !== 'string') refuse('text must be a string');
  let length = 0;
  for (const _char of value) {
    length += 1;
    if (length > STREAM_TEXT_MAX_CHARS) {
      refuse(`text must be at most ${STREAM_TEXT_MAX_CHARS.toLocaleString('en-US')} characters per message`);
    }
  }
  if (length === 0) refuse('text must not be empty');
  return value;
}

function parseFlushId(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > FLUSH_ID_MAX_CHARS) {
    refuse(`id must be a string of at most ${FLUSH_ID_MAX_CHARS} characters`);
  }
  return value;
}

function parsePlayedMs(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    refuse('played_ms must be a number of milliseconds, at least 0');
  }
  return value;
}
