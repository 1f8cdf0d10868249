import { hashApiKey, issueApiKey, looksLikeApiKey, readBearer } from './api-key';

describe('api keys', () => {
  it('issues rtr_ keys whose stored parts cannot give the key back', () => {
    const issued = issueApiKey();
    expect(issued.key).toMatch(/^rtr_[A-Za-z0-9_-]{43}$/);
    expect(issued.keyHash).toBe(hashApiKey(issued.key));
    expect(issued.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(issued.prefix.length).toBeLessThan(12);
    expect(issued.key.startsWith(issued.prefix)).toBe(true);
    expect(issueApiKey().key).not.toBe(issued.key);
  });

  it('reads bearer tokens and rejects other schemes', () => {
    expect(readBearer('Bearer rtr_abc')).toBe('rtr_abc');
    expect(readBearer('bearer   rtr_abc ')).toBe('rtr_abc');
    expect(readBearer('Basic abc')).toBeUndefined();
    expect(readBearer(undefined)).toBeUndefined();
  });

  it('recognises the key shape', () => {
    expect(looksLikeApiKey(issueApiKey().key)).toBe(true);
    expect(looksLikeApiKey('rtr_short')).toBe(false);
    expect(looksLikeApiKey('sk_' + 'a'.repeat(40))).toBe(false);
  });
});
