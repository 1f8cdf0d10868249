import WebSocket from 'ws';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { type ProviderId, RouterClient, type Sentence, type StreamSettings } from '@router/client';
import { REPO_ROOT } from './processes';
import type { StackInfo } from './stack';

export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * A plain HTTP call whose JSON body (if any) is parsed; tests assert on status, headers and body. For the
 * native API prefer the typed client (`createOrgClient`, `@router/client`); this is for what a typed
 * client cannot send (malformed bodies, unknown fields, raw headers) and for non-native routes.
 */
export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(new URL(path, baseUrl), {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the text stays available
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export interface CliResult {
  code: number;
  out: string;
  json: any;
}

/** Runs the admin CLI as an operator would, against the admin API at `adminUrl`. */
export function adminCli(adminUrl: string, args: string[]): CliResult {
  const result = spawnSync(process.execPath, [join(REPO_ROOT, 'dist/tools/admin/main.js'), ...args], {
    env: { PATH: process.env.PATH ?? '', ADMIN_URL: adminUrl },
    encoding: 'utf8',
  });
  const out = `${result.stdout}${result.stderr}`;
  let json: unknown;
  try {
    json = JSON.parse(result.stdout);
  } catch {
    json = undefined;
  }
  return { code: result.status ?? -1, out, json };
}

/** A new org with one key, made through the admin CLI. */
export function createOrgWithKey(
  adminUrl: string,
  name: string,
): { orgId: string; key: string; keyId: string } {
  const org = adminCli(adminUrl, ['org', 'create', '--name', name, '--json']);
  if (org.code !== 0) throw new Error(`org create failed: ${org.out}`);
  const key = adminCli(adminUrl, ['key', 'issue', org.json.id, '--json']);
  if (key.code !== 0) throw new Error(`key issue failed: ${key.out}`);
  return { orgId: org.json.id, key: key.json.key, keyId: key.json.id };
}

/** A new org with one key, and the typed client of the native API acting for it through the gateway. */
export function createOrgClient(
  stack: Pick<StackInfo, 'adminUrl' | 'gatewayUrl'>,
  name: string,
): { orgId: string; key: string; keyId: string; client: RouterClient } {
  const org = createOrgWithKey(stack.adminUrl, name);
  return { ...org, client: new RouterClient({ baseUrl: stack.gatewayUrl, apiKey: org.key }) };
}

/**
 * A new org with one key and a vendor key of its own stored through the gateway, so a simulator's counts
 * for that vendor key are the caller's alone.
 */
export async function createOrgWithVendorKey(
  stack: Pick<StackInfo, 'adminUrl' | 'gatewayUrl'>,
  vendor: ProviderId,
  name: string,
): Promise<{ orgId: string; key: string; keyId: string; vendorKey: string; client: RouterClient }> {
  // The admin API straight over HTTP, as the CLI calls it: hundreds of e2e orgs start no CLI process each.
  const { id: orgId } = await adminPost<{ id: string }>(stack.adminUrl, '/admin/orgs', { name });
  const issued = await adminPost<{ id: string; key: string }>(
    stack.adminUrl,
    `/admin/orgs/${encodeURIComponent(orgId)}/keys`,
    {},
  );
  const client = new RouterClient({ baseUrl: stack.gatewayUrl, apiKey: issued.key });
  const vendorKey = `vk-${name}-${randomUUID()}`;
  await client.providerKeys.put(vendor, vendorKey);
  return { orgId, key: issued.key, keyId: issued.id, client, vendorKey };
}

/**
 * A POST to the admin API (no token: the stack's admin port is loopback-only); throws on a refusal. A connection
 * of its own each time, as the CLI's process has: a pooled one the server is closing for idleness fails the call.
 */
function adminPost<T>(adminUrl: string, path: string, body: unknown): Promise<T> {
  const payload = JSON.stringify(body);
  return new Promise<T>((resolve, reject) => {
    const req = httpRequest(
      new URL(path, adminUrl),
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', reject);
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) reject(new Error(`admin POST ${path}: HTTP ${status} ${text}`));
          else resolve(JSON.parse(text) as T);
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Retries `probe` until it returns true; change propagation takes a moment by design. */
export async function eventually(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs = 8000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`Not true within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The status of a `/v1/stream` handshake through the gateway with `key` (101 when accepted, else the refusal's). */
export function streamHandshakeStatus(gatewayUrl: string, key: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${gatewayUrl.replace(/^http/, 'ws')}/v1/stream`, {
      headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      resolve(101);
      ws.close();
    });
    ws.on('error', reject);
  });
}

/** One sentence `/v1/stream` said: its text, whether it came from the cache, and its audio. */
export interface HeardSentence {
  text: string;
  cached: boolean;
  audio: Buffer;
}

/**
 * Says `text` on a new `/v1/stream` with `settings`, closes it, and gives every sentence it said, in order (a
 * mirror's test that its sentences are hits there for equal settings).
 */
export async function sayOnStream(
  client: RouterClient,
  settings: StreamSettings,
  text: string,
): Promise<HeardSentence[]> {
  const native = await client.stream(settings);
  const sentences = native.sentences();
  native.send(text);
  const heard: HeardSentence[] = [];
  const closing = native.close();
  for (let next = await sentences.next(); !next.done; next = await sentences.next()) {
    const sentence: Sentence = next.value;
    let audio = Buffer.alloc(0);
    for await (const chunk of sentence.audio) audio = Buffer.concat([audio, chunk]);
    heard.push({ text: sentence.text, cached: sentence.cached, audio });
  }
  await closing;
  return heard;
}
