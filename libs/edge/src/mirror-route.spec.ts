import { RouterError } from '@router/contracts';
import { gatewayRoutes } from './edge-gateway';
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
});
