import { decodeBytesArgs, mapPostgresError } from './pglite-adapter';

const adapterError = (cause: Record<string, unknown>) =>
  Object.assign(new Error('x'), { name: 'DriverAdapterError', cause });

describe('mapPostgresError', () => {
  it('turns a unique violation into the kind Prisma reports as P2002, with the columns', () => {
    const mapped = mapPostgresError(
      adapterError({
        kind: 'postgres',
        code: '23505',
        detail: 'Key (org_id, cache_key)=(1, k) already exists.',
      }),
    ) as Error & { cause: unknown };
    expect(mapped.name).toBe('DriverAdapterError');
    expect(mapped.cause).toMatchObject({
      kind: 'UniqueConstraintViolation',
      constraint: { fields: ['org_id', 'cache_key'] },
      originalCode: '23505',
    });
  });

  it('turns a foreign-key violation into the kind Prisma reports as P2003', () => {
    const mapped = mapPostgresError(adapterError({ kind: 'postgres', code: '23503' })) as Error & {
      cause: unknown;
    };
    expect(mapped.cause).toMatchObject({ kind: 'ForeignKeyConstraintViolation', originalCode: '23503' });
  });

  it('passes every other error through untouched', () => {
    const check = adapterError({ kind: 'postgres', code: '23514' });
    const plain = new Error('boom');
    expect(mapPostgresError(check)).toBe(check);
    expect(mapPostgresError(plain)).toBe(plain);
    expect(mapPostgresError('text')).toBe('text');
  });
});

describe('decodeBytesArgs', () => {
  it('decodes base64 Bytes arguments (scalars and lists) and leaves the rest alone', () => {
    const query = decodeBytesArgs({
      sql: 'x',
      args: ['AQID', 'AQID', ['/w==', null], null],
      argTypes: [
        { scalarType: 'bytes', arity: 'scalar' },
        { scalarType: 'string', arity: 'scalar' },
        { scalarType: 'bytes', arity: 'list' },
        { scalarType: 'bytes', arity: 'scalar' },
      ],
    });
    expect(query.args).toEqual([Buffer.from([1, 2, 3]), 'AQID', [Buffer.from([255]), null], null]);
  });
});
