import { randomBytes } from 'node:crypto';
import { check, defineEvent, defineRequest, defineStream, PayloadCheckError } from '@router/contracts';
import { BusError, BusRemoteError } from './bus.error';
import type { Bus, StreamSink } from './bus.interface';

/**
 * The behaviour every Bus implementation owes its callers, written once and run against each
 * implementation (in-process-bus.spec.ts, nats-bus.int-spec.ts).
 */

/** The buses one test uses. For an in-process bus all three are the same instance. */
export interface BusTrio {
  requester: Bus;
  server: Bus;
  /** A second serving process, for queue groups and broadcasts. */
  otherServer: Bus;
}

/** Builds fresh buses whose subjects all start with `prefix`, so parallel runs never meet. */
export type MakeBuses = (prefix: string) => BusTrio | Promise<BusTrio>;

const echoV1 = defineRequest({
  subject: 'test.echo.v1',
  request: check.object({ text: check.string(), delayMs: check.optional(check.integer({ min: 0 })) }),
  reply: check.object({ text: check.string(), servedBy: check.optional(check.string()) }),
});
/** The same subject as an older or careless peer sees it: nothing checked. */
const looseEchoV1 = defineRequest({
  subject: 'test.echo.v1',
  request: check.unknown(),
  reply: check.unknown(),
});

const audioV1 = defineStream({
  subject: 'test.audio.v1',
  request: check.object({ chunks: check.integer({ min: 0 }) }),
  header: check.object({ contentType: check.string() }),
  trailer: check.object({ timings: check.array(check.number()) }),
});
type AudioSink = StreamSink<{ contentType: string }, { timings: number[] }>;

