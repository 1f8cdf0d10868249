import * as contracts from './index';
import type { SubjectDefinition } from './index';

function isDefinition(value: unknown): value is SubjectDefinition {
  return (
    typeof value === 'object' &&
    value !== null &&
    ['request', 'stream', 'event'].includes((value as { kind?: unknown }).kind as string) &&
    typeof (value as { subject?: unknown }).subject === 'string'
  );
}

describe('the contracts', () => {
  const exported: unknown[] = Object.values(contracts);
  const definitions = exported.filter(isDefinition);

  it('declare each subject once', () => {
    const subjects = definitions.map((d) => d.subject);
    expect(subjects.length).toBeGreaterThanOrEqual(3);
    expect(new Set(subjects).size).toBe(subjects.length);
    expect(subjects).toEqual(
      expect.arrayContaining(['health.cache.v1', 'health.synthesis.v1', 'auth.changed.v1']),
    );
  });

  it('health: an empty request, a reply naming the service', () => {
    expect(contracts.healthSynthesisV1.request({}, '')).toEqual({});
    expect(
      contracts.healthSynthesisV1.reply({ service: 'synthesis-worker', ok: true, uptimeMs: 12 }, ''),
    ).toEqual({
      service: 'synthesis-worker',
      ok: true,
      uptimeMs: 12,
    });
    expect(() =>
      contracts.healthCacheV1.reply({ service: 'cache-service', ok: 'yes', uptimeMs: 1 }, ''),
    ).toThrow('ok must be a boolean (got string)');
  });

  it('auth.changed: closed set of kinds, optional key hash and provider', () => {
    const check = contracts.authChangedV1.payload;
    expect(check({ kind: 'provider_key', orgId: 'o1', provider: 'vendor_e' }, '')).toEqual({
      kind: 'provider_key',
      orgId: 'o1',
      provider: 'vendor_e',
    });
    expect(check({ kind: 'api_key', orgId: 'o1', keyHash: 'ab12' }, '')).toEqual({
      kind: 'api_key',
      orgId: 'o1',
      keyHash: 'ab12',
    });
    expect(() => check({ kind: 'user', orgId: 'o1' }, '')).toThrow(
      'kind must be one of "org"|"api_key"|"provider_key"',
    );
    expect(() => check({ kind: 'org' }, '')).toThrow('orgId must be a string (got undefined)');
  });
});
