import type { Bus } from '@router/bus';
import { type AuthChanged, authChangedV1 } from '@router/contracts';
import type { Logger } from '@router/observability';

/**
 * Tells every process that caches auth state or keys that something changed, so a change is used within
 * seconds everywhere (the gateway's key directory, the workers' opened vendor keys).
 */
export interface ChangeNotifier {
  orgChanged(orgId: string): void;
  apiKeyChanged(orgId: string, keyHash: string): void;
  providerKeyChanged(orgId: string, provider: string): void;
}

/** Publishes changes on the bus; a lost event is covered by the caches' short TTLs. */
export class BusChangeNotifier implements ChangeNotifier {
  constructor(
    private readonly bus: Bus,
    private readonly logger: Logger,
  ) {}

  orgChanged(orgId: string): void {
    this.send({ kind: 'org', orgId });
  }

  apiKeyChanged(orgId: string, keyHash: string): void {
    this.send({ kind: 'api_key', orgId, keyHash });
  }

  providerKeyChanged(orgId: string, provider: string): void {
    this.send({ kind: 'provider_key', orgId, provider });
  }

  private send(event: AuthChanged): void {
    this.bus.publish(authChangedV1, event).catch((error: unknown) => {
      this.logger.warn(
        { err: error, kind: event.kind, orgId: event.orgId },
        'change event not published; TTLs will catch up',
      );
    });
  }
}
