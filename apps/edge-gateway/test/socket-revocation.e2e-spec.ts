import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import {
  adminCli,
  createOrgWithVendorKey,
  eventually,
  readE2eStack,
  streamHandshakeStatus,
} from '@router/testing';

const stack = readE2eStack();
const WS_BASE = stack.gatewayUrl.replace(/^http/, 'ws');
/** A change reaches open sockets within seconds; a socket still open after this is a failure. */
const CLOSE_BOUND_MS = 10_000;

/** A client socket through the gateway: its messages (text as parsed JSON, audio as byte counts) and its close. */
interface Client {
  ws: WebSocket;
  messages: unknown[];
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves once a message that `matches` has come (or rejects when the socket closes first). */
  until(matches: (message: any) => boolean): Promise<any>;
  send(message: Record<string, unknown>): void;
}

async function open(path: string, headers: Record<string, string>): Promise<Client> {
  const ws = new WebSocket(`${WS_BASE}${path}`, { headers });
  const messages: unknown[] = [];
  const waiting: Array<() => void> = [];
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    messages.push(isBinary ? { audioBytes: data.length } : (JSON.parse(data.toString()) as unknown));
    waiting.splice(0).forEach((wake) => wake());
  });
  let isClosed = false;
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => {
      isClosed = true;
      waiting.splice(0).forEach((wake) => wake());
      resolve({ code, reason: reason.toString() });
    }),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    messages,
    closed,
    async until(matches) {
      for (;;) {
        const found = messages.find(matches);
        if (found !== undefined) return found;
        if (isClosed) throw new Error(`closed before the message came: ${JSON.stringify(messages)}`);
        await new Promise<void>((wake) => waiting.push(wake));
      }
    },
    send: (message) => ws.send(JSON.stringify(message)),
  };
}

/** The socket's close, or a failure once the bound has passed (the bound is generous; nothing is timed). */
function closeWithin(client: Client): Promise<{ code: number; reason: string }> {
  return Promise.race([
    client.closed,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the socket is still open')), CLOSE_BOUND_MS).unref(),
    ),
  ]);
}

const VENDOR_A_SETTINGS = {
  type: 'settings',
  model: 'vendor_a/a_model_1',
  voice: 'aarila',
  language: 'en-IN',
  response_format: 'pcm',
};

/** A /v1/stream session that has spoken one sentence, so it is a working connection before the change. */
async function speakingStream(key: string): Promise<Client> {
  const client = await open('/v1/stream', { authorization: `Bearer ${key}` });
  client.send(VENDOR_A_SETTINGS);
  await client.until((m) => m.type === 'ready');
  client.send({ type: 'text', text: `Hello there ${randomUUID().slice(0, 8)}. ` });
  await client.until((m) => m.type === 'sentence_end');
  return client;
}

/** A vendor_c stream-input session keyed in its first message, as the vendor's clients may open it. */
async function speakingStreamInput(key: string): Promise<Client> {
  const voices = await fetch(`${stack.gatewayUrl}/vendor_c/v1/voices`, {
    headers: { 'vendor_c-api-key': key },
  });
  const voice = ((await voices.json()) as { voices: Array<{ voice_id: string }> }).voices[0].voice_id;
  const client = await open(
    `/vendor_c/v1/text-to-speech/${voice}/stream-input?model_id=c_model_1&output_format=pcm_16000`,
    {},
  );
  client.send({
    text: ' ',
    vendor_c_api_key: key,
    voice_settings: { stability: 0.5, similarity_boost: 0.75 },
  });
  client.send({ text: `Hello there ${randomUUID().slice(0, 8)}. `, flush: true });
  await client.until((m) => m.alignment !== undefined && m.audio === null);
  return client;
}

const newOrg = async (vendor: 'vendor_a' | 'vendor_c', name: string) =>
  createOrgWithVendorKey(stack, vendor, `${name}-${randomUUID().slice(0, 8)}`);

describe('open sockets through the gateway when access is withdrawn (e2e)', () => {
  it('closes a /v1/stream socket whose key is revoked with the unauthorized error and 1008; another key of the org goes on', async () => {
    const { orgId, key, keyId } = await newOrg('vendor_a', 'revoke-stream');
    const second = adminCli(stack.adminUrl, ['key', 'issue', orgId, '--json']).json.key as string;
    const client = await speakingStream(key);
    const other = await speakingStream(second);
    expect(adminCli(stack.adminUrl, ['key', 'revoke', keyId]).code).toBe(0);
    expect(await closeWithin(client)).toEqual({ code: 1008, reason: 'unauthorized' });
    expect(client.messages.at(-1)).toEqual({
      type: 'error',
      error: {
        code: 'unauthorized',
        message: 'The API key was revoked or deleted while the connection was open.',
        retryable: false,
      },
    });
    other.send({ type: 'text', text: `Still here ${randomUUID().slice(0, 8)}. ` });
    await other.until((m) => m.type === 'sentence_end' && m.sentence === 1);
    other.ws.close();
  });

  it('closes a vendor_c stream-input socket keyed in its first message when its key is revoked', async () => {
    const { key, keyId } = await newOrg('vendor_c', 'revoke-mirror');
    const client = await speakingStreamInput(key);
    expect(adminCli(stack.adminUrl, ['key', 'revoke', keyId]).code).toBe(0);
    expect(await closeWithin(client)).toEqual({ code: 1008, reason: 'invalid_api_key' });
    expect(client.messages.at(-1)).toEqual({
      message: 'Invalid API key. The router API key is unknown or has been revoked.',
      error: 'invalid_api_key',
      code: 1008,
    });
  });

  it("closes every open socket of a disabled org, /v1/stream and the mirror's alike", async () => {
    const { orgId, key } = await newOrg('vendor_c', 'disable-sockets');
    await fetch(`${stack.gatewayUrl}/v1/provider-keys/vendor_a`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: `vk-${randomUUID()}` }),
    });
    const stream = await speakingStream(key);
    const mirror = await speakingStreamInput(key);
    expect(adminCli(stack.adminUrl, ['org', 'disable', orgId]).code).toBe(0);
    expect(await closeWithin(stream)).toEqual({ code: 1008, reason: 'unauthorized' });
    expect(stream.messages.at(-1)).toMatchObject({
      type: 'error',
      error: { code: 'unauthorized', message: 'The org was disabled while the connection was open.' },
    });
    expect(await closeWithin(mirror)).toEqual({ code: 1008, reason: 'invalid_api_key' });
    expect(mirror.messages.at(-1)).toEqual({
      message: 'Invalid API key. The organisation of this router API key is disabled.',
      error: 'invalid_api_key',
      code: 1008,
    });
  });

  it('keeps the open sockets of an org set out of credit speaking', async () => {
    const { orgId, key } = await newOrg('vendor_c', 'credit-sockets');
    const mirror = await speakingStreamInput(key);
    expect(adminCli(stack.adminUrl, ['org', 'credit', orgId, 'out']).code).toBe(0);
    // Out of credit is seen by a new handshake first; the open socket must still speak after that.
    await eventually(
      'new handshakes refused with 402',
      async () => (await streamHandshakeStatus(stack.gatewayUrl, key)) === 402,
    );
    const spoken = mirror.messages.length;
    mirror.send({ text: `Still speaking ${randomUUID().slice(0, 8)}. `, flush: true });
    await mirror.until(
      (m) => mirror.messages.indexOf(m) >= spoken && m.alignment !== undefined && m.audio === null,
    );
    mirror.send({ text: '' });
    expect((await closeWithin(mirror)).code).toBe(1000);
  });
});