const pingedV1 = defineEvent({ subject: 'test.pinged.v1', payload: check.object({ n: check.integer() }) });

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(what: string, predicate: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** Resolves with the abort reason once the sink's signal fires. */
function abortedReason(sink: AudioSink): Promise<unknown> {
  if (sink.aborted.aborted) return Promise.resolve(sink.aborted.reason);
  return new Promise((resolve) => sink.aborted.addEventListener('abort', () => resolve(sink.aborted.reason)));
}

async function caught(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

let runCounter = 0;

export function describeBusContract(name: string, makeBuses: MakeBuses): void {
  describe(`Bus contract: ${name}`, () => {
    let buses: BusTrio;
    let requester: Bus;
    let server: Bus;
    let otherServer: Bus;

    beforeEach(async () => {
      runCounter += 1;
      buses = await makeBuses(`t${process.pid}x${Date.now().toString(36)}x${runCounter}`);
      ({ requester, server, otherServer } = buses);
    });

    afterEach(async () => {
      await Promise.all([...new Set([requester, server, otherServer])].map((bus) => bus.close()));
    });

    describe('request/reply', () => {
      it('answers a request with the handler reply', async () => {
        await server.serve(echoV1, (req) => ({ text: req.text.toUpperCase() })).ready();
        await expect(requester.request(echoV1, { text: 'abc' })).resolves.toEqual({ text: 'ABC' });
        expect(requester.status()).toBe('connected');
      });

      it('refuses an invalid request before sending it, naming the field', async () => {
        const handler = jest.fn(() => ({ text: 'x' }));
        await server.serve(echoV1, handler).ready();
        const err = await caught(requester.request(echoV1, { text: 5 } as unknown as { text: string }));
        expect(err).toBeInstanceOf(PayloadCheckError);
        expect((err as PayloadCheckError).message).toBe(
          'invalid request on test.echo.v1: field "text" must be a string (got number)',
        );
        expect(handler).not.toHaveBeenCalled();
      });

      it('the server end refuses a request that does not match its contract', async () => {
        const handler = jest.fn(() => ({ text: 'x' }));
        await server.serve(echoV1, handler).ready();
        const err = await caught(requester.request(looseEchoV1, { text: ['not', 'a', 'string'] }));
        expect(err).toBeInstanceOf(BusRemoteError);
        expect(err).toMatchObject({
          code: 'invalid_payload',
          details: { subject: 'test.echo.v1', part: 'request', field: 'text' },
        });
        expect((err as Error).message).toContain('field "text" must be a string (got array)');
        expect(handler).not.toHaveBeenCalled();
      });

      it('the server end refuses to send a reply that breaks the contract', async () => {
        await server.serve(echoV1, () => ({ text: 7 }) as unknown as { text: string }).ready();
        const err = await caught(requester.request(echoV1, { text: 'a' }));
        expect(err).toBeInstanceOf(BusRemoteError);
        expect(err).toMatchObject({ code: 'invalid_payload', details: { part: 'reply', field: 'text' } });
      });

      it('the requester end refuses a reply that breaks the contract', async () => {
        await server.serve(looseEchoV1, () => ({ text: 7 })).ready();
        const err = await caught(requester.request(echoV1, { text: 'a' }));
        expect(err).toBeInstanceOf(PayloadCheckError);
        expect((err as Error).message).toBe(
          'invalid reply on test.echo.v1: field "text" must be a string (got number)',
        );
      });

      it("carries the handler's error code and details; an error without a code becomes internal", async () => {
        const domainError = Object.assign(new Error('vendor_b took too long'), {
          code: 'provider_timeout',
          details: { providerStatus: 504 },
        });
        await server
          .serve(echoV1, (req) => {
            throw req.text === 'domain' ? domainError : new TypeError('boom');
          })
          .ready();
        const remote = await caught(requester.request(echoV1, { text: 'domain' }));
        expect(remote).toBeInstanceOf(BusRemoteError);
        expect(remote).toMatchObject({
          code: 'provider_timeout',
          message: 'vendor_b took too long',
          details: { providerStatus: 504 },
        });
        expect(JSON.parse(JSON.stringify(remote))).toEqual({
          code: 'provider_timeout',
          message: 'vendor_b took too long',
          details: { providerStatus: 504 },
        });
        await expect(requester.request(echoV1, { text: 'plain' })).rejects.toMatchObject({
          code: 'internal',
          message: 'boom',
        });
      });

      it('times out when the handler is slower than the deadline', async () => {
        await server
          .serve(echoV1, async (req) => {
            await sleep(req.delayMs ?? 0);
            return { text: req.text };
          })
          .ready();
        const started = Date.now();
        const err = await caught(requester.request(echoV1, { text: 'a', delayMs: 400 }, { timeoutMs: 60 }));
        expect(err).toBeInstanceOf(BusError);
        expect(err).toMatchObject({ code: 'bus_timeout' });
        expect(Date.now() - started).toBeLessThan(350);
      });

      it('fails at once when nobody serves the subject', async () => {
        const started = Date.now();
        const err = await caught(requester.request(echoV1, { text: 'a' }, { timeoutMs: 3000 }));
        expect(err).toMatchObject({ code: 'bus_no_responders' });
        expect(Date.now() - started).toBeLessThan(1000);
      });

      it('a queue group gives each request to exactly one of its servers', async () => {
        const handled = { one: 0, two: 0 };
        await server.serve(echoV1, (req) => (handled.one++, { text: req.text, servedBy: 'one' })).ready();
        await otherServer
          .serve(echoV1, (req) => (handled.two++, { text: req.text, servedBy: 'two' }))
          .ready();
        const replies = await Promise.all(
          Array.from({ length: 40 }, (_, i) => requester.request(echoV1, { text: `${i}` })),
        );
        expect(replies.map((r) => r.text)).toEqual(Array.from({ length: 40 }, (_, i) => `${i}`));
        expect(handled.one + handled.two).toBe(40);
        expect(handled.one).toBeGreaterThan(0);
        expect(handled.two).toBeGreaterThan(0);
        expect(replies.filter((r) => r.servedBy === 'one')).toHaveLength(handled.one);
      });

      it('stops delivering after unsubscribe', async () => {
        const sub = server.serve(echoV1, (req) => ({ text: req.text }));
        await sub.ready();
        await expect(requester.request(echoV1, { text: 'a' })).resolves.toEqual({ text: 'a' });
        sub.unsubscribe();
        await sleep(20);
        await expect(requester.request(echoV1, { text: 'a' })).rejects.toMatchObject({
          code: 'bus_no_responders',
        });
      });
    });

    describe('streamed replies', () => {
      it('delivers header, chunks in order with their boundaries, and trailer', async () => {
        await server
          .serveStream(audioV1, async (req, sink) => {
            sink.header({ contentType: 'audio/mpeg' });
            for (let i = 0; i < req.chunks; i++) await sink.write(new Uint8Array([i, i, i, i % 7]));
            await sink.end({ timings: [0, 1.5] });
          })
          .ready();
        const stream = requester.requestStream(audioV1, { chunks: 50 });
        await expect(stream.header()).resolves.toEqual({ contentType: 'audio/mpeg' });
        const received: number[][] = [];
        for await (const chunk of stream) received.push([...chunk]);
        expect(received).toEqual(Array.from({ length: 50 }, (_, i) => [i, i, i, i % 7]));
        await expect(stream.trailer()).resolves.toEqual({ timings: [0, 1.5] });
      });

      it('splits and rejoins a chunk bigger than one broker message, byte for byte', async () => {
        const big = randomBytes(3 * 1024 * 1024 + 17);
        const small = randomBytes(100);
        await server
          .serveStream(audioV1, async (_req, sink) => {
            sink.header({ contentType: 'audio/wav' });
            await sink.write(big);
            await sink.write(new Uint8Array(0));
            await sink.write(small);
            await sink.end({ timings: [] });
          })
          .ready();
        const received: Buffer[] = [];
        for await (const chunk of requester.requestStream(audioV1, { chunks: 1 }))
          received.push(Buffer.from(chunk));
        expect(received.map((c) => c.length)).toEqual([big.length, 0, small.length]);
        expect(received[0].equals(big)).toBe(true);
        expect(received[2].equals(small)).toBe(true);
      });

      it('flow control keeps the server at most `window` chunks ahead of a slow consumer', async () => {
        let resolvedWrites = 0;
        let allWritten: Promise<unknown> = Promise.resolve();
        await server
          .serveStream(audioV1, async (req, sink) => {
            sink.header({ contentType: 'audio/pcm' });
            const writes = Array.from({ length: req.chunks }, (_, i) =>
              sink.write(new Uint8Array([i])).then(() => void resolvedWrites++),
            );
            allWritten = Promise.all(writes);
            await allWritten;
            await sink.end({ timings: [] });
          })
          .ready();
        const stream = requester.requestStream(audioV1, { chunks: 12 }, { window: 4 });
        await stream.header();
        await sleep(150);
        expect(resolvedWrites).toBe(4);
        const iterator = stream[Symbol.asyncIterator]();
        // Credit goes back in batches of half the window: two chunks read free two more writes.
        expect((await iterator.next()).value).toEqual(new Uint8Array([0]));
        await sleep(50);
        expect(resolvedWrites).toBe(4);
        expect((await iterator.next()).value).toEqual(new Uint8Array([1]));
        await waitFor('two more writes', () => resolvedWrites === 6);
        await sleep(50);
        expect(resolvedWrites).toBe(6);
        const rest: number[] = [];
        for (let next = await iterator.next(); !next.done; next = await iterator.next())
          rest.push(next.value[0]);
        expect(rest).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
        await allWritten;
        expect(resolvedWrites).toBe(12);
      });

      it('leaving the loop early cancels the stream on the server', async () => {
        let reason: Promise<unknown> | undefined;
        let written = 0;
        await server
          .serveStream(audioV1, async (_req, sink) => {
            reason = abortedReason(sink);
            sink.header({ contentType: 'audio/mpeg' });
            while (!sink.aborted.aborted) {
              await sink.write(new Uint8Array(64)).catch(() => undefined);
              written++;
            }
          })
          .ready();
        let read = 0;
        for await (const _chunk of requester.requestStream(audioV1, { chunks: 0 }, { window: 2 })) {
          if (++read === 3) break;
        }
        await waitFor('the server to see the cancel', () => reason !== undefined);
        await expect(reason).resolves.toMatchObject({ code: 'bus_cancelled' });
        const writtenAtCancel = written;
        await sleep(50);
        expect(written).toBe(writtenAtCancel);
      });

      it("aborting the consumer's signal cancels the stream and ends iteration with bus_cancelled", async () => {
        let reason: Promise<unknown> | undefined;
        await server
          .serveStream(audioV1, async (_req, sink) => {
            reason = abortedReason(sink);
            sink.header({ contentType: 'audio/mpeg' });
            await sink.write(new Uint8Array([1]));
            await reason;
          })
          .ready();
        const controller = new AbortController();
        const stream = requester.requestStream(audioV1, { chunks: 0 }, { signal: controller.signal });
        const chunks: Uint8Array[] = [];
        const err = await caught(
          (async () => {
            for await (const chunk of stream) {
              chunks.push(chunk);
              controller.abort();
            }
          })(),
        );
        expect(chunks).toHaveLength(1);
        expect(err).toMatchObject({ code: 'bus_cancelled' });
        await expect(stream.trailer()).rejects.toMatchObject({ code: 'bus_cancelled' });
        await waitFor('the server to see the cancel', () => reason !== undefined);
        await expect(reason).resolves.toMatchObject({ code: 'bus_cancelled' });
      });

      it("a server error mid-stream arrives after the chunks already sent, with the handler's code", async () => {
        await server
          .serveStream(audioV1, async (_req, sink) => {
            sink.header({ contentType: 'audio/mpeg' });
            for (let i = 0; i < 3; i++) await sink.write(new Uint8Array([i]));
            throw Object.assign(new Error('vendor_c hung up'), {
              code: 'provider_unavailable',
              details: { providerStatus: 503 },
            });
          })
          .ready();
        const stream = requester.requestStream(audioV1, { chunks: 3 });
        const chunks: number[] = [];
        const err = await caught(
          (async () => {
            for await (const chunk of stream) chunks.push(chunk[0]);
          })(),
        );
        expect(chunks).toEqual([0, 1, 2]);
        expect(err).toBeInstanceOf(BusRemoteError);
        expect(err).toMatchObject({
          code: 'provider_unavailable',
          message: 'vendor_c hung up',
          details: { providerStatus: 503 },
        });
        await expect(stream.header()).resolves.toEqual({ contentType: 'audio/mpeg' });
        await expect(stream.trailer()).rejects.toMatchObject({ code: 'provider_unavailable' });
      });

      it('checks header and trailer at the server end, naming the field', async () => {
        await server
          .serveStream(audioV1, async (req, sink) => {
            if (req.chunks === 1) {
              sink.header({ contentType: 5 } as unknown as { contentType: string });
              return;
            }
            sink.header({ contentType: 'audio/mpeg' });
            await sink.write(new Uint8Array([1]));
            // Returning without end(): the bus ends with no trailer, which this contract does not allow.
          })
          .ready();
        const badHeader = requester.requestStream(audioV1, { chunks: 1 });
        await expect(badHeader.header()).rejects.toMatchObject({
          code: 'invalid_payload',
          details: { part: 'header', field: 'contentType' },
        });
        const noTrailer = requester.requestStream(audioV1, { chunks: 2 });
        const chunks: Uint8Array[] = [];
        const err = await caught(
          (async () => {
            for await (const chunk of noTrailer) chunks.push(chunk);
          })(),
        );
        expect(chunks).toHaveLength(1);
        expect(err).toMatchObject({ code: 'invalid_payload', details: { part: 'trailer' } });
      });

      it('refuses an invalid stream request at once, naming the field', () => {
        expect(() => requester.requestStream(audioV1, { chunks: -1 })).toThrow(
          'invalid request on test.audio.v1: field "chunks" must be >= 0 (got -1)',
        );
      });

      it('fails with bus_no_responders when nobody serves the stream', async () => {
        const stream = requester.requestStream(audioV1, { chunks: 1 }, { timeoutMs: 3000 });
        const started = Date.now();
        await expect(stream.header()).rejects.toMatchObject({ code: 'bus_no_responders' });
        expect(Date.now() - started).toBeLessThan(1000);
      });

      it('a silent server fails the stream with bus_timeout and is told to stop', async () => {
        let reason: Promise<unknown> | undefined;
        await server
          .serveStream(audioV1, async (_req, sink) => {
            reason = abortedReason(sink);
            sink.header({ contentType: 'audio/mpeg' });
            await reason;
          })
          .ready();
        const started = Date.now();
        const stream = requester.requestStream(audioV1, { chunks: 1 }, { timeoutMs: 120 });
        const err = await caught(
          (async () => {
            for await (const _chunk of stream) {
              // never reached
            }
          })(),
        );
        expect(err).toMatchObject({ code: 'bus_timeout' });
        expect(Date.now() - started).toBeGreaterThanOrEqual(100);
        await waitFor('the server to see the cancel', () => reason !== undefined);
        await expect(reason).resolves.toMatchObject({ code: 'bus_cancelled' });
      });

      it('closing the serving bus fails open streams with bus_closed', async () => {
        let started = false;
        await server
          .serveStream(audioV1, async (_req, sink) => {
            sink.header({ contentType: 'audio/mpeg' });
            started = true;
            await abortedReason(sink);
          })
          .ready();
        const stream = requester.requestStream(audioV1, { chunks: 1 });
        await stream.header();
        await waitFor('the handler', () => started);
        await server.close();
        expect(server.status()).toBe('closed');
        await expect(stream.trailer()).rejects.toMatchObject({ code: 'bus_closed' });
      });
    });

    describe('events', () => {
      it('reaches every subscriber, in order, checked', async () => {
        const one: number[] = [];
        const two: number[] = [];
        await server.subscribe(pingedV1, (e) => void one.push(e.n)).ready();
        await otherServer.subscribe(pingedV1, (e) => void two.push(e.n)).ready();
        for (let n = 1; n <= 5; n++) await requester.publish(pingedV1, { n });
        await waitFor('both subscribers', () => one.length === 5 && two.length === 5);
        expect(one).toEqual([1, 2, 3, 4, 5]);
        expect(two).toEqual([1, 2, 3, 4, 5]);
        await expect(requester.publish(pingedV1, { n: 1.5 })).rejects.toThrow(
          'invalid event on test.pinged.v1: field "n" must be an integer (got number)',
        );
      });

      it('gives each event once to a queue group, and still to every plain subscriber', async () => {
        const grouped: number[] = [];
        const plain: number[] = [];
        await server.subscribe(pingedV1, (e) => void grouped.push(e.n), { queue: 'counters' }).ready();
        await otherServer.subscribe(pingedV1, (e) => void grouped.push(e.n), { queue: 'counters' }).ready();
        await otherServer.subscribe(pingedV1, (e) => void plain.push(e.n)).ready();
        for (let n = 1; n <= 20; n++) await requester.publish(pingedV1, { n });
        await waitFor('plain subscriber', () => plain.length === 20);
        await waitFor('queue group', () => grouped.length >= 20);
        await new Promise((r) => setTimeout(r, 100));
        expect([...grouped].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      });
    });

    describe('status', () => {
      it("is 'connected' while open and 'closed' after close", async () => {
        expect(requester.status()).toBe('connected');
        await requester.close();
        expect(requester.status()).toBe('closed');
        await expect(requester.request(echoV1, { text: 'a' })).rejects.toMatchObject({ code: 'bus_closed' });
      });
    });
  });
}
