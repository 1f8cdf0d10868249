import { connect, type Socket } from 'node:net';
import { limitMessage } from '@router/contracts';
import {
  adminCli,
  call,
  createOrgWithKey,
  eventually,
  type HttpResult,
  mirrorE2e,
  openSocket,
  readE2eStack,
  type RawAnswer,
  streamHandshakeStatus,
  TestSocket,
} from '@router/testing';
import { MIRRORS, mirrorAccess } from '@router/vendors';
import { limitedSocketRefusal, type MirrorReply } from '@router/vendors-core';

/*
 * Per-org limits set through the admin API (its CLI) take effect at the gateway, and past one every surface
 * answers 429 with Retry-After in its own shape: the native envelope on /v1/... and at a /v1/stream
 * handshake, and each mirror's vendor's own 429 (a table over the registry's mirrors), at its REST door and
 * at its sockets.
 */

const stack = readE2eStack();
const gw = stack.gatewayUrl;
const gatewayPort = Number(new URL(gw).port);

/**
 * A request the gateway admits and then holds: its head sent, its body never finished, so it stays under way
 * (counted against the org's requests at once) until the connection is dropped. `answered` is true once the
 * gateway answered it instead (refused: a probe of the test's own was under way when it came).
 */
interface HeldRequest {
  readonly socket: Socket;
  answered: boolean;
}

