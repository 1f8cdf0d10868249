import {
  describeKeyPlacements,
  keyHeader,
  keyHeaderNames,
  keyMessageField,
  keyMessageFields,
  keyProtocol,
  keyProtocolAfter,
  keyQuery,
  keyQueryNames,
  type KeyPlacements,
  offeredProtocols,
  pathWithKey,
  placeKey,
  readMessageKey,
  readProtocolKey,
  readRequestKey,
} from './key-placement';

function request(headers: Record<string, string | string[]> = {}, query = '') {
  return { headers, query: new URLSearchParams(query) };
}

const BEARER = keyHeader('Authorization', 'Bearer');
const SEVERAL: KeyPlacements = [
  keyHeader('x-api-key'),
  BEARER,
  keyQuery('key'),
  keyMessageField('api_key'),
  keyMessageField('authorization', 'Bearer'),
];

describe('reading a key by its placements', () => {
  it('reads a bare header, a header after its scheme (any case) and a query parameter', () => {
    expect(readRequestKey(SEVERAL, request({ 'x-api-key': ' rtr_h ' }))).toBe('rtr_h');
    expect(readRequestKey(SEVERAL, request({ authorization: 'bearer  rtr_b' }))).toBe('rtr_b');
    expect(readRequestKey(SEVERAL, request({}, 'alt=sse&key=rtr_q'))).toBe('rtr_q');
  });

  it('takes the first placement that holds a key, in the order declared', () => {
    expect(
      readRequestKey(SEVERAL, request({ 'x-api-key': 'rtr_h', authorization: 'Bearer rtr_b' }, 'key=q')),
    ).toBe('rtr_h');
    expect(readRequestKey(SEVERAL, request({ authorization: 'Bearer rtr_b' }, 'key=rtr_q'))).toBe('rtr_b');
  });

  it('reads no key from another scheme, a bare credential, an empty value or a place not declared', () => {
    for (const authorization of ['Token rtr_x', 'rtr_x', 'Bearer', 'Bearer a b', '']) {
      expect(readRequestKey([BEARER], request({ authorization }))).toBeUndefined();
    }
    expect(readRequestKey(SEVERAL, request({ 'x-api-key': '  ' }, 'key='))).toBeUndefined();
    expect(readRequestKey(SEVERAL, request({ 'api-key': 'rtr_x' }, 'api_key=rtr_x'))).toBeUndefined();
  });

  it('reads a header sent twice as its first value, as Node reads authorization', () => {
    expect(readRequestKey(SEVERAL, request({ 'x-api-key': ['rtr_1', 'rtr_2'] }))).toBe('rtr_1');
  });

  it('never reads a message field from a request, nor a request place from a message', () => {
    expect(readRequestKey(SEVERAL, request({ api_key: 'rtr_x' }))).toBeUndefined();
    expect(readMessageKey(SEVERAL, { 'x-api-key': 'rtr_x', key: 'rtr_x' })).toBeUndefined();
  });

  it('reads a message field, bare or after its scheme, and only a string', () => {
    expect(readMessageKey(SEVERAL, { api_key: 'rtr_m', text: ' ' })).toBe('rtr_m');
    expect(readMessageKey(SEVERAL, { authorization: 'Bearer rtr_b' })).toBe('rtr_b');
    expect(readMessageKey(SEVERAL, { authorization: 'rtr_b' })).toBeUndefined();
    expect(readMessageKey(SEVERAL, { api_key: 42 })).toBeUndefined();
    expect(readMessageKey(SEVERAL, { api_key: '', authorization: 'Bearer rtr_b' })).toBe('rtr_b');
  });

  it('names each kind of place once, header names in lower case', () => {
    const sameHeader: KeyPlacements = [keyHeader('Authorization', 'Token'), BEARER];
    expect(keyHeaderNames(sameHeader)).toEqual(['authorization']);
    expect(keyHeaderNames(SEVERAL)).toEqual(['x-api-key', 'authorization']);
    expect(keyQueryNames(SEVERAL)).toEqual(['key']);
    expect(keyMessageFields(SEVERAL)).toEqual(['api_key', 'authorization']);
  });
});

