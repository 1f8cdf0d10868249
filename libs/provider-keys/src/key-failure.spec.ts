import { RouterError } from '@router/contracts';
import { type KeyFailure, KeyFailureReporter, keyFailureInWords } from './key-failure';

describe('KeyFailureReporter', () => {
  const refused = new RouterError('provider_rejected', 'vendor said no', { providerStatus: 401 });
  let clock: number;
  let writes: Array<[string, string, KeyFailure]>;
  let writeErrors: unknown[];
  let failWrites: boolean;
  const reporter = (): KeyFailureReporter =>
    new KeyFailureReporter(
      async (orgId, provider, failure) => {
        writes.push([orgId, provider, failure]);
        if (failWrites) throw new Error('database down');
      },
      60_000,
      (error) => writeErrors.push(error),
      () => clock,
    );

  beforeEach(() => {
    clock = 1_000_000;
    writes = [];
    writeErrors = [];
    failWrites = false;
  });

  it("writes a vendor's failure in words, with the router's code", () => {
    reporter().report('org-1', 'vendor_a', refused);
    expect(writes).toEqual([
      ['org-1', 'vendor_a', { code: 'provider_rejected', message: keyFailureInWords('vendor_a', refused) }],
    ]);
    expect(writes[0]?.[2].message).toContain('vendor_a refused the key (HTTP 401)');
    expect(writes[0]?.[2].message).not.toContain('vendor said no');
  });

  it('writes a key at most once per interval, each key on its own', () => {
    const keys = reporter();
    keys.report('org-1', 'vendor_a', refused);
    clock += 59_999;
    keys.report('org-1', 'vendor_a', new RouterError('provider_unavailable', 'down'));
    keys.report('org-1', 'vendor_b', refused);
    keys.report('org-2', 'vendor_a', refused);
    clock += 1;
    keys.report('org-1', 'vendor_a', new RouterError('provider_rate_limited', 'slow down'));
    expect(writes.map(([org, vendor, f]) => `${org} ${vendor} ${f.code}`)).toEqual([
      'org-1 vendor_a provider_rejected',
      'org-1 vendor_b provider_rejected',
      'org-2 vendor_a provider_rejected',
      'org-1 vendor_a provider_rate_limited',
    ]);
  });

  it("ignores the router's own failures, which say nothing of the key", () => {
    const keys = reporter();
    for (const error of [
      RouterError.internal(new Error('bug')),
      new RouterError('provider_key_missing', 'none stored'),
      new RouterError('unavailable', 'NATS down'),
    ])
      keys.report('org-1', 'vendor_a', error);
    expect(writes).toEqual([]);
  });

  it('loses a report whose write fails, never throwing, and tries again after the interval', async () => {
    failWrites = true;
    const keys = reporter();
    expect(() => keys.report('org-1', 'vendor_a', refused)).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(writeErrors).toHaveLength(1);
    failWrites = false;
    clock += 60_000;
    keys.report('org-1', 'vendor_a', refused);
    expect(writes).toHaveLength(2);
  });
});
