import type { SynthSettings } from '@router/contracts';
import { type ClientSettings, type JsonValue, resolveSettings } from '@router/vendors-core';
import { vendorI } from '../vendor-i.definition';
import type { VendorIRequest } from './vendor-i.requests';

/*
 * From a vendor_i socket message to the router's SynthSettings, as /v1/stream resolves a native client's equal
 * settings, so a sentence said on the mirror's socket and the same sentence said on /v1/stream share one take.
 * (The other way, settings to the vendor's body, is `vendorIRequest`.)
 */

/**
 * Fields of a socket message that steer the socket, name the context or choose what is sent back, never the
 * audio: the text and the streaming controls, the timestamp switches (the take is always made with word
 * timings, which are cached with the audio; the renderer sends them where the client asked), and the fields
 * read into the settings below.
 */
const NOT_OPTIONS: ReadonlySet<string> = new Set([
  'transcript',
  'context_id',
  'continue',
  'flush',
  'cancel',
  'max_buffer_delay_ms',
  'add_timestamps',
  'add_phoneme_timestamps',
  'use_normalized_timestamps',
  'model_id',
  'voice',
  'language',
  'locale',
  'output_format',
  'generation_config',
  'speed',
]);

/**
 * The router's language for the code the message names (`language` or `locale`, one word at the vendor). A code
 * of the catalogue is the language itself, keyed alike with /v1/stream's. A regional code the vendor takes and
 * the catalogue does not list (`en-GB`: the vendor takes any region of a language it has) keeps its language
 * (`en`, which the vendor's parser checked) as the settings' and goes on whole as the option `language`, which
 * the adapter sends in the body in place of the settings' (as vendor_h's `auto`): the vendor speaks the code
 * the client sent, and the option keys `en-GB` apart from `en`.
 */
function catalogueLanguage(model: string, code: string, options: Record<string, JsonValue>): string {
  if (vendorI.catalogue.models.find((m) => m.id === model)?.languages.includes(code)) return code;
  options['language'] = code;
  return code.split('-')[0] ?? code;
}

/** The `raw` container's encodings as the router's formats. */
const FORMATS: Readonly<Record<string, string>> = { pcm: 'pcm', mulaw: 'mulaw', alaw: 'alaw' };

/**
 * The SynthSettings of a socket message the vendor's parser took (`parseVendorIRequest`, streaming), by the
 * vendor's rules (`resolveSettings`' vendor mode on the streaming rates): the raw encoding as the router's
 * format; `generation_config`'s `volume` and `emotion` as the catalogue's options; the speed only where the
 * message sets one (`generation_config.speed`, or the older `speed` word as its multiplier); `language` or
 * `locale` as the router's language, a regional code as the option `language` too (`catalogueLanguage`); the
 * dictionary by its id; every other field the vendor reads (`normalization`, a field the router does not know)
 * an option of its own, which the adapter sends in the body under its name and which keys the sentence apart
 * from /v1/stream's.
 *
 * Throws the router's `bad_request` where the router's settings cannot say what the vendor took.
 */
export function vendorISocketSettings(
  message: Readonly<Record<string, unknown>>,
  request: VendorIRequest,
): SynthSettings {
  const options: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(message)) {
    if (NOT_OPTIONS.has(name) || value === undefined || value === null) continue;
    options[name] = value as JsonValue;
  }
  const config = message['generation_config'];
  const configured = typeof config === 'object' && config !== null ? (config as Record<string, unknown>) : {};
  for (const name of ['volume', 'emotion']) {
    const value = configured[name];
    if (value !== undefined && value !== null) options[name] = value as JsonValue;
  }
  const speedSet = configured['speed'] !== undefined || message['speed'] !== undefined;
  const language =
    request.language === undefined ? null : catalogueLanguage(request.model, request.language, options);
  const client: ClientSettings = {
    model: request.model,
    voice: request.voiceId,
    language,
    speed: speedSet ? request.speed : null,
    sampleRate: request.spec.sampleRate,
    format: FORMATS[request.spec.codec] ?? request.spec.codec,
    options,
  };
  return resolveSettings(vendorI, client, 'stream', 'vendor');
}
