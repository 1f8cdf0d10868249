import { ComposedOpenApi, composeOpenApi } from './openapi-document';

const native = {
  openapi: '3.1.0',
  info: { title: 'Router', version: '1' },
  security: [{ bearer: [] }],
  tags: [{ name: 'speech' }],
  paths: {
    '/v1/models': { get: { operationId: 'models' } },
    '/v1/provider-keys': { get: { operationId: 'keys', security: [{ bearer: [] }, { session: [] }] } },
  },
  components: {
    schemas: { Model: { type: 'object' } },
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer' },
      session: { type: 'apiKey', in: 'cookie' },
    },
  },
};
const dashboard = {
  openapi: '3.1.0',
  info: { title: 'Dashboard', version: '1.0' },
  tags: [{ name: 'dashboard' }, { name: 'speech' }],
  paths: {
    '/api/session': { post: { operationId: 'signIn' } },
    '/api/keys': { get: { operationId: 'apiKeys', security: [{ session: [] }] } },
  },
  components: {
    schemas: { ApiKey: { type: 'object' } },
    securitySchemes: { session: { type: 'apiKey', in: 'cookie' } },
  },
};

describe('composeOpenApi', () => {
  it("keeps the first part's version, info and global security, and every part's paths, components and tags", () => {
    const document = composeOpenApi([native, dashboard]);
    expect(document).toMatchObject({ openapi: '3.1.0', info: native.info, security: native.security });
    expect(Object.keys(document['paths'] as object)).toEqual([
      '/v1/models',
      '/v1/provider-keys',
      '/api/session',
      '/api/keys',
    ]);
    expect(document['components']).toEqual({
      schemas: { Model: { type: 'object' }, ApiKey: { type: 'object' } },
      securitySchemes: native.components.securitySchemes,
    });
    expect(document['tags']).toEqual([{ name: 'speech' }, { name: 'dashboard' }]);
  });

  it("gives a later part's operations its own global security, never the first part's", () => {
    const paths = composeOpenApi([native, dashboard])['paths'] as Record<string, Record<string, unknown>>;
    // The dashboard part states no global security: its sign-in takes none, not the first part's bearer key.
    expect(paths['/api/session']?.['post']).toEqual({ operationId: 'signIn', security: [] });
    expect(paths['/api/keys']?.['get']).toEqual({ operationId: 'apiKeys', security: [{ session: [] }] });
    expect(paths['/v1/models']?.['get']).toEqual({ operationId: 'models' });
    const secured = composeOpenApi([native, { ...dashboard, security: [{ session: [] }] }])[
      'paths'
    ] as Record<string, Record<string, unknown>>;
    expect(secured['/api/session']?.['post']).toEqual({ operationId: 'signIn', security: [{ session: [] }] });
  });

  it('refuses two parts describing one operation, or one component differently', () => {
    expect(() =>
      composeOpenApi([native, { paths: { '/v1/models': { get: { operationId: 'other' } } } }]),
    ).toThrow('two surfaces describe get of /v1/models in the OpenAPI document');
    expect(() =>
      composeOpenApi([native, { components: { schemas: { Model: { type: 'string' } } } }]),
    ).toThrow('two surfaces describe components.schemas.Model differently');
    // Another method of the same path is no clash.
    const both = composeOpenApi([native, { paths: { '/v1/models': { post: { operationId: 'add' } } } }]);
    expect(Object.keys((both['paths'] as Record<string, object>)['/v1/models'] ?? {})).toEqual([
      'get',
      'post',
    ]);
  });
});

describe('ComposedOpenApi', () => {
  it('reads the parts once for askers within its keeping time, again after it, and again after a failure', async () => {
    let now = 0;
    let reads = 0;
    let fail = false;
    const composed = new ComposedOpenApi(
      async () => {
        reads += 1;
        if (fail) throw new Error('a part is unavailable');
        return [native, dashboard];
      },
      1000,
      () => now,
    );
    const [first, second] = await Promise.all([composed.document(), composed.document()]);
    expect(first.equals(second)).toBe(true);
    expect(JSON.parse(first.toString())).toEqual(composeOpenApi([native, dashboard]));
    now = 999;
    await composed.document();
    expect(reads).toBe(1);
    now = 1000;
    fail = true;
    await expect(composed.document()).rejects.toThrow('a part is unavailable');
    fail = false;
    await composed.document();
    expect(reads).toBe(3);
  });
});
