import type { Logger } from '@router/observability';
import type { MirrorRevocationKind } from '@router/vendors-core';
import { failureCause } from './failure-cause';
import type { AuthVerdict } from './key-directory';

/** One open WebSocket as the registry knows it: whose key (its hash only) and org, and how to close it. */
export interface OpenSocket {
  readonly keyHash: string;
  readonly orgId: string;
  /** The surface's route name, for logs. */
  readonly surface: string;
  /** Closes the socket with its surface's refusal for `kind`; called at most once. */
  revoke(kind: MirrorRevocationKind): void;
}

/** What the registry asks of the key directory. */
export interface SocketVerdicts {
  authenticateHash(keyHash: string): Promise<AuthVerdict>;
}

/** Which open sockets a change concerns: those of one key, those of one org, or (left out) every one. */
export interface SocketFilter {
  keyHash?: string;
  orgId?: string;
}

/**
 * The gateway's open WebSockets (spliced and relayed alike), each with its key's hash and its org, so that a
 * key revoked or an org disabled while a socket is open closes it too: at once when the change event comes
 * (`recheck` of that key or org), and within a sweep otherwise (`startSweeps`: every socket re-checked against
 * the key directory, whose entries refresh through their TTL, so a lost event still takes effect within the
 * TTL and a sweep or two). Only a revoked, deleted or unknown key (`invalid-key`) or a disabled org
 * (`org-disabled`) closes a socket: an org out of credit and a vendor key deleted leave it open, as the spec
 * says of credit. A directory that cannot answer closes nothing.
 */
export class SocketRegistry {
  private readonly sockets = new Set<OpenSocket>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(
    private readonly directory: SocketVerdicts,
    private readonly logger: Logger,
  ) {}

  get size(): number {
    return this.sockets.size;
  }

  /** How many sockets are open on each surface (its route name). */
  countBySurface(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const socket of this.sockets) counts.set(socket.surface, (counts.get(socket.surface) ?? 0) + 1);
    return counts;
  }

  /** Registers an open socket; the returned function forgets it (when the socket closes). */
  add(socket: OpenSocket): () => void {
    this.sockets.add(socket);
    return () => this.sockets.delete(socket);
  }

  /** Re-checks the open sockets `filter` picks, closing each whose key or org no longer admits it. */
  async recheck(filter: SocketFilter = {}): Promise<void> {
    const picked = [...this.sockets].filter(
      (socket) =>
        (filter.keyHash === undefined || socket.keyHash === filter.keyHash) &&
        (filter.orgId === undefined || socket.orgId === filter.orgId),
    );
    const verdicts = new Map<string, Promise<AuthVerdict | undefined>>();
    for (const socket of picked) {
      let verdict = verdicts.get(socket.keyHash);
      if (!verdict) {
        verdict = this.directory.authenticateHash(socket.keyHash).catch((error: unknown) => {
          this.logger.warn(
            { cause: failureCause(error) },
            'open sockets not re-checked: key directory unavailable',
          );
          return undefined;
        });
        verdicts.set(socket.keyHash, verdict);
      }
      const kind = revocationOf(await verdict);
      if (kind === undefined || !this.sockets.delete(socket)) continue;
      this.logger.info(
        { surface: socket.surface, orgId: socket.orgId, kind },
        'open socket closed: access revoked',
      );
      try {
        socket.revoke(kind);
      } catch (error) {
        this.logger.error({ surface: socket.surface, cause: failureCause(error) }, 'open socket not closed');
      }
    }
  }

  /** Re-checks every open socket each `intervalMs` (one sweep at a time) until `stop`. */
  startSweeps(intervalMs: number): void {
    this.stop();
    this.sweepTimer = setInterval(() => {
      if (this.sweeping || this.sockets.size === 0) return;
      this.sweeping = true;
      void this.recheck().finally(() => (this.sweeping = false));
    }, intervalMs);
    this.sweepTimer.unref();
  }

  stop(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }
}

/** Why a verdict closes an open socket, or undefined when it keeps it (admitted, or no verdict at all). */
function revocationOf(verdict: AuthVerdict | undefined): MirrorRevocationKind | undefined {
  if (!verdict || verdict.ok) return undefined;
  if (verdict.reason === 'org-disabled') return 'org-disabled';
  // An expired key closes its sockets at the next sweep, as a revoked one does.
  if (verdict.reason === 'revoked' || verdict.reason === 'expired' || verdict.reason === 'unknown-key') {
    return 'invalid-key';
  }
  return undefined;
}
