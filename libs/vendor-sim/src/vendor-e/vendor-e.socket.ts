import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { readProtocolKey } from '@router/vendors-core';
import type { Take } from '../kit/audio/take';
import type { FaultSpec } from '../kit/faults';
import type { SocketRoute, UpgradeContext } from '../kit/http/socket-route';
import { playTake, type PlayOutcome } from '../kit/play-take';
import { checkKey, requestKey } from '../kit/sim-keys';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import {
  IdleTimer,
  parseJsonObject,
  SerialQueue,
  sendJsonMessage,
  sendMessage,
  socketSignal,
} from '../kit/ws-io';
import {
  badQuery,
  parseVendorESocketQuery,
  readVendorEClientMessage,
  readVendorEConfigure,
  VENDOR_E_AUTH_PROBLEM,
  VENDOR_E_IDLE_FATAL,
  VENDOR_E_IDLE_MS,
  vendorEConfigureSuccess,
  vendorEErrorBody,
  VENDOR_E_KEY,
  vendorEOpening,
  vendorERequestId,
  vendorESessionMetadata,
  vendorESocketError,
  vendorESpeechInterrupted,
  vendorESpeechMetadata,
  vendorESpeechStarted,
  vendorEUnknownType,
  vendorEV1Cleared,
  vendorEV1Flushed,
  vendorEV2Flushed,
  vendorEWarning,
  type VendorEFatal,
  type VendorEGeneration,
  type VendorESocketSettings,
} from '@router/vendor-e';
import { findVendorEModel } from './vendor-e.models';

/**
 * The two streaming sockets: `/v1/speak` (`Speak`/`Flush`/`Clear`/`Close`; `Metadata`, binary audio,
 * `Flushed`/`Cleared` with a rising `sequence_id`) and `/v2/speak` (turns: `SpeechStarted`, audio, `Flushed`,
 * `SpeechMetadata`; `Interrupt`, `Configure`, `Close` with `SessionMetadata`). Errors are `Error` messages
 * `{code, description}`; fatal ones close the socket (1011 for the vendor's failures, 1008 for bad messages).
 */
export function vendorESocketRoutes(kit: SimKit): SocketRoute[] {
  return [
    { path: '/v1/speak', upgrade: (context) => openSession(kit, context, 'v1') },
    { path: '/v2/speak', upgrade: (context) => openSession(kit, context, 'v2') },
  ];
}

async function openSession(
  kit: SimKit,
  context: UpgradeContext,
  generation: VendorEGeneration,
): Promise<void> {
  const key = requestKey(VENDOR_E_KEY, context);
  if (checkKey(key) !== 'ok') {
    context.refuse(401, vendorEErrorBody(VENDOR_E_AUTH_PROBLEM));
    return;
  }
  const parsed = parseVendorESocketQuery(generation, context.query, findVendorEModel);
  if (!parsed.ok) {
    context.refuse(400, vendorEErrorBody(badQuery(parsed.message)));
    return;
  }
  // A browser's `token, <key>` is answered with `token`, or the browser drops the socket.
  const ws = await context.accept(readProtocolKey(VENDOR_E_KEY, context.protocols).answer);
  const session =
    generation === 'v1'
      ? new VendorEV1Session(kit, ws, key as string, parsed.settings)
      : new VendorEV2Session(kit, ws, key as string, parsed.settings);
  session.start();
}

/** What both generations share: the message loop, the idle rule, errors, and playing one take as binary frames. */
abstract class VendorESession {
  protected buffer = '';
  /** Bumped when queued work is dropped (`Clear`, `Interrupt`): jobs of an older generation do nothing. */
  protected generation = 0;
  protected current: AbortController | undefined;
  protected closing = false;
  protected readonly signal: AbortSignal;
  protected readonly queue: SerialQueue;
  private idle: IdleTimer | undefined;

  constructor(
    protected readonly kit: SimKit,
    protected readonly ws: WebSocket,
    protected readonly key: string,
    protected settings: VendorESocketSettings,
    private readonly endpoint: string,
  ) {
    this.signal = socketSignal(ws);
    this.queue = new SerialQueue((error) => {
      kit.logger.error({ err: error, vendor: 'vendor_e' }, 'vendor_e socket take failed');
      this.ws.terminate();
    });
  }

  start(): void {
    this.ws.on('error', () => this.ws.terminate());
    this.ws.on('close', () => this.idle?.stop());
    const idleMs = this.kit.state.idleTimeoutMs('vendor_e') ?? VENDOR_E_IDLE_MS;
    this.idle = new IdleTimer(idleMs, () => void this.fatal(VENDOR_E_IDLE_FATAL));
    void sendJsonMessage(this.ws, this.opening());
    this.ws.on('message', (data, isBinary) => {
      this.idle?.touch();
      if (this.closing) return;
      const read = readVendorEClientMessage(parseJsonObject(data, isBinary), this.buffer.length);
      if (read.kind === 'fatal') return void this.fatal(read.fatal);
      if (read.kind === 'speak') this.buffer += read.text;
      else this.onControl(read.type, read.message);
    });
  }

  protected abstract opening(): Record<string, unknown>;
  protected abstract onControl(type: string, message: Record<string, unknown>): void;

  protected unknownType(type: string): void {
    void this.fatal(vendorEUnknownType(type));
  }

