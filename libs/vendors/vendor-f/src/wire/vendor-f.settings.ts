import { RouterError, type SynthSettings } from '@router/contracts';
import { resolveSettings } from '@router/vendors-core';
import { VENDOR_F_MODEL, vendorF } from '../vendor-f.definition';
import {
  parseVendorFSettings,
  querySettings,
  VENDOR_F_DEFAULTS,
  vendorFVoiceId,
  type VendorFSettings,
} from './vendor-f.requests';

/*
 * vendor_f's own settings read as the router's SynthSettings, for its mirror's socket: the other way of
 * `vendorFBody`, so that a socket's settings give the SynthSettings a /v1/stream client with equal settings
 * gets (one cache key), and the body the adapter builds from them parses back to the same settings.
 */

/**
 * The SynthSettings of settings the vendor's checks passed, as `resolveSettings` (vendor mode) resolves them.
 * What the vendor fills when left out reads as left out: `auto` is no language (the vendor detects it, and the
 * adapter sends `auto` for none), latency level 0 and normalization off are the options left to the vendor;
 * the mp3 bit rate is the catalogue's option (its default too).
 */
export function vendorFSynthSettings(settings: VendorFSettings): SynthSettings {
  const { spec } = settings;
  const latency = settings.optimizeStreamingLatency;
  return resolveSettings(
    vendorF,
    {
      model: VENDOR_F_MODEL,
      voice: settings.voiceId,
      language: settings.language === VENDOR_F_DEFAULTS.language ? null : settings.language,
      speed: settings.speed,
      sampleRate: spec.sampleRate,
      format: spec.codec,
      options: {
        ...(spec.bitrateKbps === undefined ? {} : { bit_rate: spec.bitrateKbps * 1000 }),
        optimize_streaming_latency: latency === VENDOR_F_DEFAULTS.optimizeStreamingLatency ? null : latency,
        text_normalization:
          settings.textNormalization === VENDOR_F_DEFAULTS.textNormalization
            ? null
            : settings.textNormalization,
      },
    },
    'stream',
    'vendor',
  );
}

/** A socket's settings, or the vendor's words for why it refuses them (its 400 at the upgrade). */
export type VendorFSocketSettings =
  { readonly ok: true; readonly settings: SynthSettings } | { readonly ok: false; readonly message: string };

/**
 * The `/v1/tts` socket's settings from its query, checked as the vendor checks them, but for the voice: the
 * account's voices are the vendor's to know, so any voice is taken (in any case, as the vendor reads it) and
 * an unknown one is refused by the vendor when the first sentence is synthesized.
 */
export function vendorFSocketSettings(query: URLSearchParams): VendorFSocketSettings {
  const parsed = parseVendorFSettings(querySettings(query), (id) => ({ voice_id: vendorFVoiceId(id) }));
  if (!parsed.ok) return { ok: false, message: parsed.problem.message };
  try {
    return { ok: true, settings: vendorFSynthSettings(parsed.settings) };
  } catch (error) {
    if (error instanceof RouterError) return { ok: false, message: error.message };
    throw error;
  }
}
