import { requestCacheKey, requestSealKey } from './cache-key';
import { openStored, sealStored } from './sealed-blob';

const SECRET = 'unit-test-secret-0123456789abcdef';
const request = (text: string) => ({
  orgId: 'org_1',
  vendor: 'vendor_c' as const,
  method: 'POST',
  path: '/v1/text-to-speech/v1/with-timestamps',
  query: { output_format: ['pcm_16000'] },
  body: { text, model_id: 'c_model_1' },
});

describe('sealed stored answers', () => {
  const answer = Buffer.from('{"audio_base64":"AAAA","alignment":{"characters":["H","i"]}}');

  it('opens what it sealed, and the sealed bytes hold nothing of the answer', () => {
    const key = requestSealKey(SECRET, request('Hi'));
    const sealed = sealStored(key, answer);
    expect(sealed.includes(Buffer.from('characters'))).toBe(false);
    expect(openStored(key, sealed).equals(answer)).toBe(true);
  });

  it("cannot be opened with another request's key, nor once altered", () => {
    const sealed = sealStored(requestSealKey(SECRET, request('Hi')), answer);
    expect(() => openStored(requestSealKey(SECRET, request('Ho')), sealed)).toThrow();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1] = (altered[altered.length - 1] ?? 0) ^ 1;
    expect(() => openStored(requestSealKey(SECRET, request('Hi')), altered)).toThrow();
    expect(() => openStored(requestSealKey(SECRET, request('Hi')), answer)).toThrow(/not sealed/);
  });

  it('derives the seal key from the whole request, apart from its cache key', () => {
    const hi = request('Hi');
    expect(requestSealKey(SECRET, hi)).toMatch(/^[0-9a-f]{64}$/);
    expect(requestSealKey(SECRET, hi)).toBe(requestSealKey(SECRET, request('Hi')));
    expect(requestSealKey(SECRET, hi)).not.toBe(requestCacheKey(SECRET, hi));
    expect(requestSealKey(SECRET, hi)).not.toBe(requestSealKey(`${SECRET}x`, hi));
  });
});
