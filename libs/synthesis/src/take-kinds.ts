import {
  RouterError,
  type ResponseHead,
  type StreamDef,
  type SynthRequestTake,
  type SynthRequestTrailer,
  synthRequestV1,
  type SynthTakeHeader,
  type SynthTakeRequest,
  type SynthTakeTrailer,
  synthTakeV1,
  type TakeWarning,
  type WordTiming,
} from '@router/contracts';
import { openStored, sealStored } from '@router/cache-keys';
import type { HotEntry } from '@router/stored-takes';
import { dropInWire, findVendor } from '@router/vendors';
import {
  type AudioExpectation,
  checkAudio,
  type DropInWire,
  expectedAudio,
  layoutOfFormat,
  pickHeaders,
  type VendorAdapter,
} from '@router/vendors-core';
import { Take, type TakeOutcome } from './take';

/** What every take request carries: the key it is one take of, and whether it may be cached. */
export interface KeyedTakeRequest {
  orgId: string;
  cacheKey: string;
  cache: boolean;
  forwarded?: boolean;
  /** A sentence take's own key (`sentenceTextKey`), committed beside its entry. */
  textKey?: string;
}

/** What a finished vendor call leaves for the cache. */
export interface Produced {
  /** False for an answer that must never be stored (a vendor refusal passed through, one not whole). */
  storable: boolean;
  /** Why a 2xx answer is not whole (an error inside it, its final event missing), in the router's words. */
  notWhole?: string;
  contentType: string;
  words: WordTiming[] | null;
  /** Each character's timing, where the vendor times characters. */
  chars?: WordTiming[] | null;
  /** The vendor's error about a take it still spoke whole: the take is passed on with it and never stored. */
  warning?: TakeWarning;
  /** The head as stored (without the live-only headers). */
  head?: ResponseHead;
  /** The body as stored, from the body as it came (the replay differences); the body itself where absent. */
  storedBody?: (body: Buffer) => Buffer;
}

/**
 * Whether a produced answer may enter the cache: one the kind found storable, about which the vendor reported
 * no error while it still spoke (that take is the listener's alone).
 */
export function cacheable(produced: Produced): boolean {
  return produced.storable && produced.warning === undefined;
}

export interface ProduceCall<Req> {
  apiKey: string;
  req: Req;
  /** Aborting stops the vendor call (interruption, the first-audio timeout). */
  signal: AbortSignal;
  /** Called with each body chunk as it arrives (restarts the first-audio timeout). */
  onData: () => void;
}

/**
 * What differs between the two kinds of take (docs/architecture.md): the bus stream they are asked and
 * forwarded on, what they send the vendor and how, and the shapes before and after the body. Claims,
 * coalescing, forwarding to the key's holder, the blob write and the first-commit-wins commit are the
 * worker's, the same for both.
 */
export interface TakeKind<Req extends KeyedTakeRequest, Head, Result extends TakeOutcome> {
  readonly stream: StreamDef<Req, Head, Result>;
  vendor(req: Req): string;
  /** Characters the vendor synthesizes for the take, for the usage counters. */
  chars(req: Req): number;
  /** The head where it is known before the vendor answers. */
  headBefore(adapter: VendorAdapter, req: Req): Head | undefined;
  /** The key's committed take, from the blob store. */
  replay(stored: HotEntry): Take<Head, Result>;
  /** The vendor call, into `take` (its head, then its body); throws a RouterError when it fails. */
  produce(take: Take<Head, Result>, adapter: VendorAdapter, call: ProduceCall<Req>): Promise<Produced>;
  /** The trailer of a take that ended: `cached` whether it is the key's committed take. */
  result(produced: Produced, cached: boolean): Result;
  /** Whether the take's body is only ever stored sealed (a take without its `sealing` is not cached). */
  readonly sealed: boolean;
  /** How the take's body is sealed in the blob store and opened again. */
  sealing(req: Req): Sealing | undefined;
}

export interface Sealing {
  seal: (plain: Buffer) => Buffer;
  open: (stored: Buffer) => Buffer;
}

/**
 * What a sentence take's audio is checked against: the layout of its format (the adapter's, where the vendor has
 * formats of its own) and the least its text can play at the vendor's fastest catalogue speed.
 */
export function pieceAudioExpectation(
  adapter: Pick<VendorAdapter, 'audioLayout'>,
  req: Pick<SynthTakeRequest, 'settings' | 'text'>,
): AudioExpectation {
  const { settings } = req;
  const layout = adapter.audioLayout?.(settings) ?? layoutOfFormat(settings.format, settings.sampleRate);
  const vendor = findVendor(settings.vendor);
  return vendor ? expectedAudio(vendor, layout, req.text) : { layout, leastMs: 0 };
}

