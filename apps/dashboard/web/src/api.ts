import type { Session } from '@router/dashboard-types';

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
