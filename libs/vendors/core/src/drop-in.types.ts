import type { JsonValue } from './catalogue.types';
import type { MirrorReply, MirrorRequest } from './mirror-access';
import type { StoredReference } from './stored-settings.types';

/**
 * A client's request to a vendor drop-in (spec: Vendor drop-ins), as it goes to the vendor: verbatim but for
 * the key, which the worker puts where the vendor takes it.
 */
export interface DropInRequest {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** The path under the vendor's API base, without the query (`/v1/text-to-speech/voice1/stream`). */
  readonly path: string;
  /** The query string as the client sent it, without the `?` (empty for none). */
  readonly query: string;
  /**
   * Lower-case names. At the mirror, every header the client sent (the gateway took the key's off); sent on to
   * the vendor, only those the planner keeps (`FORWARDED_REQUEST_HEADERS` and the wire's keyed and sent ones).
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The body bytes as the client sent them (empty for none). */
  readonly body: Uint8Array;
}

/** The vendor's answer to a drop-in request, as it arrives. */
export interface DropInAnswer {
  readonly status: number;
  /**
   * Every response header, lower-case names (several values joined with `, `); which of them reach a client
   * is the wire's `headers.passed`.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The body bytes as they arrive; a cut throws (provider_unavailable). */
  readonly body: AsyncIterable<Buffer>;
}

/** What a drop-in request means for the cache (spec "What is cached", item 6 under Never cached). */
export type DropInKeying =
  /** Proxied live every time (voice lists, anything the spec says is never cached, a body that is not JSON). */
  | { readonly cacheable: false }
  | {
      readonly cacheable: true;
      /**
       * The request in canonical form, for `requestCacheKey`: settings with their defaults filled as for
       * sentences, query parameters and body fields in no particular order, unknown ones kept verbatim (so two
       * requests that differ in anything the vendor reads never share an entry).
       */
      readonly canonical: {
        readonly method: string;
        readonly path: string;
        readonly query: Readonly<Record<string, readonly string[]>>;
        readonly body: JsonValue;
      };
      /** Settings stored at the vendor that the request names (their fingerprint enters the key). */
      readonly stored: readonly StoredReference[];
      /** Characters the vendor synthesizes for it, for the usage counters. */
      readonly chars: number;
      /** The text it speaks, where it is one text: its entry is then evicted with that sentence's entries. */
      readonly text?: string;
    };

/**
 * The model and voice a drop-in request names, as the request log shows them beside its vendor: the vendor's
 * own ids, '' where the request names none the router can tell (a model the vendor picks by the voice).
 * Names only: never the text.
 */
export interface RequestLabels {
  readonly model: string;
  /** Several voices (a dialogue's, a multi-speaker request's) are joined with `, `. */
  readonly voice: string;
}

/** One endpoint of a vendor's REST or HTTP-stream API. */
export interface DropInEndpoint {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** Matches the path under the vendor's API base, without the query; capture groups are ids (a voice). */
  readonly path: RegExp;
}

/** An answer's status and the headers a client gets of it (lower-case names), before its body. */
export interface DropInHead {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** Which headers of a drop-in exchange matter, lower-case names. */
export interface DropInHeaders {
  /**
   * Request headers that change the vendor's answer (a version header): sent on with the request and part of
   * its key. `content-type` and `accept` are always sent on and never keyed; the router key's header never is.
   */
  readonly keyed: readonly string[];
  /**
   * Request headers sent on with the request but not keyed as sent: the wire's keying folds what they mean
   * into the canonical form (a version header, whose many dates name a few behaviours), or they do not change
   * the answer at all (a client's own correlation id, such as a session id its SDK adds).
   */
  readonly sent?: readonly string[];
  /** Response headers a client gets from a live answer; `content-type` is always among them. */
  readonly passed: readonly string[];
  /**
   * Of `passed`, those true of one answer only (an id of the vendor's, what it billed): passed on live, never
   * stored, so never replayed. Never `content-type`.
   */
  readonly liveOnly: readonly string[];
}

/** Whether an answer whose body ended normally is whole; `reason` (the router's words only) says why not. */
export type AnswerVerdict =
  { readonly complete: true } | { readonly complete: false; readonly reason: string };

/**
 * One 2xx answer read as it arrives, for the worker that stores it (`DropInWire.readAnswer`). The worker passes
 * each chunk on to the client as it comes and feeds it here too; only once the body ended does `end` say
 * whether the answer is whole (its final event there, no error reported inside it after the 200), and only a
 * whole one is stored, in the form `stored` gives. Per chunk it only finds frame boundaries and reads each
 * frame's kind, never holding the audio back. It never throws: what it cannot read is not whole.
 */
export interface AnswerReading {
  /** The next chunk of the body, in order. */
  push(chunk: Buffer): void;
  /** Once the body ended normally (a lost connection fails the take before this). */
  end(): AnswerVerdict;
  /**
   * The body as stored and so replayed, from the whole body of a whole answer: the replay differences the
   * spec lists for the vendor (a field nulled, usage zeroed, timing fields or ids left out), applied once
   * at commit, so every hit replays the same bytes at no cost. The body itself where there are none.
   */
  stored(body: Buffer): Buffer;
}

/**
 * A vendor's drop-in REST/SSE wire, as whole-request takes need it. One per vendor folder, held by its
 * `VendorMirror` (`dropIn`): the mirror app's planner keys requests with it, the worker reads and stores
 * answers with it.
 */
export interface DropInWire {
  /** The endpoints the vendor's API has (the spec's list for its mirror): any other answers the vendor's 404. */
  readonly endpoints: readonly DropInEndpoint[];
  /** Whether the request is cached whole, and its canonical form. Pure: no I/O. */
  keying(request: DropInRequest): DropInKeying;
  /**
   * Where the vendor's request carries its model and voice (a path segment, a query parameter, a body field),
   * read from a cacheable request's canonical form: a setting the request left out is the default the keying
   * filled. Pure; see `requestLabels` for the labels of any request.
   */
  labels(canonical: Extract<DropInKeying, { cacheable: true }>['canonical']): RequestLabels;
  /** The request headers in the key, the response headers passed on and those never replayed. */
  readonly headers: DropInHeaders;
  /**
   * How a 2xx answer to `request` is read: its framing (audio, one JSON document, JSON lines, server-sent
   * events), when it is whole, and its stored form. `head` is the answer's status and passed headers (its
   * content type tells an event stream from audio where the request alone does not).
   */
  readAnswer(request: DropInRequest, head: DropInHead): AnswerReading;
  /**
   * The vendor's refusal of a JSON body the router will not walk: nested past the client-JSON depth limit, or
   * with a number too large to represent (`1e400`). `field` is the top-level field it is in (undefined for the
   * body as a whole); `message` names the field and the rule. `request`, for a vendor whose refusals take their
   * shape from it (an API version); the mirror always gives it.
   */
  invalidBody(problem: { field: string | undefined; message: string }, request?: MirrorRequest): MirrorReply;
}

/** Whether the vendor's API has this endpoint (`path` under its API base, without the query). */
export function dropInServes(wire: Pick<DropInWire, 'endpoints'>, method: string, path: string): boolean {
  return wire.endpoints.some((endpoint) => endpoint.method === method && endpoint.path.test(path));
}

/** The headers of `names` (lower-case) that `headers` has, with their values. */
export function pickHeaders(
  headers: Readonly<Record<string, string>>,
  names: readonly string[],
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}
