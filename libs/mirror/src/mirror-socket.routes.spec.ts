import type { IncomingHttpHeaders } from 'node:http';
import { RouterError } from '@router/contracts';
import { VENDOR_ENTRIES } from '@router/vendors';
import type { MirrorSocketRoute, VendorMirror } from '@router/vendors-core';
import { MirrorSocketRoutes } from './mirror-socket.routes';

const vendorC = VENDOR_ENTRIES.vendor_c.mirror as VendorMirror;

/** A route of a made-up vendor that refuses a `timeout` past 180 at the handshake, as vendor_h does. */
const timed: MirrorSocketRoute = {
  path: /^\/live\/([^/]+)$/,
  goingAway: { code: 1001, reason: 'going away' },
  refuse: ({ query, headers }) =>
    Number(query.get('timeout') ?? 0) > 180
      ? {
          status: 400,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ error: 'timeout must be at most 180', client: headers['x-client'] }),
        }
      : undefined,
  open: () => {
    throw new Error('not opened here');
  },
  idle: () => ({ ms: 60_000, code: 1000, reason: '' }),
};

const routes = new MirrorSocketRoutes({ ...vendorC, sockets: [timed] });
const at = (path: string) => new URL(path, 'http://router');
const HEADERS: IncomingHttpHeaders = { 'x-client': 'sdk' };

describe('MirrorSocketRoutes', () => {
  it("finds a route under the vendor's prefix, with the path's ids decoded and the handshake's query and headers", () => {
    const found = routes.find(at('/vendor_c/live/voice%20one?timeout=60'), HEADERS);
    expect(found?.route).toBe(timed);
    expect(found?.handshake.params).toEqual(['voice one']);
    expect(found?.handshake.query.get('timeout')).toBe('60');
    expect(found?.handshake.headers).toBe(HEADERS);
    expect(routes.check(at('/vendor_c/live/v1?timeout=60'), HEADERS)).toBeNull();
  });

  it("answers a handshake the vendor refuses with the vendor's own answer, as it is", () => {
    expect(routes.check(at('/vendor_c/live/v1?timeout=500'), HEADERS)).toEqual({
      status: 400,
      contentType: 'application/json',
      body: '{"error":"timeout must be at most 180","client":"sdk"}',
    });
  });

  it("refuses a path the vendor has no socket at, or outside its prefix, with the vendor's 404", () => {
    for (const path of ['/vendor_c/elsewhere', '/vendor_d/live/v1', '/live/v1']) {
      const refused = routes.check(at(path), {});
      expect(refused).toBeInstanceOf(RouterError);
      const answer = routes.refusal(refused as RouterError);
      const notFound = vendorC.access.notFound({ method: 'GET', path: '/' });
      expect(answer).toEqual({
        status: notFound.status,
        contentType: notFound.headers['content-type'] ?? 'text/plain',
        body: notFound.body,
      });
    }
  });

  it("answers a failure of the router's own in the vendor's error shape", () => {
    const answer = routes.refusal(RouterError.internal());
    expect(answer.status).toBe(500);
    expect(answer.contentType).toBe('application/json');
    // vendor_c's shape, with a request id of its own each time.
    expect(JSON.parse(answer.body)).toMatchObject({
      detail: { code: 'internal_server_error', message: 'The router failed; please retry.' },
    });
  });
});
