import { heldThroughOutage } from './held-through-outage';
import { RouterError } from './router-error';
import { isStoreUnreachable } from './store-unreachable';

const withCode = (code: string, message = 'failed'): Error => Object.assign(new Error(message), { code });

describe('isStoreUnreachable', () => {
  it.each([
    ['a refused connection (node-postgres, the server stopped)', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    [
      'PostgreSQL shutting down (57P01)',
      withCode('57P01', 'terminating connection due to administrator command'),
    ],
    ['PostgreSQL starting (57P03)', withCode('57P03', 'the database system is starting up')],
    ['a connection exception (class 08)', withCode('08006')],
    ['Prisma: the database is not reachable (P1001)', withCode('P1001')],
    ['Prisma: a pool timeout (P2024)', withCode('P2024')],
    ['node-postgres: a connection ended without a code', new Error('Connection terminated unexpectedly')],
    [
      "Prisma's driver adapter error",
      Object.assign(new Error('x'), {
        meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } },
      }),
    ],
    ['a wrapped cause', new Error('lookup failed', { cause: withCode('ECONNREFUSED') })],
    ['an error from the other side of the bus, by its code', { code: 'ECONNREFUSED', message: 'x' }],
    ['one of several connects', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')])],
  ])('is true for %s', (_, error) => {
    expect(isStoreUnreachable(error)).toBe(true);
  });

  it.each([
    ['a statement the server refused (42P01)', withCode('42P01', 'relation "x" does not exist')],
    ['a unique violation (23505)', withCode('23505')],
    ['Prisma: a record not found (P2025)', withCode('P2025')],
    ['a plain error', new Error('boom')],
    ['the router error of a vendor', new RouterError('provider_unavailable', 'x')],
    ['not an error at all', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('is false for %s', (_, error) => {
    expect(isStoreUnreachable(error)).toBe(false);
  });
});

describe('RouterError.unexpected', () => {
  it('tells an unreachable store as the retryable 503 unavailable, anything else as internal', () => {
    expect(RouterError.unexpected(withCode('ECONNREFUSED'))).toMatchObject({
      code: 'unavailable',
      status: 503,
      retryable: true,
    });
    expect(RouterError.unexpected(new Error('boom'))).toMatchObject({ code: 'internal', status: 500 });
    const own = new RouterError('bad_request', 'x');
    expect(RouterError.unexpected(own)).toBe(own);
  });
});

describe('heldThroughOutage', () => {
  const held = { value: 'kept', at: 1000 };

  it('answers what is held while the store is unreachable, up to the bound', () => {
    expect(heldThroughOutage(withCode('ECONNREFUSED'), held, 1000 + 500, 500)).toBe('kept');
  });

  it('is unavailable past the bound, or with nothing held', () => {
    expect(() => heldThroughOutage(withCode('ECONNREFUSED'), held, 1000 + 501, 500)).toThrow(
      expect.objectContaining({ code: 'unavailable' }),
    );
    expect(() => heldThroughOutage(withCode('ECONNREFUSED'), undefined, 0, 500)).toThrow(
      expect.objectContaining({ code: 'unavailable' }),
    );
  });

  it('passes any other failure on, held or not', () => {
    expect(() => heldThroughOutage(new Error('boom'), held, 1000, 500)).toThrow(
      expect.objectContaining({ code: 'internal' }),
    );
  });
});