/** A sentence take: one piece's settings and text, through the vendor's synthesis call. */
export const pieceTakes: TakeKind<SynthTakeRequest, SynthTakeHeader, SynthTakeTrailer> = {
  stream: synthTakeV1,
  vendor: (req) => req.settings.vendor,
  chars: (req) => [...req.text].length,
  headBefore: (adapter, req) => ({ contentType: adapter.contentType(req.settings) }),
  replay: (stored) =>
    Take.replaying<SynthTakeHeader, SynthTakeTrailer>({ contentType: stored.contentType }, stored.audio, {
      words: stored.words,
      chars: stored.chars ?? null,
      cached: true,
    }),
  async produce(take, adapter, { apiKey, req, signal, onData }) {
    let words: WordTiming[] | null = null;
    let chars: WordTiming[] | null = null;
    let warning: TakeWarning | undefined;
    for await (const event of adapter.synthesize({
      apiKey,
      settings: req.settings,
      text: req.text,
      signal,
    })) {
      if (signal.aborted) break;
      if (event.kind === 'audio') {
        onData();
        take.push(event.data);
      } else if (event.kind === 'warning') {
        warning = event.warning;
      } else {
        words = [...(words ?? []), ...event.words];
        if (event.chars) chars = [...(chars ?? []), ...event.chars];
      }
    }
    if (signal.aborted) throw signal.reason;
    if (take.audio.length === 0) {
      throw new RouterError(
        'provider_unavailable',
        `${req.settings.vendor} completed the take without audio`,
      );
    }
    // A body that ended cleanly can still have ended early (the vendor or a proxy on the way): the take is whole
    // only once its audio says so. Short, it failed; where nothing can tell, it is played and never stored.
    const check = checkAudio(Buffer.concat(take.audio), pieceAudioExpectation(adapter, req));
    if (check.verdict === 'short') {
      throw new RouterError(
        'provider_unavailable',
        `${req.settings.vendor}'s answer ended early: ${check.reason}`,
      );
    }
    return {
      storable: check.verdict === 'whole',
      ...(check.verdict === 'unknown' ? { notWhole: check.reason } : {}),
      contentType: take.head?.contentType ?? 'application/octet-stream',
      words,
      chars,
      ...(warning ? { warning } : {}),
    };
  },
  result: (produced, cached) => ({
    words: produced.words,
    chars: produced.chars ?? null,
    cached,
    ...(produced.warning ? { warning: produced.warning } : {}),
  }),
  // A sentence's audio holds no text: its key is a keyed hash, its timings are offsets.
  sealed: false,
  sealing: () => undefined,
};

/**
 * A whole-request take: a drop-in request sent on verbatim (`VendorAdapter.forward`), the vendor's answer
 * passed back as it arrives with the headers the vendor's `DropInWire` passes on. Only a 2xx answer with a body
 * that the wire finds whole (read chunk by chunk as it passes, decided once it ended) is stored, in the wire's
 * stored form and without its live-only headers; a refusal, or an answer with an error inside it or cut before
 * its final event, reaches the client as the vendor sent it and is never stored. `wireOf`: the vendor's wire.
 */
export function requestTakeKind(
  wireOf: (vendor: string) => DropInWire | undefined,
): TakeKind<SynthRequestTake, ResponseHead, SynthRequestTrailer> {
  return {
    stream: synthRequestV1,
    vendor: (req) => req.vendor,
    chars: (req) => req.chars,
    headBefore: () => undefined,
    replay: (stored) =>
      Take.replaying<ResponseHead, SynthRequestTrailer>(
        // An entry committed without its head (through a cache-service older than the field) has its type only.
        stored.head ?? { status: 200, headers: { 'content-type': stored.contentType } },
        stored.audio,
        { cached: true },
      ),
    async produce(take, adapter, { apiKey, req, signal, onData }) {
      const wire = wireOf(req.vendor);
      if (!adapter.forward || !wire)
        throw new RouterError('internal', `${req.vendor} has no drop-in REST endpoints`);
      const request = { ...req.request, body: Buffer.from(req.request.body, 'base64') };
      const answer = await adapter.forward({ apiKey, signal, request });
      const head: ResponseHead = {
        status: answer.status,
        headers: pickHeaders(answer.headers, wire.headers.passed),
      };
      take.open(head);
      const ok = answer.status >= 200 && answer.status < 300;
      const reading = ok ? wire.readAnswer(request, head) : undefined;
      for await (const chunk of answer.body) {
        if (signal.aborted) break;
        onData();
        if (chunk.length === 0) continue;
        take.push(chunk);
        reading?.push(chunk);
      }
      if (signal.aborted) throw signal.reason;
      const verdict = reading?.end();
      const liveOnly = new Set(wire.headers.liveOnly);
      return {
        storable: ok && take.audio.length > 0 && verdict?.complete === true,
        ...(verdict && !verdict.complete ? { notWhole: verdict.reason } : {}),
        contentType: head.headers['content-type'] ?? 'application/octet-stream',
        words: null,
        head: {
          status: head.status,
          headers: Object.fromEntries(Object.entries(head.headers).filter(([name]) => !liveOnly.has(name))),
        },
        ...(reading ? { storedBody: (body: Buffer) => reading.stored(body) } : {}),
      };
    },
    result: (_produced, cached) => ({ cached }),
    // An answer can echo the request's text (character timings): stored sealed under the request's own key.
    sealed: true,
    sealing: ({ sealKey }) =>
      sealKey
        ? { seal: (plain) => sealStored(sealKey, plain), open: (stored) => openStored(sealKey, stored) }
        : undefined,
  };
}

/** Every whole-request take of this worker, read and stored with the wire of its vendor's mirror. */
export const requestTakes = requestTakeKind(dropInWire);
