import {
  MIRROR_REFUSAL_KINDS,
  type KeyPlacement,
  type MirrorAccess,
  type MirrorRefusalKind,
  type MirrorReply,
  type MirrorRequest,
  mirrorRefusalMessage,
  PROVIDER_KEYS_DASHBOARD_PATH,
  VENDOR_IDS,
  type VendorId,
} from '@router/vendors-core';
import { mirrorAccess, VENDOR_ENTRIES } from './vendors.registry';

/*
 * Every vendor's mirror door, one suite over every registry entry: where the router key goes and where it
 * does not, each refusal's status and shape, the 402 for an org out of credit, the 404. What differs per
 * vendor is the table below, restated by hand from the spec (Authentication, "Where the router key goes";
 * Errors, "Mirror refusals"; Vendor drop-ins) and the vendor notes, so an access that drifts from them fails.
 */

/** An expected answer: status, headers and body (JSON parsed, or the text); `MESSAGE` stands for the refusal's words. */
interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

interface DoorFacts {
  /**
   * Where the vendor's clients put the key, in the vendor's order (the adapter uses the first), each as a
   * client writes it: `name: value` for a header, `?name=value` for the query, `{"field": "value"}` for a
   * field of a socket's client message, `Sec-WebSocket-Protocol: protocols` for WebSocket sub-protocols;
   * `<key>` is the key.
   */
  readonly key: readonly string[];
  readonly socket: 'handshake' | 'after-accept';
  /** Headers of the request the refusals answer, where they pick the refusal's shape. */
  readonly refusalHeaders?: Readonly<Record<string, string>>;
  /** A wrong key, a disabled org, no stored vendor key (and no key, unless `missingKey` says otherwise). */
  readonly keyRefusal: Reply;
  readonly missingKey?: Reply;
  /** The vendor's key refusal has fixed words (vendor_h), so it cannot say where to store a vendor key. */
  readonly fixedKeyRefusal?: true;
  readonly outOfCredit: Reply;
  /** Past an org's limit (`fail(429)`): the vendor's own rate-limit shape (the vendor notes' 429 row). */
  readonly rateLimited: Reply;
  /** The answer to `GET /nope`. */
  readonly notFound: Reply;
}

const MESSAGE = '<message>';
const JSON_TYPE = { 'content-type': 'application/json' };
const HEX_ID = expect.stringMatching(/^[0-9a-f]{32}$/);
const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

function vendorJErrorInfo(reason: string) {
  return [{ '@type': 'type.vendor-j.invalid/rpc.ErrorInfo', reason, domain: 'vendor-j.invalid' }];
}

