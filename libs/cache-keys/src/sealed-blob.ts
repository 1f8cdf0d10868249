import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** `RS1`, then the 12-byte nonce and the 16-byte GCM tag, then the ciphertext. */
const MAGIC = Buffer.from('RS1', 'latin1');
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

function keyBytes(hexKey: string): Buffer {
  const key = Buffer.from(hexKey, 'hex');
  if (key.length !== 32) throw new RangeError('a seal key is 32 bytes, hex');
  return key;
}

/** `plain` sealed (AES-256-GCM) under `hexKey` (`requestSealKey`), for the blob store. */
export function sealStored(hexKey: string, plain: Buffer): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyBytes(hexKey), nonce);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([MAGIC, nonce, cipher.getAuthTag(), body]);
}

/** What `sealStored` sealed; throws when the bytes were not sealed under this key or were altered. */
export function openStored(hexKey: string, sealed: Buffer): Buffer {
  const head = MAGIC.length + NONCE_BYTES + TAG_BYTES;
  if (sealed.length < head || !sealed.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new Error('the stored answer is not sealed');
  }
  const nonce = sealed.subarray(MAGIC.length, MAGIC.length + NONCE_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', keyBytes(hexKey), nonce);
  decipher.setAuthTag(sealed.subarray(MAGIC.length + NONCE_BYTES, head));
  return Buffer.concat([decipher.update(sealed.subarray(head)), decipher.final()]);
}
