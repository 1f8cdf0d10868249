import type { WebSocket } from 'ws';
import type { TakePiece, Take } from '../kit/audio/take';
import type { SocketRoute, UpgradeContext } from '../kit/http/socket-route';
import { playTake } from '../kit/play-take';
import { checkKey } from '../kit/sim-keys';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import { IdleTimer, parseJsonObject, sendJsonMessage, socketSignal } from '../kit/ws-io';
import {
  parseVendorGSettings,
  readVendorGClientMessage,
  VENDOR_G_IDLE_MS,
  VENDOR_G_MAX_STREAMS,
  VENDOR_G_SOCKET_PATH,
  VENDOR_G_TEXT_LIMIT,
  vendorGAudioEnd,
  vendorGAudioMessage,
  vendorGKeyRefusal,
  vendorGStreamError,
  vendorGTerminated,
  vendorGTimestamps,
  type VendorGSettings,
} from '@router/vendor-g';
import { vendorGTake } from './vendor-g.audio';
import { VENDOR_G_PROJECT } from './vendor-g.catalogue';
import { vendorGFaultProblem } from './vendor-g.errors';

export function vendorGSocketRoutes(kit: SimKit): SocketRoute[] {
  return [{ path: VENDOR_G_SOCKET_PATH, upgrade: (context) => openConnection(kit, context) }];
}

/** No key at the upgrade: each stream's config message carries its own (`VENDOR_G_KEY`). */
async function openConnection(kit: SimKit, context: UpgradeContext): Promise<void> {
  const ws = await context.accept();
  new VendorGConnection(kit, ws).start();
}

interface Stream {
  readonly id: string;
  readonly key: string;
  readonly settings: VendorGSettings;
  text: string;
  /** `text_end` came: the stream's text is complete and being spoken. */
  ending: boolean;
  readonly cancel: AbortController;
}

class VendorGConnection {
  private readonly streams = new Map<string, Stream>();
  private readonly closed: AbortSignal;
  private idle: IdleTimer | undefined;

  constructor(
    private readonly kit: SimKit,
    private readonly ws: WebSocket,
  ) {
    this.closed = socketSignal(ws);
  }

  start(): void {
    this.ws.on('error', () => this.ws.terminate());
    this.ws.on('close', () => this.idle?.stop());
    const idleMs = this.kit.state.idleTimeoutMs('vendor_g') ?? VENDOR_G_IDLE_MS;
    this.idle = new IdleTimer(idleMs, () => this.ws.close(1000, 'idle timeout'));
    this.ws.on('message', (data, isBinary) => {
      this.idle?.touch();
      this.onMessage(parseJsonObject(data, isBinary));
    });
  }

  private onMessage(raw: Record<string, unknown> | undefined): void {
    const message = readVendorGClientMessage(raw);
    if (message.kind === 'keep-alive') return;
    if (message.kind === 'refused') return void this.fail(message.streamId, 400, message.message);
    if (message.kind === 'config') return this.onConfig(message.streamId, message.apiKey, raw ?? {});
    const stream = this.streams.get(message.streamId);
    if (!stream) {
      const id = message.streamId;
      void this.fail(id, 400, `Unknown stream_id '${id}'; send a config message first`);
      return;
    }
    if (message.kind === 'cancel') return this.onCancel(stream);
    this.onText(stream, message.text, message.end);
  }

  private onConfig(streamId: string, key: string | undefined, message: Record<string, unknown>): void {
    if (this.streams.has(streamId)) {
      void this.fail(undefined, 400, `stream_id '${streamId}' is already active`, streamId);
      return;
    }
    const check = checkKey(key);
    if (check !== 'ok') {
      const refusal = vendorGKeyRefusal(check);
      void this.fail(streamId, refusal.code, refusal.message);
      return;
    }
    if (this.streams.size >= VENDOR_G_MAX_STREAMS) {
      void this.fail(streamId, 429, `At most ${VENDOR_G_MAX_STREAMS} streams may be active per connection`);
      return;
    }
    const parsed = parseVendorGSettings(message, VENDOR_G_PROJECT);
    if (!parsed.ok) {
      void this.fail(streamId, parsed.problem.status, parsed.problem.message);
      return;
    }
    this.streams.set(streamId, {
      id: streamId,
      key: key as string,
      settings: parsed.value,
      text: '',
      ending: false,
      cancel: new AbortController(),
    });
  }

