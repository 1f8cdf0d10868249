/**
 * Where a vendor takes its API key, declared once in the vendor's wire (`wire/vendor-x.key.ts`) and read by
 * every side of that wire: the mirror reads the router key there (`MirrorAccess`), the adapter puts the org's
 * vendor key in the first place (`HttpVendorAdapter`), and the simulator reads a key where the vendor would.
 */
export type KeyPlacement =
  HeaderKeyPlacement | QueryKeyPlacement | MessageKeyPlacement | ProtocolKeyPlacement;

/** A request header: the bare key (`X-API-Key: <key>`), or `<scheme> <key>` (`Authorization: Bearer <key>`). */
export interface HeaderKeyPlacement {
  readonly in: 'header';
  /** Lower case, as Node parses header names. */
  readonly name: string;
  /** Read case-insensitively, as the vendors do; absent for a header that carries the bare key. */
  readonly scheme?: string;
}

/** A query parameter of the request (vendor_j's `key`). */
export interface QueryKeyPlacement {
  readonly in: 'query';
  readonly name: string;
}

/**
 * A field of a socket's JSON client message, for vendors whose socket clients send the key there instead of
 * at the handshake (vendor_c's first message, vendor_g's stream configs); a scheme as for headers.
 */
export interface MessageKeyPlacement {
  readonly in: 'message';
  readonly name: string;
  readonly scheme?: string;
}

/**
 * A WebSocket sub-protocol offered at the handshake (`Sec-WebSocket-Protocol`), for clients that can set no
 * header there (browsers): one protocol `<prefix><key>` (form `prefix`: vendor_a's
 * `api-subscription-key.<key>`), or a marker protocol with the key offered as the next one (form `pair`:
 * vendor_e's `token, <key>`). A client that offers sub-protocols drops the socket unless the handshake's answer
 * names one of them (RFC 6455 4.1), so the server answers with the protocol that carried the key (`prefix`)
 * or the marker (`pair`), as those vendors' servers do: `readProtocolKey`'s `answer`.
 */
export interface ProtocolKeyPlacement {
  readonly in: 'protocol';
  /** The prefix before the key, or the marker protocol; either matched case-insensitively. */
  readonly name: string;
  readonly form: 'prefix' | 'pair';
}

/** A place on the request itself, which a REST call and a WebSocket handshake both have. */
export type RequestKeyPlacement = HeaderKeyPlacement | QueryKeyPlacement;

/**
 * Every place a vendor takes its key, the one its own clients use first: that is where the router's adapter
 * puts the org's key, so it is always a place on the request.
 */
export type KeyPlacements = readonly [RequestKeyPlacement, ...KeyPlacement[]];

export function keyHeader(name: string, scheme?: string): HeaderKeyPlacement {
  return { in: 'header', name: name.toLowerCase(), ...(scheme === undefined ? {} : { scheme }) };
}

export function keyQuery(name: string): QueryKeyPlacement {
  return { in: 'query', name };
}

export function keyMessageField(name: string, scheme?: string): MessageKeyPlacement {
  return { in: 'message', name, ...(scheme === undefined ? {} : { scheme }) };
}

/** `<prefix><key>` in one offered sub-protocol. */
export function keyProtocol(prefix: string): ProtocolKeyPlacement {
  return { in: 'protocol', name: prefix, form: 'prefix' };
}

/** The key as the sub-protocol offered right after the marker `marker` (`token, <key>`). */
export function keyProtocolAfter(marker: string): ProtocolKeyPlacement {
  return { in: 'protocol', name: marker, form: 'pair' };
}

/** A request's headers (lower-case names, as Node parses them) and query: all a key on a request can be in. */
export interface KeyedRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly query: URLSearchParams;
}

/**
 * The key a request carries in the first of `placements` that holds one; undefined when none does. A
 * header sent twice counts as its first value, as Node reads `authorization` (the gateway refuses a key
 * header sent twice before reading it); an empty value, or one without the placement's scheme, is no key.
 */
export function readRequestKey(
  placements: readonly KeyPlacement[],
  request: KeyedRequest,
): string | undefined {
  for (const placement of placements) {
    const key = requestKeyAt(placement, request);
    if (key !== undefined) return key;
  }
  return undefined;
}

function requestKeyAt(placement: KeyPlacement, request: KeyedRequest): string | undefined {
  switch (placement.in) {
    case 'header':
      return credential(firstValue(request.headers[placement.name]), placement.scheme);
    case 'query':
      return credential(request.query.get(placement.name) ?? undefined, undefined);
    case 'protocol':
      return readProtocolKey([placement], offeredProtocols(request.headers[PROTOCOL_HEADER])).key;
    case 'message':
      return undefined;
  }
}

/** The handshake header that offers sub-protocols (lower case, as Node parses it). */
export const PROTOCOL_HEADER = 'sec-websocket-protocol';

/** The sub-protocols a handshake offers, in order: the header's comma-separated list (a repeated header's values joined). */
export function offeredProtocols(header: string | readonly string[] | undefined): string[] {
  const values = typeof header === 'string' ? [header] : (header ?? []);
  return values.flatMap((value) =>
    value
      .split(',')
      .map((protocol) => protocol.trim())
      .filter(Boolean),
  );
}

