import { connect } from 'node:net';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { createOrgWithVendorKey, readE2eStack } from '@router/testing';

const stack = readE2eStack();
const WS_BASE = stack.gatewayUrl.replace(/^http/, 'ws');
const MULTI_STREAM = '/vendor_c/v1/text-to-speech/voice-1/multi-stream-input?model_id=c_model_1';

/** `{...fields, "x": [[[…]]]}` with `levels` levels in all, the message itself being level 1. */
function deepMessage(fields: Record<string, string>, levels: number): string {
  return `${JSON.stringify(fields).slice(0, -1)},"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
}

/** Opens a socket, sends `messages` once open, and collects what comes back until the router closes it. */
function exchange(
  path: string,
  headers: Record<string, string>,
  messages: string[],
): Promise<
  | { refused: { status: number; body: string } }
  | { received: unknown[]; close: { code: number; reason: string } }
> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${WS_BASE}${path}`, { headers });
    const received: unknown[] = [];
    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ refused: { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() } }),
      );
    });
    ws.on('open', () => messages.forEach((message) => ws.send(message)));
    ws.on('message', (data: Buffer) => received.push(JSON.parse(data.toString()) as unknown));
    ws.on('close', (code, reason) => resolve({ received, close: { code, reason: reason.toString() } }));
    ws.on('error', reject);
  });
}

async function healthz(): Promise<number> {
  return (await fetch(`${stack.gatewayUrl}/healthz`)).status;
}

const BAD_MESSAGE = {
  message: 'x nests arrays and objects deeper than the limit of 32 levels',
  error: 'invalid_request',
  code: 1008,
};

describe('the gateway under messages and paths no client should send (e2e)', () => {
  it('refuses a first message with no key and a key field nested 20,000 levels as a bad message, and still answers', async () => {
    const result = await exchange(MULTI_STREAM, {}, [deepMessage({ authorization: 'x' }, 20_000)]);
    expect(result).toEqual({ received: [BAD_MESSAGE], close: { code: 1008, reason: 'invalid_request' } });
    expect(await healthz()).toBe(200);
  });

  it('refuses a deep message with a key field on an authenticated socket the same way, and still answers', async () => {
    const { key } = await createOrgWithVendorKey(stack, 'vendor_c', `hostile-${randomUUID().slice(0, 8)}`);
    const result = await exchange(MULTI_STREAM, { 'vendor_c-api-key': key }, [
      deepMessage({ vendor_c_api_key: key }, 20_000),
    ]);
    expect(result).toEqual({ received: [BAD_MESSAGE], close: { code: 1008, reason: 'invalid_request' } });
    expect(await healthz()).toBe(200);
  });

  it("refuses a socket path the mirror does not have at the handshake with the vendor's 404", async () => {
    const { key } = await createOrgWithVendorKey(stack, 'vendor_c', `no-path-${randomUUID().slice(0, 8)}`);
    for (const headers of [{}, { 'vendor_c-api-key': key }] as Array<Record<string, string>>) {
      const result = await exchange('/vendor_c/v1/text-to-dialogue/stream-input', headers, []);
      expect(result).toEqual({ refused: { status: 404, body: '{"detail":"Not Found"}' } });
    }
    expect(await healthz()).toBe(200);
  });

  it('answers a request target no URL parser takes with 500, on a handshake too, and still answers', async () => {
    for (const upgrade of [false, true]) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(stack.gatewayUrl).port), '127.0.0.1');
        let received = '';
        socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
        socket.once('close', () => resolve(received));
        socket.once('error', reject);
        const head = ['GET http://[ HTTP/1.1', 'Host: gateway', 'Connection: close'];
        if (upgrade) head.push('Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13');
        socket.end(`${head.join('\r\n')}\r\n\r\n`);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 500 /);
    }
    expect(await healthz()).toBe(200);
  });
});