const DOORS: Readonly<Record<VendorId, DoorFacts>> = {
  vendor_a: {
    key: ['api-subscription-key: <key>', 'Sec-WebSocket-Protocol: api-subscription-key.<key>'],
    socket: 'handshake',
    keyRefusal: {
      status: 403,
      headers: JSON_TYPE,
      body: { error: { message: MESSAGE, code: 'invalid_api_key_error', request_id: null } },
    },
    outOfCredit: {
      status: 402,
      headers: JSON_TYPE,
      body: { error: { message: MESSAGE, code: 'insufficient_credits', request_id: null } },
    },
    rateLimited: {
      status: 429,
      headers: JSON_TYPE,
      body: { error: { message: MESSAGE, code: 'rate_limit_exceeded_error', request_id: null } },
    },
    notFound: { status: 404, headers: JSON_TYPE, body: { detail: 'Not Found' } },
  },
  vendor_b: {
    key: ['x-api-key: <key>'],
    socket: 'handshake',
    keyRefusal: {
      status: 401,
      headers: { ...JSON_TYPE, 'www-authenticate': 'Key realm="vendor_b"' },
      body: { message: MESSAGE, request_id: null },
    },
    outOfCredit: {
      status: 402,
      headers: JSON_TYPE,
      body: { error: { code: 'insufficient_credits', message: MESSAGE } },
    },
    rateLimited: {
      status: 429,
      headers: JSON_TYPE,
      body: { error: { code: 'rate_limit_exceeded', message: MESSAGE } },
    },
    notFound: {
      status: 404,
      headers: JSON_TYPE,
      body: { message: 'no Route matched with those values', request_id: null },
    },
  },
  vendor_c: {
    key: ['vendor_c-api-key: <key>', '{"vendor_c_api_key": "<key>"}', '{"authorization": "Bearer <key>"}'],
    socket: 'after-accept',
    keyRefusal: {
      status: 400,
      headers: JSON_TYPE,
      body: {
        detail: {
          type: 'authentication_error',
          code: 'invalid_api_key',
          message: MESSAGE,
          status: 'invalid_api_key',
          request_id: HEX_ID,
          param: 'api_key',
        },
      },
    },
    missingKey: {
      status: 401,
      headers: JSON_TYPE,
      body: {
        detail: {
          type: 'authentication_error',
          code: 'invalid_api_key',
          message: MESSAGE,
          status: 'invalid_api_key',
          request_id: HEX_ID,
          param: 'api_key',
        },
      },
    },
    outOfCredit: {
      status: 402,
      headers: JSON_TYPE,
      body: {
        detail: {
          type: 'payment_required',
          code: 'insufficient_credits',
          message: MESSAGE,
          status: 'insufficient_credits',
          request_id: HEX_ID,
        },
      },
    },
    rateLimited: {
      status: 429,
      headers: JSON_TYPE,
      body: {
        detail: {
          type: 'rate_limit_error',
          code: 'too_many_concurrent_requests',
          message: MESSAGE,
          status: 'too_many_concurrent_requests',
          request_id: HEX_ID,
        },
      },
    },
    notFound: { status: 404, headers: JSON_TYPE, body: { detail: 'Not Found' } },
  },
  vendor_d: {
    key: ['authorization: Bearer <key>'],
    socket: 'handshake',
    keyRefusal: {
      status: 401,
      headers: JSON_TYPE,
      body: {
        error: { message: MESSAGE, type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
      },
    },
    outOfCredit: {
      status: 402,
      headers: JSON_TYPE,
      body: {
        error: { message: MESSAGE, type: 'insufficient_quota', param: null, code: 'insufficient_credits' },
      },
    },
    rateLimited: {
      status: 429,
      headers: JSON_TYPE,
      body: { error: { message: MESSAGE, type: 'requests', param: null, code: 'rate_limit_exceeded' } },
    },
    notFound: {
      status: 404,
      headers: JSON_TYPE,
      body: {
        error: { message: 'Invalid URL (GET /nope)', type: 'invalid_request_error', param: null, code: null },
      },
    },
  },
  vendor_e: {
    key: [
      'authorization: Token <key>',
      'authorization: Bearer <key>',
      'Sec-WebSocket-Protocol: token, <key>',
    ],
    socket: 'handshake',
    keyRefusal: {
      status: 401,
      headers: JSON_TYPE,
      body: { err_code: 'INVALID_AUTH', err_msg: MESSAGE, request_id: UUID },
    },
    outOfCredit: {
      status: 402,
      headers: JSON_TYPE,
      body: { err_code: 'insufficient_credits', err_msg: MESSAGE, request_id: UUID },
    },
    rateLimited: {
      status: 429,
      headers: JSON_TYPE,
      body: { err_code: 'TOO_MANY_REQUESTS', err_msg: MESSAGE, request_id: UUID },
    },
    notFound: {
      status: 404,
      headers: JSON_TYPE,
      body: { err_code: 'NOT_FOUND', err_msg: 'Not Found', request_id: null },
    },
  },
  vendor_f: {
    key: ['authorization: Bearer <key>'],
    socket: 'handshake',
    keyRefusal: { status: 401, headers: JSON_TYPE, body: { code: 'Unauthorized', error: MESSAGE } },
    outOfCredit: { status: 402, headers: JSON_TYPE, body: { code: 'insufficient_credits', error: MESSAGE } },
    rateLimited: { status: 429, headers: JSON_TYPE, body: { code: 'Too Many Requests', error: MESSAGE } },
    notFound: { status: 404, headers: JSON_TYPE, body: { code: 'Not Found', error: 'no route matched' } },
  },
  vendor_g: {
    key: ['authorization: Bearer <key>', '{"api_key": "<key>"}'],
    socket: 'after-accept',
    keyRefusal: {
      status: 401,
      headers: JSON_TYPE,
      body: {
        status_code: 401,
        error_type: 'unauthenticated',
        message: MESSAGE,
        validation_errors: [],
        request_id: UUID,
      },
    },
    outOfCredit: {
      status: 402,
      headers: JSON_TYPE,
      body: {
        status_code: 402,
        error_type: 'insufficient_quota',
        message: MESSAGE,
        validation_errors: [],
        request_id: UUID,
      },
    },
    rateLimited: {
      status: 429,
      headers: JSON_TYPE,
      body: {
        status_code: 429,
        error_type: 'rate_limit_exceeded',
        message: MESSAGE,
        validation_errors: [],
        request_id: UUID,
      },
    },
    notFound: {
      status: 404,
      headers: JSON_TYPE,
      body: {
        status_code: 404,
        error_type: 'not_found',
        message: 'Not Found',
        validation_errors: [],
        request_id: UUID,
      },
    },
  },
  vendor_h: {
    key: ['authorization: Bearer <key>'],
    socket: 'handshake',
    keyRefusal: { status: 401, headers: JSON_TYPE, body: { error: 'unauthorized' } },
    fixedKeyRefusal: true,
    outOfCredit: { status: 402, headers: JSON_TYPE, body: { error: MESSAGE } },
    rateLimited: { status: 429, headers: JSON_TYPE, body: { error: MESSAGE } },
    notFound: { status: 404, headers: JSON_TYPE, body: { error: 'Not Found' } },
  },
  vendor_i: {
    key: ['x-api-key: <key>', 'authorization: Bearer <key>', '?api_key=<key>', '?access_token=<key>'],
    socket: 'handshake',
    refusalHeaders: { 'vendor_i-version': '2026-03-01' },
    keyRefusal: {
      status: 401,
      headers: { ...JSON_TYPE, 'x-request-id': UUID },
      body: { error_code: 'invalid_api_key', title: 'Unauthorized', message: MESSAGE, request_id: UUID },
    },
    outOfCredit: {
      status: 402,
      headers: { ...JSON_TYPE, 'x-request-id': UUID },
      body: {
        error_code: 'insufficient_credits',
        title: 'Payment Required',
        message: MESSAGE,
        request_id: UUID,
      },
    },
    rateLimited: {
      status: 429,
      headers: { ...JSON_TYPE, 'x-request-id': UUID },
      body: { error_code: 'rate_limited', title: 'Too Many Requests', message: MESSAGE, request_id: UUID },
    },
    notFound: {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: '404 page not found',
    },
  },
  vendor_j: {
    key: ['x-vendor_j-api-key: <key>', '?key=<key>'],
    socket: 'handshake',
    keyRefusal: {
      status: 400,
      headers: JSON_TYPE,
      body: {
        error: {
          code: 400,
          message: MESSAGE,
          status: 'INVALID_ARGUMENT',
          details: vendorJErrorInfo('API_KEY_INVALID'),
        },
      },
    },
    missingKey: {
      status: 403,
      headers: JSON_TYPE,
      body: {
        error: {
          code: 403,
          message: MESSAGE,
          status: 'PERMISSION_DENIED',
          details: vendorJErrorInfo('CREDENTIALS_MISSING'),
        },
      },
    },
    outOfCredit: {
      status: 402,
      headers: JSON_TYPE,
      body: {
        error: {
          code: 402,
          message: MESSAGE,
          status: 'RESOURCE_EXHAUSTED',
          details: vendorJErrorInfo('INSUFFICIENT_CREDITS'),
        },
      },
    },
    rateLimited: {
      status: 429,
      headers: JSON_TYPE,
      body: { error: { code: 429, message: MESSAGE, status: 'RESOURCE_EXHAUSTED' } },
    },
    notFound: { status: 404, headers: { 'content-type': 'text/html; charset=UTF-8' }, body: '' },
  },
};

/** The spec's rule 4 of Vendor drop-ins: these vendors' 402 carries the code `insufficient_credits`. */
const CREDIT_CODE_VENDORS: readonly VendorId[] = [
  'vendor_a',
  'vendor_b',
  'vendor_c',
  'vendor_d',
  'vendor_e',
  'vendor_f',
];

const KEY = 'rtr_probe_key';

function request(headers: Record<string, string | string[]> = {}, query = ''): MirrorRequest {
  return { method: 'POST', path: '/nope', headers, query: new URLSearchParams(query) };
}

/** A place as the table writes it, and a client's request or socket message with `key` there. */
type Carrier =
  | {
      readonly kind: 'header';
      readonly name: string;
      readonly scheme?: string;
      readonly request: MirrorRequest;
    }
  | { readonly kind: 'query'; readonly name: string; readonly request: MirrorRequest }
  | { readonly kind: 'protocol'; readonly request: MirrorRequest }
  | { readonly kind: 'message'; readonly name: string; readonly message: string };

function carrier(form: string, key = KEY): Carrier {
  const text = form.replace('<key>', key);
  if (text.startsWith('?')) {
    const name = text.slice(1).split('=')[0] ?? '';
    return { kind: 'query', name, request: request({}, text.slice(1)) };
  }
  if (text.startsWith('{')) {
    const name = Object.keys(JSON.parse(text) as object)[0] ?? '';
    return { kind: 'message', name, message: text };
  }
  const [name = '', value = ''] = text.split(/: (.*)/s);
  if (name === 'Sec-WebSocket-Protocol') {
    return { kind: 'protocol', request: request({ 'sec-websocket-protocol': value }) };
  }
  const scheme = /^(\S+) /.exec(value)?.[1];
  return { kind: 'header', name, ...(scheme ? { scheme } : {}), request: request({ [name]: value }) };
}

/** A placement written as the table writes places. */
function formOf(placement: KeyPlacement): string {
  if (placement.in === 'protocol') {
    const offered = placement.form === 'prefix' ? `${placement.name}<key>` : `${placement.name}, <key>`;
    return `Sec-WebSocket-Protocol: ${offered}`;
  }
  const value = placement.in === 'query' || !placement.scheme ? '<key>' : `${placement.scheme} <key>`;
  if (placement.in === 'header') return `${placement.name}: ${value}`;
  if (placement.in === 'query') return `?${placement.name}=${value}`;
  return `{"${placement.name}": "${value}"}`;
}

function parsed(reply: MirrorReply): Reply {
  const json = reply.headers['content-type']?.startsWith('application/json') === true;
  return {
    status: reply.status,
    headers: reply.headers,
    body: json ? (JSON.parse(reply.body) as unknown) : reply.body,
  };
}

/** `expected` with `MESSAGE` replaced by the refusal's words, wherever a string holds it. */
function withMessage(expected: unknown, message: string): unknown {
  if (typeof expected === 'string') return expected.replace(MESSAGE, message);
  if (Array.isArray(expected)) return expected.map((item) => withMessage(item, message));
  if (typeof expected !== 'object' || expected === null || 'asymmetricMatch' in expected) return expected;
  return Object.fromEntries(
    Object.entries(expected).map(([name, value]) => [name, withMessage(value, message)]),
  );
}

function expectedRefusal(facts: DoorFacts, kind: MirrorRefusalKind): Reply {
  if (kind === 'out-of-credit') return facts.outOfCredit;
  return kind === 'missing-key' ? (facts.missingKey ?? facts.keyRefusal) : facts.keyRefusal;
}

function afterAccept(access: MirrorAccess) {
  if (access.socket.refusal !== 'after-accept') throw new Error(`${access.vendor} refuses at the handshake`);
  return access.socket;
}

/** Every place any vendor takes a key on a request: each must be ignored by the vendors that do not take it. */
const EVERY_REQUEST_FORM = [...new Set(Object.values(DOORS).flatMap(({ key }) => key))].filter(
  (form) => carrier(form).kind !== 'message',
);

it('has the door facts of every registry entry', () => {
  expect(Object.keys(DOORS)).toEqual([...VENDOR_IDS]);
  for (const id of VENDOR_IDS) expect(mirrorAccess(id)).toBe(VENDOR_ENTRIES[id].access);
});

describe.each(VENDOR_IDS)('%s mirror access', (vendor) => {
  const access = mirrorAccess(vendor);
  const facts = DOORS[vendor];
  const places = facts.key.map((form) => carrier(form));
  const onRequest = places.filter((place) => place.kind !== 'message');
  const refusalRequest = request(facts.refusalHeaders);

  it('takes the key where the vendor does, in its order', () => {
    expect(access.vendor).toBe(vendor);
    expect(access.keyPlacements.map(formOf)).toEqual(facts.key);
    expect(carrier(facts.key[0] ?? '').kind).not.toBe('message');
  });

  it.each(facts.key)('reads the key from %s', (form) => {
    const place = carrier(form);
    if (place.kind !== 'message') {
      expect(access.readKey(place.request)).toBe(KEY);
      return;
    }
    const taken = afterAccept(access).takeKey(`{"text": " ", ${place.message.slice(1)}`);
    expect(taken).toEqual({ key: KEY, message: '{"text":" "}', fields: expect.any(Object) });
  });

  it('reads no key from a place another vendor uses but it does not', () => {
    const own = new Set(facts.key);
    for (const form of EVERY_REQUEST_FORM.filter((other) => !own.has(other))) {
      const place = carrier(form);
      if (place.kind === 'message') continue;
      expect({ form, key: access.readKey(place.request) }).toEqual({ form, key: undefined });
    }
    expect(access.readKey(request())).toBeUndefined();
  });

  it('reads no key after the wrong scheme, or without its scheme', () => {
    for (const place of onRequest) {
      if (place.kind !== 'header' || place.scheme === undefined) continue;
      for (const value of [`Basic ${KEY}`, KEY, place.scheme, '']) {
        expect({ value, key: access.readKey(request({ [place.name]: value })) }).toEqual({
          value,
          key: undefined,
        });
      }
    }
  });

  it('names exactly the key headers and query parameters, which the gateway strips and refuses when repeated', () => {
    const headers = [...new Set(onRequest.flatMap((p) => (p.kind === 'header' ? [p.name] : [])))];
    const query = onRequest.flatMap((p) => (p.kind === 'query' ? [p.name] : []));
    expect(access.keyHeaders).toEqual(headers);
    expect(access.keyQueryParams).toEqual(query);
    for (const place of onRequest) {
      if (place.kind !== 'header') continue;
      const value = (key: string) => (place.scheme ? `${place.scheme} ${key}` : key);
      // As Node reads a repeated authorization header: the first value (the gateway refuses it before reading).
      expect(access.readKey(request({ [place.name]: [value(KEY), value('rtr_other')] }))).toBe(KEY);
    }
  });

  it(`refuses sockets ${facts.socket === 'handshake' ? 'at the handshake' : 'after accepting'}`, () => {
    expect(access.socket.refusal).toBe(facts.socket);
    expect(places.some((place) => place.kind === 'message')).toBe(facts.socket === 'after-accept');
  });

  it.each(MIRROR_REFUSAL_KINDS)('refuses %s in the vendor shape', (kind) => {
    const expected = withMessage(expectedRefusal(facts, kind), mirrorRefusalMessage(kind, vendor));
    expect(parsed(access.refuse(kind, refusalRequest))).toEqual(expected);
  });

  it('refuses an org out of credit with 402', () => {
    const reply = access.refuse('out-of-credit', refusalRequest);
    expect(reply.status).toBe(402);
    if (CREDIT_CODE_VENDORS.includes(vendor)) expect(reply.body).toContain('"insufficient_credits"');
  });

  it('says where to store a vendor key when the org has none', () => {
    const body = access.refuse('no-vendor-key', refusalRequest).body;
    if (facts.fixedKeyRefusal) expect(body).not.toContain(PROVIDER_KEYS_DASHBOARD_PATH);
    else expect(body).toContain(PROVIDER_KEYS_DASHBOARD_PATH);
  });

  it("answers past an org's limit with the vendor's own 429", () => {
    const message = 'The org is past its limit of 5 requests per second.';
    expect(parsed(access.fail(429, message, refusalRequest))).toEqual(
      withMessage(facts.rateLimited, message),
    );
  });

  it('answers a path it does not have with its 404', () => {
    expect(parsed(access.notFound({ method: 'GET', path: '/nope' }))).toEqual(facts.notFound);
  });
});
