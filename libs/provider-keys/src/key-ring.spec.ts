import { randomBytes } from 'node:crypto';
import { KeyRing, sealContext } from './key-ring';

const spec = (v: number) => `${v}:${randomBytes(32).toString('base64')}`;

describe('KeyRing', () => {
  it('seals and opens, with nothing of the key visible in the sealed parts', () => {
    const ring = KeyRing.parse(spec(1));
    const secret = 'vendor-secret-key-0123456789';
    const sealed = ring.seal(secret, sealContext('org', 'vendor_c'));
    for (const part of [sealed.ciphertext, sealed.nonce, sealed.authTag]) {
      expect(part.toString('utf8')).not.toContain(secret);
      expect(part.toString('latin1')).not.toContain('0123456789');
    }
    expect(ring.open(sealed, sealContext('org', 'vendor_c'))).toBe(secret);
  });

  it('refuses to open a sealed key under another org or provider', () => {
    const ring = KeyRing.parse(spec(1));
    const sealed = ring.seal('k', sealContext('org-a', 'vendor_c'));
    expect(() => ring.open(sealed, sealContext('org-b', 'vendor_c'))).toThrow();
    expect(() => ring.open(sealed, sealContext('org-a', 'vendor_b'))).toThrow();
  });

  it('seals with the newest version and still opens older ones after rotation', () => {
    const v1 = spec(1);
    const old = KeyRing.parse(v1).seal('k1', 'ctx');
    const rotated = KeyRing.parse(`${v1},${spec(2)}`);
    expect(rotated.activeVersion).toBe(2);
    expect(rotated.seal('k2', 'ctx').keyVersion).toBe(2);
    expect(rotated.open(old, 'ctx')).toBe('k1');
  });

  it('names the variable when the spec is bad', () => {
    expect(() => KeyRing.parse('nonsense')).toThrow('PROVIDER_KEY_MASTER_KEYS');
    expect(() => KeyRing.parse('1:c2hvcnQ=')).toThrow('32 bytes');
  });
});
