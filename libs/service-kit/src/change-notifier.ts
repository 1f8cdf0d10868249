/**
 * Tells every process that caches auth state or keys that something changed, so a change is used within
 * seconds everywhere (the gateway's key directory, the workers' opened vendor keys).
 */
export interface ChangeNotifier {
  orgChanged(orgId: string): void;
  apiKeyChanged(orgId: string, keyHash: string): void;
  providerKeyChanged(orgId: string, provider: string): void;
}
