import { RouterError, type SynthSettings } from '@router/contracts';
import { findModel, resolveSettings, sampleRatesFor, type AudioFormat } from '@router/vendors-core';
import { vendorG } from '../vendor-g.definition';
import { invalidRequest, type VendorGProblem } from './vendor-g.errors';
import { vendorGRouterFormat } from './vendor-g.formats';
import { parseVendorGSettings, type VendorGProject } from './vendor-g.requests';

/*
 * From a vendor_g client's generation parameters (a socket stream's config) to the router's SynthSettings, so
 * that a stream with settings equal to a /v1/stream client's gets the SynthSettings that client gets, and one
 * cache key for each sentence; `vendorGBody` (the adapter) is the way back.
 */

/**
 * What a mirror knows of the vendor's project: the catalogue's models and their languages. Voices (built-in
 * and the project's clones) are the vendor's to check, when a sentence is synthesized.
 */
const CATALOGUE_PROJECT: VendorGProject = {
  models: vendorG.catalogue.models.map((model) => model.id),
  languagesOf: (model) => findModel(vendorG, model)?.languages ?? [],
  voiceProblem: () => null,
};

/**
 * The config fields the router reads itself (the rest go to the vendor as options of their own, as its
 * socket would take them). `return_timestamps` asks for timings the mirror cannot give and
 * `client_reference_id` names one request in the vendor's usage logs, where a sentence from the cache never
 * appears: neither changes the audio, so neither reaches the key or the vendor.
 */
const READ_FIELDS: ReadonlySet<string> = new Set([
  'api_key',
  'stream_id',
  'model',
  'language',
  'voice',
  'audio_format',
  'sample_rate',
  'bitrate',
  'speed',
  'reduce_silence',
  'return_timestamps',
  'client_reference_id',
]);

export type VendorGSettingsResult =
  | { readonly ok: true; readonly settings: SynthSettings }
  | { readonly ok: false; readonly problem: VendorGProblem };

/**
 * A stream's SynthSettings, checked as the vendor checks its config (`parseVendorGSettings`: its defaults
 * filled, its ranges and names) and resolved as /v1/stream resolves a native client's (`resolveSettings`'
 * vendor mode). `reduce_silence: false` is the vendor's default, so it is left out as a native client leaves it.
 * Formats the catalogue lacks (`pcm_f32le`, `pcm_s16be`, `aac`, `opus`, `flac`) and the rate the catalogue
 * lacks (22050) keep their own names and rate, resolved otherwise as pcm at a catalogue rate: no native
 * client can ask for them, so no key is shared. `bitrate` and fields the router does not know go on as options.
 */
export function vendorGSynthSettings(fields: Readonly<Record<string, unknown>>): VendorGSettingsResult {
  const parsed = parseVendorGSettings(fields, CATALOGUE_PROJECT);
  if (!parsed.ok) return parsed;
  const { model, language, voice, audioFormat, spec, speed, reduceSilence } = parsed.value;
  const format = vendorGRouterFormat(audioFormat) ?? audioFormat;
  const catalogueFormat = (vendorG.catalogue.formats as readonly string[]).includes(format)
    ? (format as AudioFormat)
    : undefined;
  const rates = sampleRatesFor(vendorG, catalogueFormat ?? 'pcm', 'stream') as readonly number[];
  const options: Record<string, unknown> = {};
  if (reduceSilence) options['reduce_silence'] = true;
  for (const [name, value] of Object.entries(fields)) {
    if (!READ_FIELDS.has(name) || name === 'bitrate') options[name] = value;
  }
  try {
    const resolved = resolveSettings(
      vendorG,
      {
        model,
        voice,
        language,
        speed,
        format: catalogueFormat ?? 'pcm',
        sampleRate: rates.includes(spec.sampleRate) ? spec.sampleRate : null,
        options,
      },
      'stream',
      'vendor',
    );
    return { ok: true, settings: { ...resolved, format, sampleRate: spec.sampleRate } };
  } catch (error) {
    if (!(error instanceof RouterError)) throw error;
    return { ok: false, problem: invalidRequest(error.message) };
  }
}
