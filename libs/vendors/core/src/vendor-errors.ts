import { RouterError } from '@router/contracts';
import type { VendorId } from './vendor-id';

/**
 * A vendor's refusal or failure as the router reports it: 429 is the org's own quota, 5xx the vendor's
 * trouble, anything else a refusal whose status and message are passed through, with the vendor's own code
 * for it where its body names one (`providerCode`).
 */
export function vendorFailure(
  vendor: VendorId,
  status: number,
  vendorMessage: string,
  vendorCode?: string,
): RouterError {
  const provider = { providerStatus: status, ...(vendorCode ? { providerCode: vendorCode } : {}) };
  if (status === 429) {
    return new RouterError(
      'provider_rate_limited',
      vendorMessage || `${vendor} rate limit reached`,
      provider,
    );
  }
  if (status >= 500) {
    return new RouterError(
      'provider_unavailable',
      vendorMessage || `${vendor} answered HTTP ${status}`,
      provider,
    );
  }
  return new RouterError(
    'provider_rejected',
    vendorMessage || `${vendor} refused the request (HTTP ${status})`,
    provider,
  );
}

/** The connection to the vendor failed or closed before the take was complete. */
export function vendorUnreachable(vendor: VendorId, cause: unknown): RouterError {
  return new RouterError(
    'provider_unavailable',
    `${vendor} could not be reached or closed the connection early`,
    { cause },
  );
}

/** The vendor sent something its protocol does not allow (a body that cannot be read as the take). */
export function vendorMalformed(vendor: VendorId, what: string): RouterError {
  return new RouterError('provider_unavailable', `${vendor} sent ${what}`);
}

/** The router's refusal of a format `vendor` cannot make: a `bad_request`, in the words every vendor's wire uses. */
export function cannotProduce(vendor: VendorId, format: string): RouterError {
  return RouterError.badRequest(`${vendor} cannot produce ${format} audio`);
}

/** `format` as `vendor` names it, where `makes` finds it one the vendor makes; else its refusal (`cannotProduce`). */
export function producibleFormat<F extends string>(
  vendor: VendorId,
  format: string,
  makes: (format: string) => format is F,
): F {
  if (!makes(format)) throw cannotProduce(vendor, format);
  return format;
}
