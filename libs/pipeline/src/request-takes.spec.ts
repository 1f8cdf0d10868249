import { createLogger } from '@router/observability';
import {
  type DropInRequest,
  type DropInWire,
  jsonReply,
  NO_LABELS,
  wholeBodyAnswer,
} from '@router/vendors-core';
import { RequestTakePlanner } from './request-takes';
import { StoredSettings } from './stored-settings';

/** A wire whose every POST is cached by its body, and whose answers depend on a version header. */
const wire: DropInWire = {
  endpoints: [],
  keying: (request) =>
    request.method === 'POST'
      ? {
          cacheable: true,
          canonical: { method: 'POST', path: request.path, query: {}, body: { raw: request.body.length } },
          stored: [],
          chars: 3,
        }
      : { cacheable: false },
  labels: () => NO_LABELS,
  headers: { keyed: ['x-api-version'], passed: ['content-type'], liveOnly: [] },
  readAnswer: () => wholeBodyAnswer(),
  invalidBody: () => jsonReply(422, {}),
};
const mirror = { vendor: 'vendor_i' as const, dropIn: wire };

const planner = new RequestTakePlanner({
  secret: 'secret',
  storedSettings: new StoredSettings(
    {
      keys: { get: () => Promise.reject(new Error('no stored settings are read here')) },
      upstream: () => undefined,
      logger: createLogger({ service: 'test', level: 'silent' }),
    },
    { refreshMs: 60_000, readTimeoutMs: 1000 },
  ),
});

function post(headers: Record<string, string>): DropInRequest {
  return { method: 'POST', path: '/tts/bytes', query: '', headers, body: Buffer.from('{"a":1}') };
}

describe('RequestTakePlanner', () => {
  const base = { 'content-type': 'application/json', accept: 'audio/*' };

  it("keys a request with the wire's keyed headers, and sends them on with the body's type", async () => {
    const versioned = await planner.plan(
      'org',
      mirror,
      post({ ...base, 'x-api-version': '2026-03-01' }),
      true,
    );
    expect(versioned.request.headers).toEqual({ ...base, 'x-api-version': '2026-03-01' });
    const older = await planner.plan('org', mirror, post({ ...base, 'x-api-version': '2025-04-16' }), true);
    const none = await planner.plan('org', mirror, post(base), true);
    expect(new Set([versioned.cacheKey, older.cacheKey, none.cacheKey]).size).toBe(3);
    expect(none.request.headers).toEqual(base);
  });

  it('neither sends on nor keys any other header of the client', async () => {
    const plain = await planner.plan('org', mirror, post(base), true);
    const extra = await planner.plan(
      'org',
      mirror,
      post({ ...base, 'user-agent': 'sdk/1.0', cookie: 'a=b' }),
      true,
    );
    expect(extra.request.headers).toEqual(base);
    expect(extra.cacheKey).toBe(plain.cacheKey);
    expect(extra.cache).toBe(true);
  });

  it("sends the wire's sent headers on without keying them: its keying says what they mean", async () => {
    const sending = { ...mirror, dropIn: { ...wire, headers: { ...wire.headers, sent: ['x-api-release'] } } };
    const one = await planner.plan('org', sending, post({ ...base, 'x-api-release': '2025-05-01' }), true);
    const two = await planner.plan('org', sending, post({ ...base, 'x-api-release': '2025-06-01' }), true);
    expect(one.request.headers).toEqual({ ...base, 'x-api-release': '2025-05-01' });
    expect(two.request.headers).toEqual({ ...base, 'x-api-release': '2025-06-01' });
    expect(one.cacheKey).toBe(two.cacheKey);
  });

  it('gives a never-cached request a key of its own each time', async () => {
    const get = { ...post(base), method: 'GET' };
    const [one, two] = await Promise.all([
      planner.plan('org', mirror, get, true),
      planner.plan('org', mirror, get, true),
    ]);
    expect(one.cache).toBe(false);
    expect(one.cacheKey).not.toBe(two.cacheKey);
  });
});
