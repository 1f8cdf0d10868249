import { BusError } from '@router/bus';
import { isErrorCode, RouterError } from '@router/contracts';

/** A failure that crossed the bus (or happened on the way) as the RouterError the client should see. */
export function asRouterError(error: unknown): RouterError {
  if (error instanceof RouterError) return error;
  if (error instanceof BusError) {
    if (isErrorCode(error.code)) {
      const details = (error.details ?? {}) as { providerStatus?: unknown; providerCode?: unknown };
      return new RouterError(
        error.code,
        error.code === 'internal' ? 'The router failed; please retry.' : error.message,
        {
          ...(typeof details.providerStatus === 'number' ? { providerStatus: details.providerStatus } : {}),
          ...(typeof details.providerCode === 'string' ? { providerCode: details.providerCode } : {}),
          cause: error,
        },
      );
    }
    return RouterError.unexpected(error);
  }
  return RouterError.unexpected(error);
}
