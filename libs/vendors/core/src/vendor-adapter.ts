import type { SynthSettings, TakeWarning, WordTiming } from '@router/contracts';
import type { AudioLayout } from './audio-completeness';
import type { DropInAnswer, DropInRequest } from './drop-in.types';
import type { StoredSettingsReader } from './stored-settings.types';
import type { VendorId } from './vendor-id';
import type { Voice, VoiceListRequest } from './voice.types';

/** One vendor call for one piece, with the org's own key. */
export interface SynthesisCall {
  apiKey: string;
  settings: SynthSettings;
  text: string;
  /** Aborting stops the call at the vendor (interruption); nothing of it is cached. */
  signal: AbortSignal;
}

/** One drop-in request sent on to the vendor with the org's own key (a whole-request take). */
export interface DropInCall {
  apiKey: string;
  request: DropInRequest;
  /** Aborting stops the request and the body read at the vendor. */
  signal: AbortSignal;
}

/**
 * What a vendor call yields as it goes: audio exactly as the vendor sent it, and word timings where given;
 * `chars`, where the vendor times each character of the text, one timing per character (offsets into the text);
 * `warning`, an error the vendor reported about a take it still speaks whole (the take is then never cached).
 */
export type SynthesisEvent =
  | { kind: 'audio'; data: Buffer }
  | { kind: 'words'; words: WordTiming[]; chars?: WordTiming[] }
  | { kind: 'warning'; warning: TakeWarning };

/**
 * A vendor's synthesis upstream: the call that gives the earliest audio, the vendor's own auth header with
 * the org's key, and its failures mapped onto the router's provider_* errors. One per vendor folder.
 */
export interface VendorAdapter {
  readonly vendor: VendorId;
  /** The Content-Type of the audio a take with these settings yields. */
  contentType(settings: SynthSettings): string;
  /**
   * How a take's audio with these settings is laid out, for telling a whole take from one that ended early
   * (`checkAudio`); absent where the router's format names say it (`layoutOfFormat`).
   */
  audioLayout?(settings: SynthSettings): AudioLayout;
  /** Ends when the vendor completed the take; throws a RouterError (provider_*) when it did not. */
  synthesize(call: SynthesisCall): AsyncIterable<SynthesisEvent>;
  /**
   * `GET /v1/voices` for this vendor: every voice the org can speak with (all pages read, live), each with the
   * vendor's own object as `provider_data`. Absent for a vendor the endpoint does not serve. Throws a
   * RouterError (`provider_*`) as synthesis does.
   */
  listVoices?(request: VoiceListRequest): Promise<Voice[]>;
  /**
   * True where `listVoices` sends no key (the vendor's lists are public), so reading it says nothing of the key
   * ("test this key" speaks a word instead).
   */
  readonly voiceListIsPublic?: boolean;
  /** Present where settings can name something the vendor stores and may change (spec: What is cached). */
  readonly storedSettings?: StoredSettingsReader;
  /**
   * Sends a drop-in request to the vendor as the client sent it, with the org's key where the vendor takes it,
   * and gives back the answer as it arrives, refusals included (only a lost connection throws). Present where
   * the vendor's mirror has REST/SSE endpoints (its `DropInWire`).
   */
  forward?(call: DropInCall): Promise<DropInAnswer>;
}

export interface AdapterOptions {
  /** The vendor's API base, e.g. `http://127.0.0.1:4010/vendor_c` for the simulator. */
  baseUrl: string;
}

export type AdapterFactory = (options: AdapterOptions) => VendorAdapter;

/** The content types of the native formats (spec: Native speech). */
export const FORMAT_CONTENT_TYPES: Readonly<Record<string, string>> = {
  pcm: 'audio/pcm',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  mulaw: 'audio/mulaw',
  alaw: 'audio/alaw',
  opus: 'audio/opus',
  flac: 'audio/flac',
};
