import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { SocketRoute, UpgradeContext } from '../kit/http/socket-route';
import { playTake } from '../kit/play-take';
import { checkKey, requestKey } from '../kit/sim-keys';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import { IdleTimer, parseJsonObject, SerialQueue, sendJsonMessage, socketSignal } from '../kit/ws-io';
import {
  isKnownVendorIVersion,
  parseVendorIRequest,
  readVendorISocketControl,
  VENDOR_I_IDLE_MS,
  VENDOR_I_NO_CONTEXT,
  VENDOR_I_NOT_JSON,
  VENDOR_I_SOCKET_PATH,
  vendorIAuthBody,
  vendorIChunkEvent,
  vendorIDoneEvent,
  vendorIErrorEvent,
  vendorIFlushDoneEvent,
  VENDOR_I_KEY,
  vendorISocketVersion,
  vendorISocketVersionRefusal,
  vendorITimestampsEvent,
  type VendorIProblem,
  type VendorIRequest,
} from '@router/vendor-i';
import { vendorIFaultProblem } from './vendor-i.errors';
import { isVendorIVoice, takeWords, wordsInPiece } from './vendor-i.http';

export function vendorISocketRoutes(kit: SimKit): SocketRoute[] {
  return [{ path: VENDOR_I_SOCKET_PATH, upgrade: (context) => openSession(kit, context) }];
}

async function openSession(kit: SimKit, context: UpgradeContext): Promise<void> {
  const version = vendorISocketVersion(context);
  const key = requestKey(VENDOR_I_KEY, context);
  const check = checkKey(key);
  if (check !== 'ok') {
    context.refuse(401, vendorIAuthBody(check, version));
    return;
  }
  if (!isKnownVendorIVersion(version)) {
    context.refuse(400, vendorISocketVersionRefusal());
    return;
  }
  const ws = await context.accept();
  new VendorISession(kit, ws, key as string).start();
}

/** One context: its settings, its unspoken text, its takes in order and where its audio stands. */
interface Context {
  readonly id: string;
  request: VendorIRequest;
  buffer: string;
  flushId: number;
  /** Playback time already sent in this context, so word timestamps run on across its takes. */
  spokenMs: number;
  readonly queue: SerialQueue;
  readonly abort: AbortController;
  timer: NodeJS.Timeout | undefined;
  closing: boolean;
}

class VendorISession {
  private readonly contexts = new Map<string, Context>();
  private readonly signal: AbortSignal;
  private idle: IdleTimer | undefined;

  constructor(
    private readonly kit: SimKit,
    private readonly ws: WebSocket,
    private readonly key: string,
  ) {
    this.signal = socketSignal(ws);
  }

  start(): void {
    this.ws.on('error', () => this.ws.terminate());
    this.ws.on('close', () => {
      this.idle?.stop();
      for (const context of this.contexts.values()) clearTimeout(context.timer);
    });
    const idleMs = this.kit.state.idleTimeoutMs('vendor_i') ?? VENDOR_I_IDLE_MS;
    this.idle = new IdleTimer(idleMs, () => this.ws.close(1000, 'idle timeout'));
    this.ws.on('message', (data, isBinary) => {
      this.idle?.touch();
      const message = parseJsonObject(data, isBinary);
      if (!message) {
        void this.error(null, VENDOR_I_NOT_JSON);
        return;
      }
      this.receive(message);
    });
  }

