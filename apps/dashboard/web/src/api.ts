/** The answers of the dashboard's `/api/...` endpoints and of `/v1/provider-keys` (the same session). */
export interface Session {
  email: string;
  role: 'owner' | 'member';
  org: { id: string; name: string };
  csrf_token: string;
  expires_at: string;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
  last_used_at: string | null;
}

export interface Member {
  id: string;
  email: string;
  role: 'owner' | 'member';
  created_at: string;
  you: boolean;
}

export interface Invitation {
  member: Member;
  code: string;
  expires_at: string;
}

export interface AuditEvent {
  id: string;
  actor: string;
  action: string;
  target: string;
  created_at: string;
}

export interface Org {
  id: string;
  name: string;
  retention_days: number;
  credit: 'in' | 'out';
  disabled: boolean;
}

export interface Vendor {
  id: string;
  name: string;
  surfaces: string[];
  key: { last4: string; updated_at: string; checked_at: string | null } | null;
  last_error: { code: string; message: string; at: string } | null;
}

export interface CacheHoldings {
  vendors: Array<{ provider: string; entries: number; bytes: number }>;
  entries: number;
  bytes: number;
}

export interface RetentionPreview extends CacheHoldings {
  retention_days: number;
}

/** What "test this key" found. */
export interface KeyCheck {
  ok: boolean;
  check: 'voice_list' | 'synthesis' | 'none';
  outcome: string;
  code?: string;
  provider_status?: number;
}

export interface ProviderKey {
  provider: string;
  last4: string;
  updated_at: string;
}

export interface Figures {
  synthesized_chars: number;
  cached_chars: number;
  synthesized_sentences: number;
  cached_sentences: number;
  cache_share: number | null;
  saved: number | null;
}

export interface Usage {
  from: string;
  to: string;
  currency: string;
  days: Array<Figures & { day: string }>;
  vendors: Array<Figures & { provider: string; price_per_million_chars: number | null }>;
  totals: Figures;
}

/** The router's catalogue (`GET /v1/models`), as far as the playground reads it. */
export interface CatalogueModel {
  id: string;
  languages: string[];
  /** Null when the voices come from the vendor's live list (`GET /v1/voices`). */
  voices: string[] | null;
}

export interface CatalogueVendor {
  id: string;
  formats: string[];
  /** The rates the vendor streams at. */
  sample_rates: number[];
  models: CatalogueModel[];
}

export interface Catalogue {
  providers: CatalogueVendor[];
}

/** A refusal in the router's envelope: its status, code and message in words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = '';
let sessionEnded: (() => void) | undefined;

/** What to do when a call finds the session over (expired or signed out elsewhere): offer to sign in again. */
export function onSessionEnded(handler: () => void): void {
  sessionEnded = handler;
}

/** Every later change carries the session's CSRF token, which only the dashboard's own pages can read. */
export function useSession(session: Session): void {
  csrfToken = session.csrf_token;
}

/** A call with the session's cookie (sent by the browser) and, when it changes something, its CSRF token. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, 'network', 'The router could not be reached. Check your connection and try again.');
  }
  if (res.status === 204) return undefined as T;
  const parsed = (await res.json().catch(() => null)) as {
    error?: { code?: string; message?: string };
  } | null;
  if (res.status === 401 && !path.startsWith('/api/session')) sessionEnded?.();
  if (!res.ok) {
    throw new ApiError(
      res.status,
      parsed?.error?.code ?? 'internal',
      parsed?.error?.message ?? `The router answered HTTP ${res.status}.`,
    );
  }
  return parsed as T;
}
