/** The answers of the dashboard's `/api/...` endpoints and of `/v1/provider-keys` (the same session). */
export interface Session {
  email: string;
  org: { id: string; name: string };
  csrf_token: string;
  expires_at: string;
}

export interface ApiKey {
  id: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
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
  if (!res.ok) {
    throw new ApiError(
      res.status,
      parsed?.error?.code ?? 'internal',
      parsed?.error?.message ?? `The router answered HTTP ${res.status}.`,
    );
  }
  return parsed as T;
}
