import {
  describeUrl,
  relabelCatalogColumns,
  withCatalogTypes,
  withDatabase,
  type PgDriverAdapter,
} from './pg-adapter';

describe('catalog column types', () => {
  it('relabels "char" and name columns as text and reports "char" ones as Character through the adapter', async () => {
    const rows = [['orgs_check', 'c', 'x']];
    const pgResult = relabelCatalogColumns({
      fields: [{ dataTypeID: 19 }, { dataTypeID: 18 }, { dataTypeID: 25 }],
      rows,
    });
    expect(pgResult.fields.map((f) => f.dataTypeID)).toEqual([25, 25, 25]);

    // What adapter-pg returns for that result: every column typed Text (7), the same rows array.
    const fake = {
      queryRaw: () => Promise.resolve({ columnNames: ['n', 't', 'x'], columnTypes: [7, 7, 7], rows }),
      startTransaction: () =>
        Promise.resolve({ queryRaw: () => Promise.resolve({ columnTypes: [7], rows: [] }) }),
    } as unknown as PgDriverAdapter;
    const adapter = withCatalogTypes(fake);
    const result = await adapter.queryRaw({ sql: '', args: [], argTypes: [] });
    expect(result.columnTypes).toEqual([7, 6, 7]);
    const tx = await adapter.startTransaction();
    await expect(tx.queryRaw({ sql: '', args: [], argTypes: [] })).resolves.toMatchObject({
      columnTypes: [7],
    });
  });

  it('handles multi-statement results and leaves other types alone', () => {
    const results = relabelCatalogColumns([
      { fields: [{ dataTypeID: 19 }] },
      { fields: [{ dataTypeID: 23 }] },
    ]);
    expect(results.map((r) => r.fields[0].dataTypeID)).toEqual([25, 23]);
  });
});

describe('URL helpers', () => {
  it('points a URL at another database and keeps its parameters', () => {
    expect(withDatabase('postgresql://u:p@h:5433/main?sslmode=require', 'shadow_1')).toBe(
      'postgresql://u:p@h:5433/shadow_1?sslmode=require',
    );
  });

  it('describes a URL without its credentials', () => {
    expect(describeUrl('postgresql://user:secret@db.internal:6543/router')).toBe('db.internal:6543/router');
    expect(describeUrl('postgresql://user:secret@db.internal/router')).toBe('db.internal:5432/router');
    expect(describeUrl('not a url')).toBe('(unparsable URL)');
  });
});
