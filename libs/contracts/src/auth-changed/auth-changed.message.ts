import { check, type Checker } from '../core';

/**
 * Something an edge gateway caches changed: an org (disabled, credit, retention), an API key (created,
 * revoked) or a stored provider key. Gateways drop the matching cache entries; the event never carries a key.
 */
export interface AuthChanged {
  kind: 'org' | 'api_key' | 'provider_key';
  orgId: string;
  /** SHA-256 (hex) of the API key, for `api_key` changes. */
  keyHash?: string;
  /** The vendor token (`vendor_a` … `vendor_j`), for `provider_key` changes. */
  provider?: string;
}

export const authChanged: Checker<AuthChanged> = check.object({
  kind: check.literal('org', 'api_key', 'provider_key'),
  orgId: check.string({ minLength: 1 }),
  keyHash: check.optional(check.string({ minLength: 1 })),
  provider: check.optional(check.string({ minLength: 1 })),
});
