import { randomBytes, randomUUID } from 'node:crypto';
import { jsonValueProblem } from '@router/contracts';
import {
  keyHeaderNames,
  keyMessageFields,
  keyQueryNames,
  type KeyPlacements,
  readMessageKey,
  readRequestKey,
} from './key-placement';
import type { VendorId } from './vendor-id';

/**
 * Why a mirror request or socket is refused before any app sees it. Each vendor answers every kind in its
 * own error shape, so a vendor's own client reads the refusal as it would read the vendor's.
 */
export type MirrorRefusalKind =
  'missing-key' | 'invalid-key' | 'org-disabled' | 'no-vendor-key' | 'out-of-credit';

export const MIRROR_REFUSAL_KINDS: readonly MirrorRefusalKind[] = [
  'missing-key',
  'invalid-key',
  'org-disabled',
  'no-vendor-key',
  'out-of-credit',
];

/** Where an org stores its vendor keys; the no-vendor-key refusal links there. */
export const PROVIDER_KEYS_DASHBOARD_PATH = '/dashboard/provider-keys';

/** A mirror request as the gateway sees it, before anything is forwarded. */
export interface MirrorRequest {
  readonly method: string;
  /** The path as the vendor would see it: the mirror's `/<vendor token>` prefix taken off (`/v1/voices`). */
  readonly path: string;
  /** Lower-case names, as Node parses them. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly query: URLSearchParams;
}

/** A whole HTTP answer (refusals and 404s are small: the body is text, possibly empty). */
export interface MirrorReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A WebSocket refused after it was accepted: the vendor's error messages, then a close. */
export interface MirrorSocketRefusal {
  readonly messages: readonly string[];
  readonly closeCode: number;
  readonly closeReason: string;
}

/** A client message with the router key taken out, re-serialised without the key's fields. */
export interface KeylessMessage {
  readonly key: string | undefined;
  /** The message to forward: the original text when it carried no key, else the JSON without the key. */
  readonly message: string;
  /** The parsed message (JSON object), for refusals that echo a field of it; undefined when not JSON. */
  readonly fields: Readonly<Record<string, unknown>> | undefined;
}

/**
 * A client message that carries a key field but cannot be re-serialised without it safely (it nests deeper
 * than `JSON_MAX_DEPTH`): it is neither read for its key nor forwarded, and the socket answers it with the
 * vendor's refusal of a bad message (`refuseMessage`).
 */
export interface UnreadableMessage {
  /** Why, in words a client may read (no part of the message). */
  readonly unreadable: string;
}

/** Why a socket open for a while is closed by the router: its key was revoked, or its org disabled. */
export type MirrorRevocationKind = Extract<MirrorRefusalKind, 'invalid-key' | 'org-disabled'>;

/**
 * How a vendor refuses a WebSocket. Most refuse at the handshake with their HTTP refusal (`refuse`); a vendor
 * whose clients may send the key in their first message accepts first and refuses with messages and a close.
 * Either way, a socket already open whose key is revoked or whose org is disabled is closed with
 * `refuseOpen` (see `openSocketRefusal` for what a vendor that does not say gets).
 */
export type MirrorSocketAccess =
  | {
      readonly refusal: 'handshake';
      /** An open socket closed by the router: the vendor's messages, then its close. */
      refuseOpen?(kind: MirrorRevocationKind): MirrorSocketRefusal;
    }
  | {
      readonly refusal: 'after-accept';
      /**
       * The router key a client message carries, and the message without it; used on every client message.
       * A message that carries a key field too deep to re-serialise is `UnreadableMessage`.
       */
      takeKey(message: string): KeylessMessage | UnreadableMessage;
      /**
       * Whether a client message without a key may come before the one that carries it (a connection-wide
       * keep-alive, sent from the connect on): such messages are held while the key is awaited and passed on,
       * in order, once the socket is admitted. Left out, the key is read from the first message.
       */
      keylessBeforeKey?(message: KeylessMessage): boolean;
      /** `first` is the first client message when the key came in it (some refusals echo its ids). */
      refuse(kind: MirrorRefusalKind, first: KeylessMessage | undefined): MirrorSocketRefusal;
      /** An open socket closed by the router; `refuse(kind, undefined)` when left out. */
      refuseOpen?(kind: MirrorRevocationKind): MirrorSocketRefusal;
      /** The vendor's answer to a client message it cannot take (`UnreadableMessage`). */
      refuseMessage?(reason: string): MirrorSocketRefusal;
      /**
       * The vendor's refusal of a socket past one of the org's limits (its rate-limit error, `message` the
       * router's words); a 1013 close ("try again later") when left out.
       */
      limited?(message: string, first: KeylessMessage | undefined): MirrorSocketRefusal;
    };

/** The close of a socket refused without the vendor's own messages: 1008 (policy violation), as most use. */
const POLICY_CLOSE = 1008;

/** A WebSocket close reason is at most 123 bytes; these are short ASCII words. */
const REVOKED_REASON: Readonly<Record<MirrorRevocationKind, string>> = {
  'invalid-key': 'API key revoked',
  'org-disabled': 'organisation disabled',
};

/**
 * How an open socket is closed when its key is revoked or its org disabled: the vendor's `refuseOpen`, else
 * (refusing after accepting) its refusal of a wrong key, else a 1008 close with a short reason.
 */
export function openSocketRefusal(
  socket: MirrorSocketAccess,
  kind: MirrorRevocationKind,
): MirrorSocketRefusal {
  if (socket.refuseOpen) return socket.refuseOpen(kind);
  if (socket.refusal === 'after-accept') return socket.refuse(kind, undefined);
  return { messages: [], closeCode: POLICY_CLOSE, closeReason: REVOKED_REASON[kind] };
}

/** How a socket refusing after accepting answers an `UnreadableMessage`: its `refuseMessage`, else a 1008 close. */
export function unreadableMessageRefusal(
  socket: Extract<MirrorSocketAccess, { refusal: 'after-accept' }>,
  reason: string,
): MirrorSocketRefusal {
  return (
    socket.refuseMessage?.(reason) ?? {
      messages: [],
      closeCode: POLICY_CLOSE,
      closeReason: 'invalid message',
    }
  );
}

/**
 * How a socket refusing after accepting is refused past one of the org's limits (its key came after the
 * handshake, so the handshake's 429 could not be sent): its `limited`, else close 1013 ("try again later").
 */
export function limitedSocketRefusal(
  socket: Extract<MirrorSocketAccess, { refusal: 'after-accept' }>,
  message: string,
  first: KeylessMessage | undefined,
): MirrorSocketRefusal {
  return (
    socket.limited?.(message, first) ?? { messages: [], closeCode: 1013, closeReason: 'try again later' }
  );
}

/**
 * One vendor's door to its mirror: where its clients put the router key (the spec's "Where the router key
 * goes": the vendor's own key placements, `keyPlacements`, from which the key's headers, query parameters and
 * reading follow, see `keyAccess`; the key's places are taken off before forwarding: apps behind never see
 * keys), each refusal in the vendor's own shape, its 404 for a path it does not have, and how a WebSocket
 * is refused. The gateway builds a mirror route from this alone; the mirror app and the simulator take the
 * 404 from here too.
 */
export interface MirrorAccess {
  readonly vendor: VendorId;
  /** Where the vendor takes its key (its wire's `VENDOR_X_KEY`); the rest of the key's fields follow from it. */
  readonly keyPlacements: KeyPlacements;
  /** Lower-case header names that may carry the router key. */
  readonly keyHeaders: readonly string[];
  /** Query parameters that may carry the router key. */
  readonly keyQueryParams: readonly string[];
  /** The router key as the vendor's clients send it; undefined when none is sent. */
  readKey(request: MirrorRequest): string | undefined;
  refuse(kind: MirrorRefusalKind, request: MirrorRequest): MirrorReply;
  /** The vendor's error shape for a failure of the router's own (a body over the limit, an app unreachable). */
  fail(status: number, message: string, request: MirrorRequest): MirrorReply;
  /** The vendor's answer to a path it does not have. */
  notFound(request: Pick<MirrorRequest, 'method' | 'path'>): MirrorReply;
  readonly socket: MirrorSocketAccess;
}

/** An access's key fields, all read off the vendor's placements (each access spreads this in). */
export function keyAccess(
  placements: KeyPlacements,
): Pick<MirrorAccess, 'keyPlacements' | 'keyHeaders' | 'keyQueryParams' | 'readKey'> {
  return {
    keyPlacements: placements,
    keyHeaders: keyHeaderNames(placements),
    keyQueryParams: keyQueryNames(placements),
    readKey: (request) => readRequestKey(placements, request),
  };
}

/** What a vendor answers to a refusal, given the refusal's words (`mirrorRefusalMessage`). */
export interface MirrorRefusalReplies {
  /** Out of credit: the vendor's payment refusal. */
  outOfCredit(message: string, request: MirrorRequest): MirrorReply;
  /** A key problem: none sent, a wrong or revoked one, a disabled org, no vendor key stored. */
  key(
    message: string,
    kind: Exclude<MirrorRefusalKind, 'out-of-credit'>,
    request: MirrorRequest,
  ): MirrorReply;
}

/**
 * A vendor's door fields but its failures, 404 and socket: its id, its key's fields (`keyAccess`) and `refuse`,
 * which hands each refusal's words, the same for every vendor, to the vendor's own shape (`replies`).
 */
export function vendorDoor(
  vendor: VendorId,
  placements: KeyPlacements,
  replies: MirrorRefusalReplies,
): Omit<MirrorAccess, 'fail' | 'notFound' | 'socket'> {
  return {
    vendor,
    ...keyAccess(placements),
    refuse: (kind, request) => {
      const message = mirrorRefusalMessage(kind, vendor);
      return kind === 'out-of-credit'
        ? replies.outOfCredit(message, request)
        : replies.key(message, kind, request);
    },
  };
}

/**
 * A socket's client message with the router key taken out, for a vendor that refuses after accepting: the
 * key from the first of its message placements that holds one, and every key field dropped from what is
 * forwarded.
 */
export function takeMessageKey(
  placements: KeyPlacements,
  message: string,
): KeylessMessage | UnreadableMessage {
  const fields = keyMessageFields(placements);
  return takeKeyFromJson(message, (parsed) => ({ key: readMessageKey(placements, parsed), fields }));
}

/**
 * The message of each refusal kind, the same words for every vendor; each vendor wraps it in its shape.
 * The no-vendor-key message says where to store one, since that is all the client can do about it.
 */
export function mirrorRefusalMessage(kind: MirrorRefusalKind, vendor: VendorId): string {
  switch (kind) {
    case 'missing-key':
      return 'No API key was sent. Send your router API key (rtr_...) where this API expects its key.';
    case 'invalid-key':
      return 'Invalid API key. The router API key is unknown or has been revoked.';
    case 'org-disabled':
      return 'Invalid API key. The organisation of this router API key is disabled.';
    case 'no-vendor-key':
      return `No ${vendor} key is stored for this organisation. Add one at ${PROVIDER_KEYS_DASHBOARD_PATH}.`;
    case 'out-of-credit':
      return 'The organisation is out of credit; new requests are refused until credit is added.';
  }
}

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): MirrorReply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export function textReply(
  status: number,
  body: string,
  contentType = 'text/plain; charset=utf-8',
  headers: Record<string, string> = {},
): MirrorReply {
  return { status, headers: { 'content-type': contentType, ...headers }, body };
}

