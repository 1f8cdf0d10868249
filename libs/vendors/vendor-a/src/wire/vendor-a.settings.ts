import { RouterError, type SynthSettings } from '@router/contracts';
import { type AudioFormat, resolveSettings, sampleRatesFor } from '@router/vendors-core';
import { vendorA } from '../vendor-a.definition';
import { VENDOR_A_SETTING_FIELDS, type VendorASettings } from './vendor-a.requests';

/*
 * From a vendor_a socket `config` the vendor's checks passed (`parseVendorASettings`) to the router's
 * SynthSettings, as /v1/stream resolves a native client's equal settings, so a sentence said on the mirror's
 * socket and on /v1/stream share one take. (The other way, settings to the vendor's body, is `vendorARequest`.)
 */

/**
 * The SynthSettings of a config, by the vendor's rules (`resolveSettings`' vendor mode on the streaming rates):
 * `pace` is the speed, `speaker` the voice, the codec its router format (`linear16` is `pcm`); `pitch`,
 * `loudness` and `enable_preprocessing` only for a_model_2 (a_model_1 ignores them), `output_audio_bitrate`
 * only for mp3 and aac (the others have none); `dict_id`, `temperature` and unknown fields as options.
 * `min_buffer_size` and `max_chunk_length` are the vendor's buffering: the mirror splits sentences itself, so
 * they change no sentence's audio and are left out.
 * `opus` and `flac`, which no native client can ask for, keep their own format and rate, resolved otherwise as
 * pcm at a catalogue rate: no key is shared with /v1/stream for them.
 *
 * Throws the router's `bad_request` where the router's settings cannot say what the vendor took.
 */
export function vendorASocketSettings(
  config: Readonly<Record<string, unknown>>,
  settings: VendorASettings,
): SynthSettings {
  const { spec } = settings;
  const format = spec.codec;
  const catalogueFormat = (vendorA.catalogue.formats as readonly string[]).includes(format)
    ? (format as AudioFormat)
    : undefined;
  const options: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(config)) {
    if (!VENDOR_A_SETTING_FIELDS.has(name) && value !== null && value !== undefined) options[name] = value;
  }
  if (settings.temperature !== undefined) options['temperature'] = settings.temperature;
  if (settings.dictId !== undefined) options['dict_id'] = settings.dictId;
  if (settings.pitch !== undefined) options['pitch'] = settings.pitch;
  if (settings.loudness !== undefined) options['loudness'] = settings.loudness;
  if (settings.model === 'a_model_2' && settings.enablePreprocessing !== undefined)
    options['enable_preprocessing'] = settings.enablePreprocessing;
  if (format === 'mp3' || format === 'aac') options['bitrate'] = settings.bitrate;
  const rates = sampleRatesFor(vendorA, catalogueFormat ?? 'pcm', 'stream') as readonly number[];
  const resolved = resolveSettings(
    vendorA,
    {
      model: settings.model,
      voice: settings.speaker,
      language: settings.language,
      speed: settings.pace,
      format: catalogueFormat ?? 'pcm',
      sampleRate: rates.includes(spec.sampleRate) ? spec.sampleRate : null,
      options,
    },
    'stream',
    'vendor',
  );
  return catalogueFormat ? resolved : { ...resolved, format, sampleRate: spec.sampleRate };
}

/** A config's settings, or the router's words for why it cannot take them. */
export function vendorASocketSettingsOf(
  config: Readonly<Record<string, unknown>>,
  settings: VendorASettings,
): { ok: true; settings: SynthSettings } | { ok: false; message: string } {
  try {
    return { ok: true, settings: vendorASocketSettings(config, settings) };
  } catch (error) {
    if (error instanceof RouterError) return { ok: false, message: error.message };
    throw error;
  }
}
