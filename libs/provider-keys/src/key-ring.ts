import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface SealedKey {
  ciphertext: Buffer;
  nonce: Buffer;
  authTag: Buffer;
  keyVersion: number;
}

/**
 * Master keys for the vendor keys at rest (AES-256-GCM). The newest version seals; every listed version
 * opens, so the master key can be rotated by adding a version and re-sealing at leisure.
 */
export class KeyRing {
  private readonly keys: Map<number, Buffer>;
  readonly activeVersion: number;

  constructor(keys: Map<number, Buffer>) {
    if (keys.size === 0) throw new Error('A key ring needs at least one master key');
    for (const [version, key] of keys) {
      if (key.length !== 32) throw new Error(`Master key version ${version} must be 32 bytes`);
    }
    this.keys = keys;
    this.activeVersion = Math.max(...keys.keys());
  }

  /** Parses `1:<base64>,2:<base64>`, naming the variable in every error. */
  static parse(spec: string, variable = 'PROVIDER_KEY_MASTER_KEYS'): KeyRing {
    const keys = new Map<number, Buffer>();
    for (const part of spec
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const match = /^(\d+):([A-Za-z0-9+/=_-]+)$/.exec(part);
      if (!match) throw new Error(`${variable} must look like "1:<base64 of 32 bytes>[,2:...]"`);
      const [, version, encoded] = match as unknown as [string, string, string];
      const key = Buffer.from(encoded, 'base64');
      if (key.length !== 32) throw new Error(`${variable} version ${version} must be 32 bytes of base64`);
      keys.set(Number(version), key);
    }
    if (keys.size === 0) throw new Error(`${variable} holds no key`);
    return new KeyRing(keys);
  }

  static generateSpec(): string {
    return `1:${randomBytes(32).toString('base64')}`;
  }

  /** The org and provider are bound in as associated data: a row copied to another org cannot be opened. */
  seal(plaintext: string, context: string): SealedKey {
    const nonce = randomBytes(12);
    const key = this.keys.get(this.activeVersion);
    if (!key) throw new Error('The active master key is missing');
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { ciphertext, nonce, authTag: cipher.getAuthTag(), keyVersion: this.activeVersion };
  }

  open(sealed: SealedKey, context: string): string {
    const key = this.keys.get(sealed.keyVersion);
    if (!key) throw new Error(`Master key version ${sealed.keyVersion} is not configured`);
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.nonce);
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(sealed.authTag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
  }
}

export function sealContext(orgId: string, provider: string): string {
  return `provider-key:${orgId}:${provider}`;
}