function holdRequest(path: string, headers: Readonly<Record<string, string>>): HeldRequest {
  const socket = connect(gatewayPort, '127.0.0.1');
  const held: HeldRequest = { socket, answered: false };
  socket.on('error', () => undefined);
  socket.once('data', () => {
    held.answered = true;
  });
  const head = [
    `POST ${path} HTTP/1.1`,
    `host: 127.0.0.1:${gatewayPort}`,
    'content-type: application/json',
    'content-length: 64',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.write(`${head.join('\r\n')}\r\n\r\n{`);
  return held;
}

/**
 * Holds one request at `path` and probes with `probe` until a probe is refused with 429 (the held request is
 * held again whenever a probe under way made the gateway refuse it); the held request is dropped at the end.
 */
async function refusedWhileHeld<T extends { status: number }>(
  path: string,
  headers: Readonly<Record<string, string>>,
  probe: () => Promise<T>,
): Promise<T> {
  let held = holdRequest(path, headers);
  let refused: T | undefined;
  try {
    await eventually('a request refused while one is under way', async () => {
      if (held.answered) {
        held.socket.destroy();
        held = holdRequest(path, headers);
      }
      const answer = await probe();
      if (answer.status === 429 && !held.answered) refused = answer;
      return refused !== undefined;
    });
  } finally {
    held.socket.destroy();
  }
  return refused as T;
}

/** Sets an org's limits with the admin CLI; the API's answer shows them. */
function setLimits(orgId: string, flags: string[]): Record<string, unknown> {
  const set = adminCli(stack.adminUrl, ['org', 'limits', orgId, ...flags, '--json']);
  expect(set.code).toBe(0);
  return set.json as Record<string, unknown>;
}

/** A body with its ids (the vendors' `request_id`, new in every answer) masked; text that is not JSON as it is. */
function masked(body: string): unknown {
  try {
    return JSON.parse(body, (name, value: unknown) =>
      name === 'request_id' && value !== null ? '<id>' : value,
    );
  } catch {
    return body;
  }
}

/** A concrete path matching one of a mirror's socket paths (its ids as `voice1`). */
function socketPathOf(pattern: RegExp): string {
  return pattern.source
    .replace(/^\^|\$$/g, '')
    .replace(/\([^)]*\)/g, 'voice1')
    .replace(/\\\//g, '/');
}

async function refusedHandshake(socket: TestSocket): Promise<RawAnswer | undefined> {
  const handshake = await socket.handshake;
  if (handshake.kind === 'refused') return handshake.answer;
  socket.close();
  return undefined;
}

describe('per-org limits (e2e)', () => {
  it('holds an org to the requests under way set through the admin API: the envelope, Retry-After', async () => {
    const { orgId, key } = createOrgWithKey(stack.adminUrl, 'limits-native');
    expect(setLimits(orgId, ['--syntheses', '1'])).toMatchObject({
      id: orgId,
      max_concurrent_syntheses: 1,
      max_open_sockets: null,
      max_requests_per_second: null,
    });
    const shown = adminCli(stack.adminUrl, ['org', 'show', orgId]);
    expect(shown.out).toContain('limits syntheses 1 sockets default rps default');

    const refused = await refusedWhileHeld('/v1/audio/speech', { authorization: `Bearer ${key}` }, () =>
      call(gw, 'POST', '/v1/audio/speech', { key, body: {} }),
    );
    expect(refused?.body).toEqual({
      error: { code: 'rate_limited', message: limitMessage('concurrentSyntheses', 1), retryable: true },
    });
    expect(refused?.headers.get('retry-after')).toBe('1');
    // The held request's place is freed once it is gone: the next one reaches the app (its 400).
    await eventually(
      'the place freed',
      async () => (await call(gw, 'POST', '/v1/audio/speech', { key, body: {} })).status === 400,
    );
    // Back to the default (none in the test stack): nothing is refused.
    expect(setLimits(orgId, ['--syntheses', 'default'])).toMatchObject({ max_concurrent_syntheses: null });
  });

  it('holds an org to its requests per second, saying when to retry', async () => {
    const { orgId, key } = createOrgWithKey(stack.adminUrl, 'limits-rate');
    setLimits(orgId, ['--rps', '1']);
    let refused: HttpResult | undefined;
    await eventually('a burst past one request per second refused', async () => {
      const burst = await Promise.all(
        Array.from({ length: 5 }, () => call(gw, 'GET', '/v1/provider-keys', { key })),
      );
      refused = burst.find((res) => res.status === 429);
      return refused !== undefined;
    });
    expect(refused?.body).toEqual({
      error: { code: 'rate_limited', message: limitMessage('requestsPerSecond', 1), retryable: true },
    });
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('refuses a /v1/stream handshake past the open sockets with the envelope and Retry-After', async () => {
    const { orgId, key } = createOrgWithKey(stack.adminUrl, 'limits-stream');
    setLimits(orgId, ['--sockets', '1']);
    const url = `${gw.replace(/^http/, 'ws')}/v1/stream`;
    const headers = { authorization: `Bearer ${key}` };
    const first = await openSocket(url, { headers });
    let refused: RawAnswer | undefined;
    try {
      await eventually('a second socket refused', async () => {
        refused = await refusedHandshake(new TestSocket(url, { headers }));
        return refused !== undefined;
      });
    } finally {
      first.close();
    }
    expect(refused?.status).toBe(429);
    expect(refused?.headers?.['retry-after']).toBe('1');
    expect(JSON.parse(refused?.body.toString('utf8') ?? '')).toEqual({
      error: { code: 'rate_limited', message: limitMessage('openSockets', 1), retryable: true },
    });
    await eventually('the socket place freed', async () => (await streamHandshakeStatus(gw, key)) === 101);
  });

  describe.each(MIRRORS.map((mirror) => [mirror.vendor, mirror] as const))('%s mirror', (vendor, mirror) => {
    const m = mirrorE2e(vendor);
    const access = mirrorAccess(vendor);
    const asVendorSees = { method: 'POST', path: '/limits-probe', headers: {}, query: new URLSearchParams() };

    /** An answer against the vendor's own 429 (`fail(429)`) with `message`. */
    function expectVendor429(
      answer: { status: number; type: string | null | undefined; text: string },
      expected: MirrorReply,
    ): void {
      expect(answer.status).toBe(429);
      expect(answer.type).toBe(expected.headers['content-type']);
      expect(masked(answer.text)).toEqual(masked(expected.body));
    }

    it("answers past the org's limits with the vendor's own 429 and Retry-After, at its door and its sockets", async () => {
      const org = await m.newOrg();
      setLimits(org.orgId, ['--syntheses', '1', '--sockets', '1']);
      const placed = m.placed(org.key, '/limits-probe');
      const refused = await refusedWhileHeld(`/${vendor}${placed.path}`, placed.headers, () =>
        m.send(org.key, '/limits-probe', { body: {} }),
      );
      expect(refused?.headers.get('retry-after')).toBe('1');
      expectVendor429(
        { status: refused?.status ?? 0, type: refused?.type, text: refused?.text ?? '' },
        access.fail(429, limitMessage('concurrentSyntheses', 1), asVendorSees),
      );

      // Its sockets: the org's one socket is open on /v1/stream (the limit counts every surface's).
      const [route] = mirror.sockets;
      if (route === undefined) return;
      const holder = await openSocket(`${gw.replace(/^http/, 'ws')}/v1/stream`, {
        headers: { authorization: `Bearer ${org.key}` },
      });
      try {
        const socket = m.dial(socketPathOf(route.path), org.key);
        const handshake = await socket.handshake;
        const message = limitMessage('openSockets', 1);
        if (access.socket.refusal === 'handshake') {
          expect(handshake.kind).toBe('refused');
          if (handshake.kind !== 'refused') return;
          expect(handshake.answer.headers?.['retry-after']).toBe('1');
          expectVendor429(
            {
              status: handshake.answer.status,
              type: handshake.answer.contentType,
              text: handshake.answer.body.toString('utf8'),
            },
            access.fail(429, message, asVendorSees),
          );
        } else {
          // Accepted before its key (it may come in the first message): the vendor's limit message, the close.
          const expected = limitedSocketRefusal(access.socket, message, undefined);
          const end = await socket.closed;
          expect({ code: end.code, reason: end.reason, by: end.by }).toEqual({
            code: expected.closeCode,
            reason: expected.closeReason,
            by: 'server',
          });
          expect(socket.texts.map(masked)).toEqual(expected.messages.map(masked));
        }
      } finally {
        holder.close();
      }
    });
  });
});
