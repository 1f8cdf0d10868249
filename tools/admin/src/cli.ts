import { parseArgs } from 'node:util';

/** What one run of the CLI needs from outside; tests pass their own. */
export interface CliContext {
  adminUrl: string;
  adminToken: string | undefined;
  out: (line: string) => void;
  fetch: typeof fetch;
}

export const USAGE = `Usage: router-admin <command> [options]

  org create --name NAME [--retention DAYS]   create an org
  org list                                    list orgs
  org show ORG_ID                             show one org
  org retention ORG_ID DAYS                   set retention: 0 (off) or 1..3650 days
  org credit ORG_ID in|out                    set the credit state
  org disable ORG_ID | org enable ORG_ID      disable or enable an org
  org limits ORG_ID [--syntheses N] [--sockets N] [--rps N]
                                              set the org's limits per gateway replica: requests under
                                              way at once, open WebSockets, requests per second; each a
                                              number (0: no limit) or "default" (ORG_LIMIT_*)
  key issue ORG_ID                            issue an API key (printed once)
  key list ORG_ID                             list an org's keys (never the keys themselves)
  key revoke KEY_ID                           revoke a key
  member add ORG_ID EMAIL                     add a dashboard member; prints their one-time sign-in code
  member code EMAIL                           print a new one-time sign-in code for a member
  member list ORG_ID                          list an org's members
  cache evict ORG_ID --sentence TEXT          evict every cache entry of a sentence, whatever it was said with
  cache evict ORG_ID --request JSON           evict the entries a speech body (POST /v1/audio/speech) would play
  cache evict ORG_ID --all                    evict every cache entry of the org

Options: --json (machine-readable output)
Environment: ADMIN_URL (default http://127.0.0.1:3100), ADMIN_TOKEN (when the admin API requires one)`;

export class UsageError extends Error {}
export class AdminApiError extends Error {}

interface Call {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: unknown;
  render: (result: unknown) => string;
}

/** Runs one command; resolves to the process exit code (0 ok, 1 refused by the API, 2 bad usage). */
export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  let json = false;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        retention: { type: 'string' },
        syntheses: { type: 'string' },
        sockets: { type: 'string' },
        rps: { type: 'string' },
        sentence: { type: 'string' },
        request: { type: 'string' },
        all: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    json = values.json ?? false;
    if (values.help || positionals.length === 0) {
      ctx.out(USAGE);
      return values.help ? 0 : 2;
    }
    const call = plan(positionals, values);
    const result = await send(call, ctx);
    ctx.out(json ? JSON.stringify(result, null, 2) : call.render(result));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      ctx.out(`error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof AdminApiError) {
      ctx.out(`error: ${error.message}`);
      return 1;
    }
    if (error instanceof TypeError && /argument|option/i.test(error.message)) {
      ctx.out(`error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
}

interface Values {
  name?: string;
  retention?: string;
  syntheses?: string;
  sockets?: string;
  rps?: string;
  sentence?: string;
  request?: string;
  all?: boolean;
}

function plan(positionals: string[], values: Values): Call {
  const [noun, verb, id, arg] = positionals;
  const need = (value: string | undefined, what: string): string => {
    if (value === undefined || value === '') throw new UsageError(`${noun} ${verb} needs ${what}`);
    return value;
  };
  switch (`${noun} ${verb}`) {
    case 'org create':
      return {
        method: 'POST',
        path: '/admin/orgs',
        body: {
          name: need(values.name, '--name'),
          ...(values.retention === undefined
            ? {}
            : { retention_days: integer(values.retention, '--retention') }),
        },
        render: (o) => `created org ${describeOrg(o)}`,
      };
    case 'org list':
      return {
        method: 'GET',
        path: '/admin/orgs',
        render: (list) => (list as unknown[]).map(describeOrg).join('\n') || '(no orgs)',
      };
    case 'org show':
      return { method: 'GET', path: `/admin/orgs/${enc(need(id, 'ORG_ID'))}`, render: describeOrg };
    case 'org retention':
      return patch(need(id, 'ORG_ID'), { retention_days: integer(need(arg, 'DAYS'), 'DAYS') });
    case 'org credit': {
      const state = need(arg, 'in or out');
      if (state !== 'in' && state !== 'out') throw new UsageError('credit must be "in" or "out"');
      return patch(need(id, 'ORG_ID'), { credit: state });
    }
    case 'org disable':
      return patch(need(id, 'ORG_ID'), { disabled: true });
    case 'org enable':
      return patch(need(id, 'ORG_ID'), { disabled: false });
    case 'org limits': {
      const limits = {
        ...orgLimit('max_concurrent_syntheses', values.syntheses, '--syntheses'),
        ...orgLimit('max_open_sockets', values.sockets, '--sockets'),
        ...orgLimit('max_requests_per_second', values.rps, '--rps'),
      };
      if (Object.keys(limits).length === 0) {
        throw new UsageError('org limits needs at least one of --syntheses, --sockets, --rps');
      }
      return patch(need(id, 'ORG_ID'), limits);
    }
    case 'key issue':
      return {
        method: 'POST',
        path: `/admin/orgs/${enc(need(id, 'ORG_ID'))}/keys`,
        body: {},
        render: (k) => {
          const key = k as { id: string; key: string };
          return `key id ${key.id}\n${key.key}\nThis key is shown once: store it now. Only its hash is kept.`;
        },
      };
    case 'key list':
      return {
        method: 'GET',
        path: `/admin/orgs/${enc(need(id, 'ORG_ID'))}/keys`,
        render: (list) =>
          (list as Array<{ id: string; prefix: string; created_at: string; revoked_at: string | null }>)
            .map(
              (k) =>
                `${k.id}  ${k.prefix}…  created ${k.created_at}${k.revoked_at ? `  revoked ${k.revoked_at}` : ''}`,
            )
            .join('\n') || '(no keys)',
      };
    case 'key revoke':
      return {
        method: 'POST',
        path: `/admin/keys/${enc(need(id, 'KEY_ID'))}/revoke`,
        render: (k) => `revoked key ${(k as { id: string }).id}`,
      };
    case 'member add':
      return {
        method: 'POST',
        path: `/admin/orgs/${enc(need(id, 'ORG_ID'))}/members`,
        body: { email: need(arg, 'EMAIL') },
        render: describeCode,
      };
    case 'member code':
      return {
        method: 'POST',
        path: '/admin/members/code',
        body: { email: need(id, 'EMAIL') },
        render: describeCode,
      };
    case 'member list':
      return {
        method: 'GET',
        path: `/admin/orgs/${enc(need(id, 'ORG_ID'))}/members`,
        render: (list) =>
          (list as Array<{ id: string; email: string; created_at: string }>)
            .map((m) => `${m.id}  ${m.email}  added ${m.created_at}`)
            .join('\n') || '(no members)',
      };
    case 'cache evict':
      return {
        method: 'POST',
        path: `/admin/orgs/${enc(need(id, 'ORG_ID'))}/cache/evict`,
        body: evictionBody(values),
        render: (r) => `evicted ${(r as { evicted: number }).evicted} cache entries`,
      };
    default:
      throw new UsageError(`unknown command "${positionals.join(' ')}"`);
  }
}