/** What a handshake's offered sub-protocols hold of a key, by the protocol placements among `placements`. */
export interface ProtocolKey {
  /** The key of the first placement, in the order declared, that an offered protocol holds. */
  readonly key: string | undefined;
  /** How many keys are offered: more than one is ambiguous (the gateway refuses it, as a key header sent twice). */
  readonly count: number;
  /** The protocol the handshake's answer names for that key: the protocol that carried it, or its marker. */
  readonly answer: string | undefined;
  /** The offered protocols less every one that carries a key and its marker: all that may go past the gateway. */
  readonly rest: readonly string[];
}

/** Reads the key out of offered sub-protocols, as `ProtocolKeyPlacement` describes them. */
export function readProtocolKey(
  placements: readonly KeyPlacement[],
  offered: readonly string[],
): ProtocolKey {
  const found: Array<{ order: number; key: string; answer: string }> = [];
  const taken = new Set<number>();
  placements.forEach((placement, order) => {
    if (placement.in !== 'protocol') return;
    const name = placement.name.toLowerCase();
    offered.forEach((protocol, at) => {
      if (taken.has(at)) return;
      const lower = protocol.toLowerCase();
      if (placement.form === 'prefix') {
        if (protocol.length <= name.length || !lower.startsWith(name)) return;
        found.push({ order, key: protocol.slice(name.length), answer: protocol });
        taken.add(at);
        return;
      }
      const key = offered[at + 1];
      if (lower !== name || key === undefined || taken.has(at + 1)) return;
      found.push({ order, key, answer: protocol });
      taken.add(at).add(at + 1);
    });
  });
  const first = found.reduce<(typeof found)[number] | undefined>(
    (best, match) => (best === undefined || match.order < best.order ? match : best),
    undefined,
  );
  return {
    key: first?.key,
    count: found.length,
    answer: first?.answer,
    rest: offered.filter((_, at) => !taken.has(at)),
  };
}

/** The key a socket's JSON client message carries in the first of the message placements that holds one. */
export function readMessageKey(
  placements: readonly KeyPlacement[],
  fields: Readonly<Record<string, unknown>>,
): string | undefined {
  for (const placement of placements) {
    if (placement.in !== 'message') continue;
    const value = fields[placement.name];
    const key = typeof value === 'string' ? credential(value, placement.scheme) : undefined;
    if (key !== undefined) return key;
  }
  return undefined;
}

/** The distinct header names that may carry the key (lower case). */
export function keyHeaderNames(placements: readonly KeyPlacement[]): string[] {
  return namesIn(placements, 'header');
}

export function keyQueryNames(placements: readonly KeyPlacement[]): string[] {
  return namesIn(placements, 'query');
}

/** The message fields that may carry the key: all of them are taken off a message the mirror forwards. */
export function keyMessageFields(placements: readonly KeyPlacement[]): string[] {
  return namesIn(placements, 'message');
}

/** A key placed on a request: the headers to send it in, and the query parameters to add. */
export interface PlacedKey {
  readonly headers: Readonly<Record<string, string>>;
  readonly query: readonly (readonly [string, string])[];
}

/** `key` where `placement` says, as the vendor's own clients send it. */
export function placeKey(placement: RequestKeyPlacement, key: string): PlacedKey {
  if (placement.in === 'query') return { headers: {}, query: [[placement.name, key]] };
  const value = placement.scheme === undefined ? key : `${placement.scheme} ${key}`;
  return { headers: { [placement.name]: value }, query: [] };
}

/** A path (with or without its query) with the placed key's query parameters added. */
export function pathWithKey(path: string, placed: PlacedKey): string {
  if (placed.query.length === 0) return path;
  const added = new URLSearchParams(
    placed.query.map(([name, value]): [string, string] => [name, value]),
  ).toString();
  return `${path}${path.includes('?') ? '&' : '?'}${added}`;
}

function firstValue(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}

/** The key in a value: the value itself (trimmed), or after `scheme` and whitespace (scheme case-insensitive). */
function credential(value: string | undefined, scheme: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (trimmed === undefined || trimmed === '') return undefined;
  if (scheme === undefined) return trimmed;
  const match = /^(\S+)\s+(\S+)$/.exec(trimmed);
  return match && match[1]?.toLowerCase() === scheme.toLowerCase() ? match[2] : undefined;
}

function namesIn(placements: readonly KeyPlacement[], where: KeyPlacement['in']): string[] {
  return [...new Set(placements.filter((placement) => placement.in === where).map(({ name }) => name))];
}

/** Where a vendor's clients put their key, in words (for the router's start-up help and docs). */
export function describeKeyPlacements(placements: readonly KeyPlacement[]): string {
  return placements
    .map((placement) => {
      const scheme = 'scheme' in placement && placement.scheme ? ` as "${placement.scheme} <key>"` : '';
      if (placement.in === 'header') return `the ${placement.name} header${scheme}`;
      if (placement.in === 'query') return `the ${placement.name} query parameter`;
      if (placement.in === 'protocol') {
        return placement.form === 'prefix'
          ? `the WebSocket sub-protocol "${placement.name}<key>"`
          : `the WebSocket sub-protocols "${placement.name}, <key>"`;
      }
      return `the ${placement.name} field of a socket message${scheme}`;
    })
    .join(' or ');
}