  private onText(stream: Stream, text: unknown, end: boolean): void {
    if (stream.ending) {
      void this.fail(stream.id, 400, 'Text after text_end');
      return;
    }
    if (typeof text !== 'string') {
      void this.fail(stream.id, 400, 'text must be a string');
      return;
    }
    stream.text += text;
    if (stream.text.length > VENDOR_G_TEXT_LIMIT) {
      void this.fail(stream.id, 400, `A stream's text must be at most ${VENDOR_G_TEXT_LIMIT} characters`);
      return;
    }
    if (!end) return;
    stream.ending = true;
    void this.speak(stream).catch((error: unknown) => {
      this.kit.logger.error({ err: error, vendor: 'vendor_g' }, 'vendor_g stream failed');
      this.ws.terminate();
    });
  }

  private onCancel(stream: Stream): void {
    stream.cancel.abort();
    // A stream still waiting for text has nothing playing that would end it.
    if (!stream.ending) void this.terminate(stream.id);
  }

  /**
   * The simulator speaks a stream's text once it is complete (`text_end`), as one take: audio messages, an
   * empty last one with `audio_end`, then `terminated`.
   */
  private async speak(stream: Stream): Promise<void> {
    if (stream.text.trim() === '') {
      await sendJsonMessage(this.ws, vendorGAudioEnd(stream.id));
      await this.terminate(stream.id);
      return;
    }
    const { settings } = stream;
    const begun = beginTake(this.kit, {
      vendor: 'vendor_g',
      endpoint: 'ws',
      key: stream.key,
      text: stream.text,
      spec: settings.spec,
      speed: settings.speed,
    });
    const take = vendorGTake(begun.take, settings.spec.samples);
    const signal = AbortSignal.any([this.closed, stream.cancel.signal]);
    let failed = false;
    const outcome = await playTake(
      take,
      {
        signal,
        open: () => undefined,
        send: (piece) =>
          sendJsonMessage(
            this.ws,
            vendorGAudioMessage(
              stream.id,
              piece.bytes,
              settings.returnTimestamps ? timestampsOf(take, piece) : undefined,
            ),
          ),
        fail: async (f) => {
          failed = true;
          const problem = vendorGFaultProblem(f);
          await this.fail(stream.id, problem.status, problem.message);
        },
        cut: () => this.ws.terminate(),
      },
      this.kit.state.pacing('vendor_g'),
      begun.fault,
    );
    if (outcome === 'done') {
      await sendJsonMessage(this.ws, vendorGAudioEnd(stream.id));
      await this.terminate(stream.id, stream);
    } else if (outcome === 'gone' && !failed && stream.cancel.signal.aborted && !this.closed.aborted) {
      await this.terminate(stream.id, stream);
    }
  }

  /** An error always ends its stream: the error message, then `terminated`. */
  private async fail(
    streamId: string | undefined,
    code: number,
    message: string,
    echoId?: string,
  ): Promise<void> {
    await sendJsonMessage(this.ws, vendorGStreamError(streamId ?? echoId, code, message));
    // A duplicate config must not close the stream that already runs under that id.
    if (streamId !== undefined) await this.terminate(streamId);
  }

  /** Ends a stream; `only` keeps a newer stream that reused the id after a cancel. */
  private async terminate(streamId: string, only?: Stream): Promise<void> {
    const stream = this.streams.get(streamId);
    if (stream && (!only || stream === only)) {
      stream.cancel.abort();
      this.streams.delete(streamId);
    }
    await sendJsonMessage(this.ws, vendorGTerminated(streamId));
  }
}

/** Character timings of the characters whose start falls in this piece, in seconds. */
function timestampsOf(take: Take, piece: TakePiece): Record<string, unknown> {
  const chars = take.characters.filter(
    (c) => c.startMs >= piece.startMs && (piece.last ? true : c.startMs < piece.endMs),
  );
  return vendorGTimestamps(chars);
}