describe('reading a key offered as a WebSocket sub-protocol', () => {
  const PREFIX = keyProtocol('api-subscription-key.');
  const PAIR = keyProtocolAfter('token');
  const BOTH: KeyPlacements = [keyHeader('x-api-key'), PREFIX, PAIR];

  it('splits the offered protocols as a handshake lists them, a repeated header joined', () => {
    expect(offeredProtocols(' a, b ,, c')).toEqual(['a', 'b', 'c']);
    expect(offeredProtocols(['a, b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(offeredProtocols(undefined)).toEqual([]);
  });

  it('reads `<prefix><key>`: the key, the protocol itself to answer with, the other protocols left', () => {
    expect(readProtocolKey(BOTH, ['chat', 'api-subscription-key.rtr_p', 'v2'])).toEqual({
      key: 'rtr_p',
      count: 1,
      answer: 'api-subscription-key.rtr_p',
      rest: ['chat', 'v2'],
    });
  });

  it('reads `<marker>, <key>`: the key, the marker to answer with, both taken out', () => {
    expect(readProtocolKey(BOTH, ['Token', 'rtr_t', 'chat'])).toEqual({
      key: 'rtr_t',
      count: 1,
      answer: 'Token',
      rest: ['chat'],
    });
  });

  it('reads no key from a bare prefix, a marker with nothing after it, or a place not declared', () => {
    const none = (offered: string[]) => readProtocolKey(BOTH, offered);
    expect(none(['api-subscription-key.'])).toEqual({
      key: undefined,
      count: 0,
      answer: undefined,
      rest: ['api-subscription-key.'],
    });
    expect(none(['chat', 'token'])).toEqual({
      key: undefined,
      count: 0,
      answer: undefined,
      rest: ['chat', 'token'],
    });
    expect(readProtocolKey([PREFIX], ['token', 'rtr_t'])).toMatchObject({ key: undefined, count: 0 });
    expect(readProtocolKey([keyHeader('x-api-key')], ['api-subscription-key.rtr_p']).key).toBeUndefined();
  });

  it('counts every key offered, takes the first placement declared, and leaves none of them in the rest', () => {
    expect(readProtocolKey(BOTH, ['token', 'rtr_t', 'api-subscription-key.rtr_p'])).toEqual({
      key: 'rtr_p',
      count: 2,
      answer: 'api-subscription-key.rtr_p',
      rest: [],
    });
    expect(readProtocolKey(BOTH, ['api-subscription-key.rtr_1', 'api-subscription-key.rtr_2'])).toMatchObject(
      {
        key: 'rtr_1',
        count: 2,
        rest: [],
      },
    );
  });

  it('is read by readRequestKey from the handshake header, after the placements declared before it', () => {
    const header = { 'sec-websocket-protocol': 'api-subscription-key.rtr_p' };
    expect(readRequestKey(BOTH, request(header))).toBe('rtr_p');
    expect(readRequestKey(BOTH, request({ ...header, 'x-api-key': 'rtr_h' }))).toBe('rtr_h');
    expect(readRequestKey(BOTH, request({ 'sec-websocket-protocol': 'token, rtr_t' }))).toBe('rtr_t');
    expect(readRequestKey(SEVERAL, request(header))).toBeUndefined();
  });

  it('names no header, query parameter or message field for it', () => {
    expect([keyHeaderNames(BOTH), keyQueryNames(BOTH), keyMessageFields(BOTH)]).toEqual([
      ['x-api-key'],
      [],
      [],
    ]);
  });
});

describe('placing a key', () => {
  it('puts it in a header, after the scheme when there is one, or in the query', () => {
    expect(placeKey(keyHeader('x-api-key'), 'k')).toEqual({ headers: { 'x-api-key': 'k' }, query: [] });
    expect(placeKey(BEARER, 'k')).toEqual({ headers: { authorization: 'Bearer k' }, query: [] });
    expect(placeKey(keyQuery('key'), 'k')).toEqual({ headers: {}, query: [['key', 'k']] });
  });

  it('reads back where it placed it', () => {
    for (const placement of [keyHeader('x-api-key'), BEARER, keyQuery('key')] as const) {
      const placed = placeKey(placement, 'rtr_k');
      const query = new URL(pathWithKey('/v1/x', placed), 'http://vendor').searchParams;
      expect(readRequestKey([placement], { headers: placed.headers, query })).toBe('rtr_k');
    }
  });

  it('adds a query key to a path with or without a query, encoded', () => {
    const placed = placeKey(keyQuery('key'), 'a&b');
    expect(pathWithKey('/v1/x', placed)).toBe('/v1/x?key=a%26b');
    expect(pathWithKey('/v1/x?alt=sse', placed)).toBe('/v1/x?alt=sse&key=a%26b');
    expect(pathWithKey('/v1/x?alt=sse', placeKey(BEARER, 'k'))).toBe('/v1/x?alt=sse');
  });
});

describe('describing placements', () => {
  it('says each place in words, with its scheme', () => {
    expect(
      describeKeyPlacements([
        keyHeader('authorization', 'Bearer'),
        keyHeader('x-api-key'),
        keyQuery('key'),
        keyMessageField('api_key'),
        keyProtocol('api-subscription-key.'),
        keyProtocolAfter('token'),
      ]),
    ).toBe(
      'the authorization header as "Bearer <key>" or the x-api-key header or the key query parameter or ' +
        'the api_key field of a socket message or the WebSocket sub-protocol "api-subscription-key.<key>" ' +
        'or the WebSocket sub-protocols "token, <key>"',
    );
  });
});
