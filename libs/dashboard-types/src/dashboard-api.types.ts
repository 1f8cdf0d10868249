/**
 * The JSON of the dashboard's `/api/...` answers, declared once: the server's DTOs implement these, the front
 * end (apps/dashboard/web, through its own tsconfig path) and the e2e specs import them as types. Types only:
 * this file imports nothing and holds no value, so the browser bundle gets nothing from it.
 */

export type MemberRole = 'owner' | 'member';

/**
 * `POST /v1/provider-keys/:vendor/test`, which the dashboard's vendor keys page calls: what trying the org's
 * stored key found, in words a member reads.
 */
export interface KeyCheck {
  ok: boolean;
  /** How the key was tried: the vendor's voice list, a one-word synthesis, or not at all. */
  check: 'voice_list' | 'synthesis' | 'none';
  /** The outcome in words, never the vendor's own text. */
  outcome: string;
  /** The router's error code when it failed. */
  code?: string;
  /** The vendor's HTTP status when the vendor refused. */
  provider_status?: number;
}

/** `GET /api/session`, `POST /api/session`. */
export interface Session {
  email: string;
  /** An owner also manages members, vendor keys, retention and the cache. */
  role: MemberRole;
  org: SessionOrg;
  /** Sent as x-csrf-token with every request that changes something. */
  csrf_token: string;
  expires_at: string;
}

export interface SessionOrg {
  id: string;
  name: string;
}

/** An item of `GET /api/keys`; also `DELETE /api/keys/:id`. */
export interface ApiKey {
  id: string;
  /** Empty for a key issued without a name. */
  name: string;
  /** The first characters, to tell keys apart. */
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  /** Null: the key does not expire. */
  expires_at: string | null;
  last_used_at: string | null;
}

/** `POST /api/keys`: the whole key, in this answer only. */
export interface IssuedApiKey extends ApiKey {
  key: string;
}

/** An item of `GET /api/members`. */
export interface Member {
  id: string;
  email: string;
  role: MemberRole;
  created_at: string;
  /** Whether this is the signed-in member. */
  you: boolean;
}

/** `POST /api/members` and a new code: the one-time sign-in code, in this answer only. */
export interface Invitation {
  member: Member;
  code: string;
  expires_at: string;
}

/** An item of `GET /api/audit`. */
export interface AuditEvent {
  id: string;
  /** The member's address, an API key, or the operator (admin CLI). */
  actor: string;
  action: string;
  target: string;
  created_at: string;
}

/** `GET /api/org`, `PUT /api/org/retention`. */
export interface Org {
  id: string;
  name: string;
  /** 0 (off) or 1 to 3650 days after last use. */
  retention_days: number;
  /** out: new requests and connections are refused (402). */
  credit: 'in' | 'out';
  disabled: boolean;
}

/** The org's stored key for a vendor: its last characters only. */
export interface StoredKey {
  last4: string;
  updated_at: string;
  /** Its last test, if any. */
  checked_at: string | null;
}

export interface KeyError {
  /** The router's error code. */
  code: string;
  message: string;
  at: string;
}

/** An item of `GET /api/vendors`. */
export interface Vendor {
  id: string;
  name: string;
  /** The router's ways in that the vendor's stored key enables. */
  surfaces: string[];
  key: StoredKey | null;
  /** The key's last error (from its last test); null once a test passes or a key is stored. */
  last_error: KeyError | null;
}

export interface CacheVendor {
  provider: string;
  /** Cache entries (takes) held. */
  entries: number;
  /** Bytes of audio held. */
  bytes: number;
}

/** `GET /api/cache`. */
export interface CacheHoldings {
  vendors: CacheVendor[];
  entries: number;
  bytes: number;
}

/** `GET /api/cache/retention-preview`: what a retention would delete now. */
export interface RetentionPreview extends CacheHoldings {
  retention_days: number;
}

/** `DELETE /api/cache`. */
export interface CachePurge {
  /** How many cache entries were removed. */
  evicted: number;
}

export interface UsageFigures {
  synthesized_chars: number;
  cached_chars: number;
  synthesized_sentences: number;
  cached_sentences: number;
  /** Cached sentences over all sentences, 0 to 1; null when there were none. */
  cache_share: number | null;
  /** What the cached characters would have cost at the vendors with a configured price; null when none has one. */
  saved: number | null;
}

/** `GET /api/usage`. */
export interface UsageReport {
  from: string;
  to: string;
  currency: string;
  /** Every day of the range, oldest first, zero where nothing was spoken. */
  days: Array<UsageFigures & { day: string }>;
  /** Every vendor with usage in the range. */
  vendors: Array<UsageFigures & { provider: string; price_per_million_chars: number | null }>;
  totals: UsageFigures;
}

/** An API key as the request log names it. */
export interface RequestKey {
  id: string;
  /** The first characters, to tell keys apart. */
  prefix: string;
  /** Empty for a key issued without a name. */
  name: string;
}

/** One row of the request log: never a sentence's text. */
export interface RequestRow {
  id: string;
  started_at: string;
  /** Null: a key since deleted, or none. */
  key: RequestKey | null;
  surface: string;
  vendor: string;
  /** Empty where the surface does not name it (a mirror REST request). */
  model: string;
  voice: string;
  chars: number;
  cached_chars: number;
  sentences: number;
  cached_sentences: number;
  first_audio_ms: number | null;
  duration_ms: number;
  status: string;
  /** REST surfaces; null for a socket session. */
  http_status: number | null;
  error_code: string | null;
}

/** `GET /api/requests`. */
export interface RequestPage {
  rows: RequestRow[];
  /** Passed as `cursor` for the next (older) page. */
  next_cursor: string | null;
}

/** What a group of request log rows adds up to. */
export interface BreakdownFigures {
  requests: number;
  errors: number;
  /** Characters of every sentence started (synthesized + cached). */
  chars: number;
  synthesized_chars: number;
  cached_chars: number;
  sentences: number;
  cached_sentences: number;
  /** Cached sentences over all sentences, 0 to 1; null when there were none. */
  cache_share: number | null;
  /** The cached characters at the operator's prices (VENDOR_PRICES); null where no vendor of the group has one. */
  saved: number | null;
  first_audio_p50_ms: number | null;
  first_audio_p95_ms: number | null;
}

/** `GET /api/breakdowns`. */
export interface Breakdowns {
  /** UTC days, both included. */
  from: string;
  to: string;
  currency: string;
  /** Every day of the range, oldest first. */
  days: string[];
  /** Each vendor with requests in the range, over the whole range. */
  vendors: Array<BreakdownFigures & { vendor: string }>;
  /** Per UTC day and vendor (days without requests left out). */
  by_day: Array<BreakdownFigures & { day: string; vendor: string }>;
  /** Per API key; `key` null for requests whose key is gone (or came without one). */
  keys: Array<BreakdownFigures & { key: RequestKey | null }>;
  models: Array<BreakdownFigures & { vendor: string; model: string }>;
  voices: Array<BreakdownFigures & { vendor: string; voice: string }>;
}
