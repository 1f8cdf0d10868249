import { check, defineStream, jsonCodec } from '@router/contracts';
import { connect, createInbox, type NatsConnection } from 'nats';
import type { StreamSink } from './bus.interface';
import { describeBusContract } from './bus-contract.suite';
import { NatsBus } from './nats-bus';
import { decodeFrame, encodeFrame, FLAG_ALIVE, FLAG_PEER, FrameKind } from './stream-frame.codec';

const NATS_URL = 'nats://127.0.0.1:4222';

function natsBus(prefix: string, extra: Partial<ConstructorParameters<typeof NatsBus>[0]> = {}): NatsBus {
  return new NatsBus({ url: NATS_URL, prefix, requestTimeoutMs: 2000, closeGraceMs: 500, ...extra });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Holds this whole process, timers and I/O alike, as a starved process on a loaded machine is held. */
function stallProcess(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

async function connected(bus: NatsBus): Promise<NatsBus> {
  const deadline = Date.now() + 5000;
  while (bus.status() !== 'connected') {
    if (Date.now() > deadline) throw new Error(`NATS at ${NATS_URL} not reachable`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return bus;
}

// Three connections: requester and servers talk across the broker as separate processes would.
describeBusContract('NatsBus', async (prefix) => {
  const [requester, server, otherServer] = await Promise.all([
    connected(natsBus(prefix)),
    connected(natsBus(prefix)),
    connected(natsBus(prefix)),
  ]);
  return { requester, server, otherServer };
});

const rawV1 = defineStream({
  subject: 'test.raw.v1',
  request: check.empty(),
  header: check.none(),
  trailer: check.none(),
});

describe('NatsBus on the wire', () => {
  const prefix = `t${process.pid}raw${Date.now().toString(36)}`;
  let nc: NatsConnection;

  beforeAll(async () => {
    nc = await connect({ servers: NATS_URL });
  });

  afterAll(async () => {
    await nc.close();
  });

  it('is not connected while NATS is unreachable, and requests fail with bus_unavailable', async () => {
    const bus = new NatsBus({ url: 'nats://127.0.0.1:4299', reconnectDelayMs: 50 });
    try {
      expect(bus.status()).toBe('reconnecting');
      await expect(
        bus.request(
          { kind: 'request', subject: 'test.echo.v1', request: check.empty(), reply: check.empty() },
          {},
          { timeoutMs: 100 },
        ),
      ).rejects.toMatchObject({ code: 'bus_unavailable' });
      expect(bus.status()).toBe('reconnecting');
    } finally {
      await bus.close();
    }
    expect(bus.status()).toBe('closed');
  });

  it('keeps every frame within maxFrameBytes and sends audio as raw bytes after a 16-byte header', async () => {
    const bus = await connected(natsBus(prefix, { maxFrameBytes: 1024 }));
    try {
      const chunk = Buffer.alloc(2500, 7);
      await bus
        .serveStream(rawV1, async (_req, sink) => {
          await sink.write(chunk);
          await sink.end();
        })
        .ready();
      const inbox = createInbox();
      const frames: Array<{ kind: FrameKind; seq: number; size: number; payload: Buffer }> = [];
      const done = new Promise<void>((resolve) => {
        nc.subscribe(inbox, {
          callback: (_err, msg) => {
            const frame = decodeFrame(msg.data)!;
            frames.push({
              kind: frame.kind,
              seq: frame.seq,
              size: msg.data.length,
              payload: Buffer.from(frame.payload),
            });
            if (frame.kind === FrameKind.End) resolve();
            if (frame.seq === 0)
              nc.publish(msg.reply!, encodeFrame(FrameKind.Credit, 0, undefined, { value: 1 }));
          },
        });
      });
      await nc.flush();
      nc.publish(
        `${prefix}.test.raw.v1`,
        encodeFrame(FrameKind.Open, 0, jsonCodec.encode({}), { value: 4, value2: 5000 }),
        {
          reply: inbox,
        },
      );
      await done;
      expect(frames.map((f) => f.kind)).toEqual([
        FrameKind.Header,
        FrameKind.Chunk,
        FrameKind.Chunk,
        FrameKind.Chunk,
        FrameKind.End,
      ]);
      expect(frames.map((f) => f.seq)).toEqual([0, 1, 2, 3, 4]);
      expect(Math.max(...frames.map((f) => f.size))).toBeLessThanOrEqual(1024);
      expect(
        Buffer.concat(frames.filter((f) => f.kind === FrameKind.Chunk).map((f) => f.payload)).equals(chunk),
      ).toBe(true);
    } finally {
      await bus.close();
    }
  });

  it('gives up on a requester that stops pinging, so a dead peer does not hold a take open', async () => {
    const bus = await connected(natsBus(prefix, { streamLivenessMs: 5000 }));
    try {
      let aborted: Promise<unknown> | undefined;
      await bus
        .serveStream(rawV1, async (_req, sink: StreamSink<undefined, undefined>) => {
          aborted = new Promise((resolve) =>
            sink.aborted.addEventListener('abort', () => resolve(sink.aborted.reason)),
          );
          // Window 1: the second write waits for credit that a dead requester never sends.
          await sink.write(new Uint8Array([1]));
          await sink.write(new Uint8Array([2]));
        })
        .ready();
      const inbox = createInbox();
      const kinds: FrameKind[] = [];
      nc.subscribe(inbox, { callback: (_err, msg) => void kinds.push(decodeFrame(msg.data)!.kind) });
      await nc.flush();
      const started = Date.now();
      // The requester's open frame asks for a 200 ms liveness interval; then it goes silent.
      nc.publish(
        `${prefix}.test.raw.v1`,
        encodeFrame(FrameKind.Open, 0, jsonCodec.encode({}), { value: 1, value2: 200 }),
        {
          reply: inbox,
        },
      );
      const deadline = Date.now() + 3000;
      while (!aborted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      await expect(aborted).resolves.toMatchObject({ code: 'bus_timeout' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(180);
      expect(Date.now() - started).toBeLessThan(2000);
      // The error frame comes over the bus's own connection: wait for it rather than for our flush.
      const frameDeadline = Date.now() + 2000;
      while (!kinds.includes(FrameKind.Error) && Date.now() < frameDeadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // Alive frames may come between them: the server kept saying it was there while waiting for credit.
      expect(kinds.filter((k) => k !== FrameKind.Alive)).toEqual([
        FrameKind.Header,
        FrameKind.Chunk,
        FrameKind.Error,
      ]);
    } finally {
      await bus.close();
    }
  });

  it('a slow but live requester keeps its stream: pings hold the server past its liveness interval', async () => {
    const server = await connected(natsBus(prefix, { streamLivenessMs: 150 }));
    const requester = await connected(natsBus(prefix, { streamLivenessMs: 150 }));
    try {
      let aborted = false;
      await server
        .serveStream(rawV1, async (_req, sink) => {
          sink.aborted.addEventListener('abort', () => (aborted = true));
          for (let i = 0; i < 3; i++) await sink.write(new Uint8Array([i]));
          await sink.end();
        })
        .ready();
      const stream = requester.requestStream(rawV1, {}, { window: 1 });
      const iterator = stream[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toEqual(new Uint8Array([0]));
      // Hold the only credit for several liveness intervals.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(aborted).toBe(false);
      expect((await iterator.next()).value).toEqual(new Uint8Array([1]));
      expect((await iterator.next()).value).toEqual(new Uint8Array([2]));
      expect((await iterator.next()).done).toBe(true);
    } finally {
      await Promise.all([server.close(), requester.close()]);
    }
  });

  it('stalled readers keep their streams for many liveness intervals, through a stall of the whole process', async () => {
    const livenessMs = 400;
    const server = await connected(natsBus(prefix, { streamLivenessMs: livenessMs }));
    const requester = await connected(natsBus(prefix, { streamLivenessMs: livenessMs }));
    const def = { ...rawV1, subject: 'test.stalled.v1' };
    const answer = Array.from({ length: 12 }, (_, i) => Buffer.alloc(1000, i));
    const aborts: unknown[] = [];
    try {
      await server
        .serveStream(def, async (_req, sink) => {
          sink.aborted.addEventListener('abort', () => aborts.push(sink.aborted.reason));
          for (const chunk of answer) await sink.write(chunk);
          await sink.end();
        })
        .ready();
      // Several readers between the same two processes, each taking one chunk and then granting no credit.
      const iterators = Array.from({ length: 8 }, () =>
        requester.requestStream(def, {}, { window: 2 })[Symbol.asyncIterator](),
      );
      const firsts = await Promise.all(iterators.map((iterator) => iterator.next()));
      await sleep(2 * livenessMs);
      // Meanwhile the machine starves this process for longer than the interval: when it runs again, its
      // timers come due before the frames that arrived during the stall are read.
      stallProcess(2.5 * livenessMs);
      await sleep(2 * livenessMs);
      expect(aborts).toEqual([]);
      // The readers resume: each gets its whole answer, byte for byte.
      for (const [i, iterator] of iterators.entries()) {
        const got = [firsts[i].value];
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) got.push(next.value);
        expect(Buffer.concat(got).equals(Buffer.concat(answer))).toBe(true);
      }
    } finally {
      await Promise.all([server.close(), requester.close()]);
    }
  });

  it('a requester process that only heartbeats keeps its stream without credit; once it dies, it is given up', async () => {
    const bus = await connected(natsBus(prefix, { streamLivenessMs: 5000 }));
    try {
      let aborted: Promise<unknown> | undefined;
      let abortSeen = false;
      await bus
        .serveStream({ ...rawV1, subject: 'test.beat.v1' }, async (_req, sink) => {
          aborted = new Promise((resolve) =>
            sink.aborted.addEventListener('abort', () => {
              abortSeen = true;
              resolve(sink.aborted.reason);
            }),
          );
          // Window 1: the second write waits for credit this requester never grants.
          await sink.write(new Uint8Array([1]));
          await sink.write(new Uint8Array([2]));
        })
        .ready();
      // A requester process as the bus makes one: its inbox, its stream `<inbox>.r1`, its heartbeats.
      const processInbox = createInbox();
      let serverInbox: string | undefined;
      const kinds: FrameKind[] = [];
      nc.subscribe(`${processInbox}.r1`, {
        callback: (_err, msg) => {
          const frame = decodeFrame(msg.data)!;
          kinds.push(frame.kind);
          if (frame.seq === 0) serverInbox = msg.reply!.slice(0, msg.reply!.lastIndexOf('.'));
        },
      });
      await nc.flush();
      nc.publish(
        `${prefix}.test.beat.v1`,
        encodeFrame(FrameKind.Open, 0, jsonCodec.encode({}), {
          value: 1,
          value2: 400,
          flags: FLAG_ALIVE | FLAG_PEER,
        }),
        { reply: `${processInbox}.r1` },
      );
      const beat = encodeFrame(FrameKind.Ping, 0);
      const heartbeats = setInterval(() => {
        if (serverInbox) nc.publish(`${serverInbox}.hb`, beat, { reply: processInbox });
      }, 50);
      // Its process stays alive, and its stream stays without credit, for several liveness intervals.
      await sleep(3000);
      clearInterval(heartbeats);
      expect(abortSeen).toBe(false);
      // The server named itself at once, then sent what its one credit allowed.
      expect(kinds).toEqual([FrameKind.Alive, FrameKind.Header, FrameKind.Chunk]);
      // Then the process is killed: no cancel, no heartbeat, nothing more.
      const deadline = Date.now() + 3000;
      while (!abortSeen && Date.now() < deadline) await sleep(5);
      await expect(aborted).resolves.toMatchObject({ code: 'bus_timeout' });
      const frameDeadline = Date.now() + 2000;
      while (!kinds.includes(FrameKind.Error) && Date.now() < frameDeadline) await sleep(5);
      expect(kinds).toEqual([FrameKind.Alive, FrameKind.Header, FrameKind.Chunk, FrameKind.Error]);
    } finally {
      await bus.close();
    }
  });

  it('judges a silent requester again when its timer fires before the wall clock says the interval passed', async () => {
    const bus = await connected(natsBus(prefix));
    const realNow = Date.now.bind(Date);
    try {
      let aborted = false;
      await bus
        .serveStream({ ...rawV1, subject: 'test.early.v1' }, async (_req, sink) => {
          sink.aborted.addEventListener('abort', () => (aborted = true));
          await sink.write(new Uint8Array([1]));
          await sink.write(new Uint8Array([2])); // waits for credit the requester never grants
        })
        .ready();
      // A requester process (liveness 400 ms) that opens a stream and then falls silent (killed).
      const processInbox = createInbox();
      let answered = false;
      nc.subscribe(`${processInbox}.r1`, { callback: () => (answered = true) });
      await nc.flush();
      nc.publish(
        `${prefix}.test.early.v1`,
        encodeFrame(FrameKind.Open, 0, jsonCodec.encode({}), {
          value: 1,
          value2: 400,
          flags: FLAG_ALIVE | FLAG_PEER,
        }),
        { reply: `${processInbox}.r1` },
      );
      while (!answered) await sleep(5);
      // Once the server has heard the open, the wall clock lags its timers by 200 ms for a second, as a busy
      // event loop's cached time leaves timers ahead of Date.now(): the first judgement sees too little silence.
      const lagUntil = realNow() + 1000;
      jest.spyOn(Date, 'now').mockImplementation(() => {
        const now = realNow();
        return now < lagUntil ? now - 200 : now;
      });
      const deadline = realNow() + 3000;
      while (!aborted && realNow() < deadline) await sleep(10);
      expect(aborted).toBe(true);
    } finally {
      jest.restoreAllMocks();
      await bus.close();
    }
  });

  it('a server that went silent without a word (killed) fails the stream within the liveness interval', async () => {
    const requester = await connected(natsBus(prefix, { streamLivenessMs: 300 }));
    // A "server" that takes the open frame and then says nothing, as a process killed just after would.
    const swallow = nc.subscribe(`${prefix}.test.dead.v1`, { callback: () => undefined });
    await nc.flush();
    try {
      const started = Date.now();
      const stream = requester.requestStream({ ...rawV1, subject: 'test.dead.v1' }, {});
      await expect(stream.header()).rejects.toMatchObject({ code: 'bus_timeout' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(280);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      swallow.unsubscribe();
      await requester.close();
    }
  });

  it('a server that is slow but alive keeps its stream: alive frames hold the requester past its liveness', async () => {
    const server = await connected(natsBus(prefix, { streamLivenessMs: 150 }));
    const requester = await connected(natsBus(prefix, { streamLivenessMs: 150 }));
    try {
      await server
        .serveStream({ ...rawV1, subject: 'test.slow.v1' }, async (_req, sink) => {
          // Nothing at all for several liveness intervals (a vendor that has not answered yet), then audio.
          await new Promise((resolve) => setTimeout(resolve, 700));
          await sink.write(new Uint8Array([9]));
          await sink.end();
        })
        .ready();
      const chunks: Uint8Array[] = [];
      for await (const chunk of requester.requestStream({ ...rawV1, subject: 'test.slow.v1' }, {})) {
        chunks.push(chunk);
      }
      expect(chunks).toEqual([new Uint8Array([9])]);
    } finally {
      await Promise.all([server.close(), requester.close()]);
    }
  });

  it('tells every status change to its listeners', async () => {
    const bus = natsBus(prefix);
    const seen: string[] = [];
    bus.onStatusChange((status) => seen.push(status));
    await connected(bus);
    await bus.close();
    expect(seen).toEqual(['connected', 'closed']);
  });

  it('buses with different prefixes do not see each other', async () => {
    const a = await connected(natsBus(`${prefix}a`));
    const b = await connected(natsBus(`${prefix}b`));
    try {
      const def = {
        kind: 'request' as const,
        subject: 'test.echo.v1',
        request: check.empty(),
        reply: check.empty(),
      };
      await a.serve(def, () => ({})).ready();
      await expect(a.request(def, {})).resolves.toEqual({});
      await expect(b.request(def, {})).rejects.toMatchObject({ code: 'bus_no_responders' });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
