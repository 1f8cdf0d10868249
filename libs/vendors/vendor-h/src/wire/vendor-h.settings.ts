import type { SynthSettings } from '@router/contracts';
import { type ClientSettings, type JsonValue, resolveSettings } from '@router/vendors-core';
import { vendorH } from '../vendor-h.definition';
import type { VendorHRequest } from './vendor-h.requests';

/*
 * From a vendor_h socket message to the router's SynthSettings, as /v1/stream resolves a native client's equal
 * settings, so a sentence said on the mirror's socket and the same sentence said on /v1/stream share one take.
 * (The other way, settings to the vendor's body, is `vendorHBody`.)
 */

/**
 * Fields of a socket message that steer the socket or name the request, never the audio: the text and the
 * streaming controls, the correlation ids (echoed back, never sent on), `word_timestamps` (accepted, no timings
 * sent), and the buffering bounds, which change nothing on the mirror.
 */
const SOCKET_FIELDS: ReadonlySet<string> = new Set([
  'type',
  'text',
  'continue',
  'flush',
  'context_id',
  'context_close',
  'cancel_request',
  'session_id',
  'request_id',
  'word_timestamps',
  'max_buffer_flush_ms',
  'max_buffer_delay_ms',
  'complete_backoff_ms',
]);

/** Fields that are router settings, read from the parsed request. */
const SETTING_FIELDS: ReadonlySet<string> = new Set([
  'voice_id',
  'model',
  'language',
  'sample_rate',
  'speed',
  'output_format',
]);

/**
 * The SynthSettings of a socket message the vendor's parser took (`parseVendorHRequest`), by the vendor's rules
 * (`resolveSettings`' vendor mode on the streaming rates):
 * - the format is `pcm` whatever `output_format` says: the vendor's socket sends 16-bit PCM at `sample_rate`
 *   always, which is the take a native client asking for `pcm` gets;
 * - the defaults the vendor fills for a field left out are those the router fills for a native client's (its
 *   base model, `en`, 24000 Hz, speed 1.0), so both key alike;
 * - every other field that changes the audio (`pronunciation_dicts`, `number_pronunciation_language`, a field the
 *   router does not know) is an option of its own, which the adapter sends in the body under its name, and
 *   which keys the sentence apart from /v1/stream's (dictionaries by their ids, as the spec says). So is the
 *   vendor's `language` `auto`, which is no language of the router's catalogue: the settings keep the default
 *   and the option `language` overrides it in the body.
 *
 * Throws the router's `bad_request` where the router's settings cannot say what the vendor took.
 */
export function vendorHSocketSettings(
  message: Readonly<Record<string, unknown>>,
  request: VendorHRequest,
): SynthSettings {
  const options: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(message)) {
    if (SOCKET_FIELDS.has(name) || SETTING_FIELDS.has(name) || value === undefined || value === null)
      continue;
    options[name] = value as JsonValue;
  }
  const auto = request.language === 'auto';
  if (auto) options['language'] = request.language;
  const client: ClientSettings = {
    model: request.model,
    voice: request.voiceId,
    language: auto ? null : request.language,
    speed: request.speed,
    sampleRate: request.spec.sampleRate,
    format: 'pcm',
    options,
  };
  return resolveSettings(vendorH, client, 'stream', 'vendor');
}