/** What `cache evict` names: exactly one of --sentence, --request (a speech body as JSON), --all. */
function evictionBody(values: Values): Record<string, unknown> {
  const named = [values.sentence !== undefined, values.request !== undefined, values.all === true];
  if (named.filter(Boolean).length !== 1) {
    throw new UsageError('cache evict needs exactly one of --sentence, --request, --all');
  }
  if (values.all) return { all: true };
  if (values.sentence !== undefined) return { sentence: values.sentence };
  try {
    return { request: JSON.parse(values.request ?? '') as unknown };
  } catch {
    throw new UsageError('--request must be a speech body in JSON');
  }
}

/** A one-time sign-in code, for the operator to hand to the member (no mail is sent). */
function describeCode(value: unknown): string {
  const c = value as { member: { email: string }; code: string; expires_at: string };
  return [
    `sign-in code for ${c.member.email}: ${c.code}`,
    `It works once, until ${c.expires_at}: the member signs in at <router URL>/dashboard with it.`,
  ].join('\n');
}

function patch(orgId: string, body: Record<string, unknown>): Call {
  return {
    method: 'PATCH',
    path: `/admin/orgs/${enc(orgId)}`,
    body,
    render: (o) => `updated org ${describeOrg(o)}`,
  };
}

function integer(raw: string, what: string): number {
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`${what} must be a whole number of days, got "${raw}"`);
  return Number(raw);
}

/** One of an org's limits as the API takes it: a whole number, or null for "default"; nothing when not given. */
function orgLimit(field: string, raw: string | undefined, what: string): Record<string, number | null> {
  if (raw === undefined) return {};
  if (raw === 'default') return { [field]: null };
  if (!/^\d+$/.test(raw)) throw new UsageError(`${what} must be a whole number or "default", got "${raw}"`);
  return { [field]: Number(raw) };
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}

function describeOrg(value: unknown): string {
  const o = value as {
    id: string;
    name: string;
    retention_days: number;
    disabled: boolean;
    credit: string;
    active_keys: number;
    max_concurrent_syntheses?: number | null;
    max_open_sockets?: number | null;
    max_requests_per_second?: number | null;
  };
  const limit = (value: number | null | undefined): string =>
    value === null || value === undefined ? 'default' : value === 0 ? 'none' : String(value);
  const limits =
    o.max_concurrent_syntheses == null && o.max_open_sockets == null && o.max_requests_per_second == null
      ? ''
      : `  limits syntheses ${limit(o.max_concurrent_syntheses)} sockets ${limit(o.max_open_sockets)} rps ${limit(o.max_requests_per_second)}`;
  return `${o.id}  ${JSON.stringify(o.name)}  retention ${o.retention_days}d  credit ${o.credit}${o.disabled ? '  DISABLED' : ''}  keys ${o.active_keys}${limits}`;
}

async function send(call: Call, ctx: CliContext): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  if (ctx.adminToken) headers.authorization = `Bearer ${ctx.adminToken}`;
  let res: Response;
  try {
    res = await ctx.fetch(new URL(call.path, ctx.adminUrl), {
      method: call.method,
      headers,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    });
  } catch {
    throw new AdminApiError(
      `cannot reach the admin API at ${ctx.adminUrl} (is the router running? set ADMIN_URL)`,
    );
  }
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (!res.ok) throw new AdminApiError(body?.error?.message ?? `the admin API answered HTTP ${res.status}`);
  return body;
}
