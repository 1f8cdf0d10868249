import { BusError, BusRemoteError, toBusErrorJSON } from './bus.error';

class RouterLikeError extends Error {
  readonly status = 502;
  readonly providerStatus: number | undefined = 503;
  readonly nested = { notCarried: true };
  constructor(readonly code: string) {
    super('vendor_d refused');
  }
}

describe('bus errors', () => {
  it('carries a coded error with its details', () => {
    const err = Object.assign(new Error('nope'), { code: 'bad_request', details: { field: 'voice' } });
    expect(toBusErrorJSON(err)).toEqual({
      code: 'bad_request',
      message: 'nope',
      details: { field: 'voice' },
    });
  });

  it("collects a coded error's own scalar fields when it has no details, so a domain error can be rebuilt", () => {
    expect(toBusErrorJSON(new RouterLikeError('provider_rejected'))).toEqual({
      code: 'provider_rejected',
      message: 'vendor_d refused',
      details: { status: 502, providerStatus: 503 },
    });
  });

  it('turns anything without a code into internal', () => {
    expect(toBusErrorJSON(new RangeError('x'))).toEqual({ code: 'internal', message: 'x' });
    expect(toBusErrorJSON('a string')).toEqual({ code: 'internal', message: 'handler failed' });
  });

  it('round-trips through JSON as a BusRemoteError', () => {
    const original = new BusError('bus_timeout', 'late', { after: 5 });
    const remote = BusRemoteError.fromJSON(JSON.parse(JSON.stringify(original)));
    expect(remote).toBeInstanceOf(BusRemoteError);
    expect(remote).toBeInstanceOf(BusError);
    expect(remote).toMatchObject({ code: 'bus_timeout', message: 'late', details: { after: 5 } });
    expect(BusRemoteError.fromJSON({ nonsense: 1 }).code).toBe('bus_protocol_error');
  });
});
