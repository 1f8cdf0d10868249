import { RouterError } from '@router/contracts';
import { gatewayRoutes } from './edge-gateway';
import type { RouteRequest } from './surface-routes';
import { RouteTable } from './surface-routes';

describe('mirror routes', () => {
  const table = new RouteTable(
    gatewayRoutes({ nativeApiUrl: 'http://native', mirrorUrls: { vendor_c: 'http://mirror-c' } }),
  );

  it('owns /<vendor token> and everything under it for a configured mirror', () => {
    expect(table.find('/vendor_c')?.upstream).toBe('http://mirror-c');
    expect(table.find('/vendor_c/v1/text-to-speech/v')?.name).toBe('vendor_c');
    expect(table.find('/vendor_cx/v1')).toBeUndefined();
    expect(table.find('/v1/audio/speech')?.name).toBe('native');
  });

  it('routes nothing for a vendor without a configured mirror app', () => {
    expect(table.find('/vendor_a/text-to-speech')).toBeUndefined();
    expect(table.find('/vendor_a')).toBeUndefined();
  });

  it("answers the router's own failures in the vendor's shape, with the vendor's path", () => {
    const route = table.find('/vendor_c/v1/voices')!;
    const refusal = route.refuse(
      { kind: 'failure', error: RouterError.badRequest('The request body is larger than the limit.', 413) },
      { method: 'POST', path: '/vendor_c/v1/voices', headers: {}, query: new URLSearchParams() },
    );
    expect(refusal.status).toBe(413);
    expect(JSON.parse(refusal.body.toString())).toEqual({
      detail: {
        type: 'validation_error',
        code: 'invalid_request',
        message: 'The request body is larger than the limit.',
        status: 'invalid_request',
        request_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    });
  });

  const handshake = (path: string): RouteRequest => ({
    method: 'GET',
    path,
    headers: {},
    query: new URLSearchParams(),
  });

  it("knows a mirror's socket paths from its registry entry, and no others", () => {
    const route = table.find('/vendor_c/v1/text-to-speech/voice-1/stream-input')!;
    for (const path of [
      '/vendor_c/v1/text-to-speech/voice-1/stream-input',
      '/vendor_c/v1/text-to-speech/voice-1/multi-stream-input',
      '/vendor_c/v1/text-to-dialogue/multi-stream-input',
    ]) {
      expect([path, route.hasSocket(path)]).toEqual([path, true]);
    }
    for (const path of [
      '/vendor_c/v1/text-to-dialogue/stream-input',
      '/vendor_c/v1/text-to-speech/voice-1',
      '/vendor_c/v1/text-to-speech/voice-1/stream-input/x',
      '/vendor_c/v1/voices',
      '/vendor_c',
    ]) {
      expect([path, route.hasSocket(path)]).toEqual([path, false]);
    }
  });

  it("answers a path that is no socket with the vendor's 404", () => {
    const route = table.find('/vendor_c/v1/text-to-dialogue/stream-input')!;
    const refusal = route.notFound(handshake('/vendor_c/v1/text-to-dialogue/stream-input'));
    expect([refusal.status, JSON.parse(refusal.body.toString())]).toEqual([404, { detail: 'Not Found' }]);
  });

  it('has one native socket, /v1/stream, and the envelope 404 for any other', () => {
    const route = table.find('/v1/stream')!;
    expect(route.hasSocket('/v1/stream')).toBe(true);
    expect(route.hasSocket('/v1/audio/speech')).toBe(false);
    const refusal = route.notFound(handshake('/v1/audio/speech'));
    expect([refusal.status, JSON.parse(refusal.body.toString())]).toEqual([
      404,
      { error: { code: 'not_found', message: 'No such route.', retryable: false } },
    ]);
  });
});
