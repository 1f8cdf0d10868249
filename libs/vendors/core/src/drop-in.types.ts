import type { JsonValue } from './catalogue.types';
import type { MirrorReply } from './mirror-access';
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
  /** The request headers the vendor needs (`content-type`, `accept`), lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body bytes as the client sent them (empty for none). */
  readonly body: Uint8Array;
}

/** The vendor's answer to a drop-in request, as it arrives. */
export interface DropInAnswer {
  readonly status: number;
  /** Only the headers the vendor's `DropInWire.responseHeaders` keeps, lower-case names. */
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
    };

/** One endpoint of a vendor's REST or HTTP-stream API. */
export interface DropInEndpoint {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** Matches the path under the vendor's API base, without the query; capture groups are ids (a voice). */
  readonly path: RegExp;
}

/** A vendor's drop-in REST/SSE wire, as whole-request takes need it. One per vendor folder. */
export interface DropInWire {
  /** The endpoints the vendor's API has (the spec's list for its mirror): any other answers the vendor's 404. */
  readonly endpoints: readonly DropInEndpoint[];
  /** Whether the request is cached whole, and its canonical form. Pure: no I/O. */
  keying(request: DropInRequest): DropInKeying;
  /**
   * The vendor's response headers a client needs, lower-case: passed on live, stored with a committed
   * answer and replayed with it. `content-type` is always among them.
   */
  readonly responseHeaders: readonly string[];
  /**
   * The vendor's refusal of a JSON body the router will not walk: nested past the client-JSON depth limit, or
   * with a number too large to represent (`1e400`). `field` is the top-level field it is in (undefined for the
   * body as a whole); `message` names the field and the rule.
   */
  invalidBody(problem: { field: string | undefined; message: string }): MirrorReply;
}

/** Whether the vendor's API has this endpoint (`path` under its API base, without the query). */
export function dropInServes(wire: Pick<DropInWire, 'endpoints'>, method: string, path: string): boolean {
  return wire.endpoints.some((endpoint) => endpoint.method === method && endpoint.path.test(path));
}
