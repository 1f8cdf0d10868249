import { RouterError } from '@router/contracts';
import { findModel, type VendorId } from '@router/vendors-core';
import { findVendor, VOICE_VENDORS } from '@router/vendors';

export interface VoicesQuery {
  readonly provider: VendorId;
  /** A router model id of the provider, without the vendor. */
  readonly model?: string;
}

const PARAMETERS: ReadonlySet<string> = new Set(['provider', 'model']);

/** One query parameter as a single string, or a `bad_request` naming it. */
function single(query: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw RouterError.badRequest(`${name} must be given once, as a string`);
  return value;
}

/**
 * The query of `GET /v1/voices`: `provider` (required, one of `VOICE_VENDORS`) and `model` (optional, one of the
 * provider's router model ids). Anything else is a `bad_request` naming the parameter.
 */
export function parseVoicesQuery(query: Readonly<Record<string, unknown>>): VoicesQuery {
  const unknown = Object.keys(query).filter((name) => !PARAMETERS.has(name));
  if (unknown.length > 0) {
    throw RouterError.badRequest(
      `Unknown query parameter ${unknown.join(', ')}: GET /v1/voices takes provider and model only`,
    );
  }
  const provider = single(query, 'provider');
  if (provider === undefined || provider === '') {
    throw RouterError.badRequest(`provider is required: one of ${VOICE_VENDORS.join(', ')}`);
  }
  const def = (VOICE_VENDORS as readonly string[]).includes(provider) ? findVendor(provider) : undefined;
  if (!def) throw RouterError.badRequest(`provider must be one of ${VOICE_VENDORS.join(', ')}`);
  const model = single(query, 'model');
  if (model === undefined) return { provider: def.id };
  if (!findModel(def, model)) {
    const models = def.catalogue.models.map((m) => m.id).join(', ');
    throw RouterError.badRequest(`model must be one of ${def.id}'s models (${models}), without the vendor`);
  }
  return { provider: def.id, model };
}