  /** Plays one take as binary frames; `onFrame` gets each frame's end time (ms of audio delivered so far). */
  protected async play(
    text: string,
    settings: VendorESocketSettings,
    onFrame: (endMs: number) => void = () => undefined,
  ): Promise<{ take: Take; outcome: PlayOutcome }> {
    const { take, fault } = beginTake(this.kit, {
      vendor: 'vendor_e',
      endpoint: this.endpoint,
      key: this.key,
      text,
      spec: settings.spec,
      speed: settings.speed,
    });
    const turn = new AbortController();
    this.current = turn;
    const onClose = (): void => turn.abort();
    this.signal.addEventListener('abort', onClose, { once: true });
    try {
      const outcome = await playTake(
        take,
        {
          signal: turn.signal,
          open: () => undefined,
          send: async (piece) => {
            await sendMessage(this.ws, Buffer.from(piece.bytes));
            onFrame(piece.endMs);
          },
          fail: (f) => this.vendorFailure(f),
          cut: () => this.ws.terminate(),
        },
        this.kit.state.pacing('vendor_e'),
        fault,
      );
      return { take, outcome };
    } finally {
      this.signal.removeEventListener('abort', onClose);
      if (this.current === turn) this.current = undefined;
    }
  }

  private vendorFailure(fault: FaultSpec): Promise<void> {
    this.closing = true;
    return this.fatal({
      code: fault.code ?? 'NET-0000',
      description: fault.message ?? `Simulated failure (${fault.status ?? 500})`,
      closeCode: 1011,
    });
  }

  protected async fatal({ code, description, closeCode }: VendorEFatal): Promise<void> {
    this.closing = true;
    await sendJsonMessage(this.ws, vendorESocketError(code, description));
    this.ws.close(closeCode, code);
  }
}

class VendorEV1Session extends VendorESession {
  private sequence = 0;

  constructor(kit: SimKit, ws: WebSocket, key: string, settings: VendorESocketSettings) {
    super(kit, ws, key, settings, 'ws');
  }

  protected opening(): Record<string, unknown> {
    return vendorEOpening('v1', this.settings.model, vendorERequestId());
  }

  protected onControl(type: string): void {
    switch (type) {
      case 'Flush':
        return this.onFlush();
      case 'Clear':
        return this.onClear();
      case 'Close':
        this.closing = true;
        void this.queue.push(() => {
          this.ws.close(1000);
          return Promise.resolve();
        });
        return;
      default:
        this.unknownType(type);
    }
  }

  private onFlush(): void {
    const text = this.buffer;
    this.buffer = '';
    const sequence = this.sequence++;
    const generation = this.generation;
    void this.queue.push(async () => {
      if (generation !== this.generation || this.signal.aborted) return;
      if (text.trim() !== '') {
        const { outcome } = await this.play(text, this.settings);
        if (outcome !== 'done' || generation !== this.generation) return;
      }
      await sendJsonMessage(this.ws, vendorEV1Flushed(sequence));
    });
  }

  private onClear(): void {
    this.buffer = '';
    this.generation++;
    this.current?.abort();
    void sendJsonMessage(this.ws, vendorEV1Cleared(this.sequence++));
  }
}

class VendorEV2Session extends VendorESession {
  private active: { speechId: string; playedMs: number } | undefined;
  private readonly totals = { audioMs: 0, inputChars: 0, billableChars: 0 };

  constructor(kit: SimKit, ws: WebSocket, key: string, settings: VendorESocketSettings) {
    super(kit, ws, key, settings, 'ws-v2');
  }

  protected opening(): Record<string, unknown> {
    return vendorEOpening('v2', this.settings.model, vendorERequestId());
  }

  protected onControl(type: string, message: Record<string, unknown>): void {
    switch (type) {
      case 'Flush':
        return this.onFlush();
      case 'Interrupt':
        return this.onInterrupt();
      case 'Configure':
        return this.onConfigure(message);
      case 'Close':
        this.closing = true;
        void this.queue.push(async () => {
          await sendJsonMessage(this.ws, vendorESessionMetadata(this.totals));
          this.ws.close(1000);
        });
        return;
      default:
        this.unknownType(type);
    }
  }

  private onFlush(): void {
    const text = this.buffer;
    this.buffer = '';
    if (text.trim() === '') {
      void sendJsonMessage(this.ws, vendorEWarning('EMPTY_TURN'));
      return;
    }
    const generation = this.generation;
    const settings = this.settings;
    void this.queue.push(async () => {
      if (generation !== this.generation || this.signal.aborted) return;
      const speechId = randomUUID();
      const turn = { speechId, playedMs: 0 };
      this.active = turn;
      await sendJsonMessage(this.ws, vendorESpeechStarted(speechId));
      const { take, outcome } = await this.play(text, settings, (endMs) => (turn.playedMs = endMs));
      if (this.active === turn) this.active = undefined;
      if (outcome !== 'done') return;
      const chars = Array.from(text).length;
      this.totals.audioMs += take.durationMs;
      this.totals.inputChars += chars;
      this.totals.billableChars += chars;
      await sendJsonMessage(this.ws, vendorEV2Flushed(speechId));
      await sendJsonMessage(this.ws, vendorESpeechMetadata(speechId, take.durationMs, chars));
    });
  }

  private onInterrupt(): void {
    this.buffer = '';
    this.generation++;
    const turn = this.active;
    if (!turn) {
      void sendJsonMessage(this.ws, vendorEWarning('NO_ACTIVE_SPEECH'));
      return;
    }
    this.active = undefined;
    this.current?.abort();
    void sendJsonMessage(this.ws, vendorESpeechInterrupted(turn.speechId, turn.playedMs));
  }

  private onConfigure(message: Record<string, unknown>): void {
    const read = readVendorEConfigure(message);
    if (!read.ok) return void sendJsonMessage(this.ws, read.reply);
    // Later turns only: a turn already queued keeps the speed it was flushed with.
    this.settings = { ...this.settings, speed: read.speed };
    void sendJsonMessage(this.ws, vendorEConfigureSuccess(read.speed));
  }
}
