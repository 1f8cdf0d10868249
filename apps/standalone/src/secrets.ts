import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KeyRing } from '@router/provider-keys';

export interface StandaloneSecrets {
  signingSecret: string;
  providerKeyMasterKeys: string;
  cacheKeySecret: string;
}

/**
 * The standalone router needs secrets that survive restarts (stored vendor keys must stay readable), yet a
 * fresh machine has none: they are made once and kept, readable by the owner only, in the data directory.
 * Values given in the environment win.
 */
export function loadOrCreateSecrets(dataDir: string, given: Partial<StandaloneSecrets>): StandaloneSecrets {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'secrets.json');
  const stored = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<StandaloneSecrets>)
    : {};
  const secrets: StandaloneSecrets = {
    signingSecret: stored.signingSecret ?? randomBytes(32).toString('base64url'),
    providerKeyMasterKeys: stored.providerKeyMasterKeys ?? KeyRing.generateSpec(),
    cacheKeySecret: stored.cacheKeySecret ?? randomBytes(32).toString('base64url'),
  };
  if (!existsSync(file)) {
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return {
    signingSecret: given.signingSecret ?? secrets.signingSecret,
    providerKeyMasterKeys: given.providerKeyMasterKeys ?? secrets.providerKeyMasterKeys,
    cacheKeySecret: given.cacheKeySecret ?? secrets.cacheKeySecret,
  };
}