  private receive(message: Record<string, unknown>): void {
    const id = message['context_id'];
    if (typeof id !== 'string' || id === '') {
      void this.error(null, VENDOR_I_NO_CONTEXT);
      return;
    }
    const control = readVendorISocketControl(message);
    if (control.cancel) {
      const context = this.contexts.get(id);
      if (!context) return;
      clearTimeout(context.timer);
      context.abort.abort();
      this.contexts.delete(id);
      return;
    }
    const { transcript } = control;
    // The closing message of a context may carry no text; its settings are still checked like any other.
    const parsed = parseVendorIRequest(
      { ...message, transcript: transcript === '' ? '.' : transcript },
      true,
      isVendorIVoice,
    );
    if (!parsed.ok) {
      void this.error(id, parsed.problem);
      return;
    }
    const context = this.contextFor(id, parsed.request);
    context.buffer += transcript;
    const bufferMs = control.bufferDelayMs;
    clearTimeout(context.timer);
    if (control.last) {
      context.closing = true;
      this.speak(context, undefined);
      void context.queue.push(() => this.finish(context));
    } else if (control.flush) {
      context.flushId += 1;
      const flushId = context.flushId;
      this.speak(context, flushId);
      void context.queue.push(async () => {
        if (context.abort.signal.aborted) return;
        await this.send(context, vendorIFlushDoneEvent(flushId));
      });
    } else if (bufferMs === 0) this.speak(context, undefined);
    else context.timer = setTimeout(() => this.speak(context, undefined), bufferMs);
  }

  private contextFor(id: string, request: VendorIRequest): Context {
    const existing = this.contexts.get(id);
    if (existing) {
      existing.request = request;
      return existing;
    }
    const context: Context = {
      id,
      request,
      buffer: '',
      flushId: 0,
      spokenMs: 0,
      abort: new AbortController(),
      queue: new SerialQueue((error) => {
        this.kit.logger.error({ err: error, vendor: 'vendor_i' }, 'vendor_i socket take failed');
        this.ws.terminate();
      }),
      timer: undefined,
      closing: false,
    };
    this.contexts.set(id, context);
    return context;
  }

  /** Queues the context's buffered text as one take. */
  private speak(context: Context, flushId: number | undefined): void {
    const text = context.buffer;
    context.buffer = '';
    if (text.trim() === '') return;
    const request = context.request;
    void context.queue.push(() => this.play(context, request, text, flushId));
  }

  private async play(
    context: Context,
    request: VendorIRequest,
    text: string,
    flushId: number | undefined,
  ): Promise<void> {
    if (context.abort.signal.aborted || this.signal.aborted) return;
    const { take, fault } = beginTake(this.kit, {
      vendor: 'vendor_i',
      endpoint: 'ws',
      key: this.key,
      text,
      spec: request.spec,
      speed: request.speed,
    });
    const words = request.timestamps ? takeWords(take) : [];
    const flush = flushId !== undefined ? { flush_id: flushId } : {};
    const offsetMs = context.spokenMs;
    const signal = AbortSignal.any([this.signal, context.abort.signal]);
    const outcome = await playTake(
      take,
      {
        signal,
        open: () => undefined,
        send: async (piece) => {
          const stepTime = Math.round((piece.endMs - piece.startMs) * 2.5 + Math.random() * 100) / 10 + 0.05;
          await this.send(context, vendorIChunkEvent(piece.bytes, stepTime, flush));
          const spoken = wordsInPiece(words, piece);
          if (spoken.length === 0) return;
          await this.send(context, vendorITimestampsEvent(spoken, offsetMs, flush));
        },
        fail: (f) => this.error(context.id, vendorIFaultProblem(f)),
        cut: () => this.ws.terminate(),
      },
      this.kit.state.pacing('vendor_i'),
      fault,
    );
    context.spokenMs += take.durationMs;
    // A failed take ends its context: the error frame said so, and nothing more is spoken for it.
    if (outcome === 'failed') {
      context.abort.abort();
      this.contexts.delete(context.id);
    }
  }

  private async finish(context: Context): Promise<void> {
    if (context.abort.signal.aborted) return;
    this.contexts.delete(context.id);
    await this.send(context, vendorIDoneEvent());
  }

  private send(context: Context, message: Record<string, unknown>): Promise<void> {
    return sendJsonMessage(this.ws, { ...message, context_id: context.id });
  }

  private error(contextId: string | null, problem: VendorIProblem): Promise<void> {
    return sendJsonMessage(this.ws, vendorIErrorEvent(problem, randomUUID(), { context_id: contextId }));
  }
}
