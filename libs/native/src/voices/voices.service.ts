import { RouterError } from '@router/contracts';
import type { ProviderKeyCache } from '@router/provider-keys';
import type { VendorAdapter, Voice } from '@router/vendors-core';
import type { VoicesQuery } from './voices.query';

export interface VoicesServiceDeps {
  keys: ProviderKeyCache;
  upstream: (vendor: string) => VendorAdapter | undefined;
  /** A vendor that has not answered the whole list within this time fails with provider_timeout. */
  timeoutMs: number;
}

/**
 * `GET /v1/voices`: the vendor's list read live with the org's stored key, every page, never cached. The
 * key is required for every vendor, also where the list is the router's catalogue (vendor_a, vendor_d).
 */
export class VoicesService {
  constructor(private readonly deps: VoicesServiceDeps) {}

  async list(orgId: string, query: VoicesQuery, signal: AbortSignal): Promise<{ voices: Voice[] }> {
    const { provider, model } = query;
    const apiKey = await this.deps.keys.get(orgId, provider);
    const adapter = this.deps.upstream(provider);
    if (!adapter?.listVoices) throw new RouterError('internal', `No upstream is configured for ${provider}`);
    const timeout = AbortSignal.timeout(this.deps.timeoutMs);
    try {
      const voices = await adapter.listVoices({
        apiKey,
        signal: AbortSignal.any([signal, timeout]),
        ...(model !== undefined ? { model } : {}),
      });
      return { voices };
    } catch (error) {
      if (timeout.aborted && !signal.aborted) {
        throw new RouterError(
          'provider_timeout',
          `${provider} did not answer its voice list within ${this.deps.timeoutMs} ms`,
        );
      }
      throw RouterError.unexpected(error);
    }
  }
}