/** A header's single value; a repeated header counts as its first value, as Node reads `authorization`. */
export function headerValue(request: Pick<MirrorRequest, 'headers'>, name: string): string | undefined {
  const value = request.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first.trim() === '' ? undefined : first.trim();
}

/**
 * Takes a key out of a JSON client message: `read` names the key the object carries (if any) and the fields
 * that carried it, which are dropped from the forwarded message. Non-JSON messages, and messages without a
 * key field, pass untouched (their text as it came: nothing walks them). A message with a key field is
 * measured before it is re-serialised: one nested past `JSON_MAX_DEPTH` is `UnreadableMessage`, its key
 * unread (so a message no app would take is never authenticated either).
 */
export function takeKeyFromJson(
  message: string,
  read: (fields: Readonly<Record<string, unknown>>) => { key: string | undefined; fields: readonly string[] },
): KeylessMessage | UnreadableMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return { key: undefined, message, fields: undefined };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { key: undefined, message, fields: undefined };
  }
  const fields = parsed as Record<string, unknown>;
  const found = read(fields);
  const keyFields = found.fields.filter((name) => name in fields);
  if (keyFields.length === 0) return { key: found.key, message, fields };
  // Re-serialising walks the value, and would write a number past a double's range as `null`.
  const problem = jsonValueProblem(fields);
  if (problem) return { unreadable: problem.message };
  const rest = Object.fromEntries(Object.entries(fields).filter(([name]) => !keyFields.includes(name)));
  return { key: found.key, message: JSON.stringify(rest), fields };
}

/** 32 hex digits, the request-id style of several vendors. */
export function hexRequestId(): string {
  return randomBytes(16).toString('hex');
}

export function uuidRequestId(): string {
  return randomUUID();
}
