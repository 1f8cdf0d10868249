import type { WebSocket } from 'ws';
import { flagIsSet } from '@router/vendors-core';
import type { TakePiece, Take } from '../kit/audio/take';
import type { SocketRoute, UpgradeContext } from '../kit/http/socket-route';
import { playTake } from '../kit/play-take';
import { checkKey, requestKey } from '../kit/sim-keys';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import { IdleTimer, parseJsonObject, SerialQueue, sendJsonMessage, socketSignal } from '../kit/ws-io';
import {
  parseVendorFSettings,
  querySettings,
  readVendorFClientMessage,
  VENDOR_F_AUDIO_CLEAR,
  VENDOR_F_AUDIO_DONE,
  VENDOR_F_AUTH_PROBLEM,
  VENDOR_F_TTS_PATH,
  vendorFAudioDelta,
  vendorFErrorBody,
  VENDOR_F_KEY,
  vendorFSocketError,
  vendorFTextProblem,
  vendorFTimestamps,
  type VendorFSettings,
  type VendorFTimestamps,
} from '@router/vendor-f';
import { vendorFFaultProblem } from './vendor-f.errors';
import { findVendorFVoice } from './vendor-f.voices';

/**
 * `/v1/tts`: settings fixed by the query at the upgrade; text gathered from `text.delta` until `text.done`,
 * then spoken as one utterance (`audio.delta` with base64 audio, then `audio.done`); `text.clear` drops
 * the utterance in progress and answers `audio.clear`. One utterance at a time; later ones wait their turn.
 */
export function vendorFSocketRoutes(kit: SimKit): SocketRoute[] {
  return [{ path: VENDOR_F_TTS_PATH, upgrade: (context) => openSession(kit, context) }];
}

async function openSession(kit: SimKit, context: UpgradeContext): Promise<void> {
  const key = requestKey(VENDOR_F_KEY, context);
  if (checkKey(key) !== 'ok') {
    context.refuse(401, vendorFErrorBody(VENDOR_F_AUTH_PROBLEM));
    return;
  }
  const parsed = parseVendorFSettings(querySettings(context.query), (id) =>
    findVendorFVoice(key as string, id),
  );
  if (!parsed.ok) {
    context.refuse(parsed.problem.status, vendorFErrorBody(parsed.problem));
    return;
  }
  const withTimestamps = flagIsSet(context.query.get('with_timestamps'));
  const ws = await context.accept();
  new VendorFSession(kit, ws, key as string, parsed.settings, withTimestamps).start();
}

class VendorFSession {
  private buffer = '';
  /** Bumped by `text.clear`: utterances of an older generation stop or never start. */
  private generation = 0;
  private current: AbortController | undefined;
  private readonly signal: AbortSignal;
  private readonly queue: SerialQueue;
  private idle: IdleTimer | undefined;

  constructor(
    private readonly kit: SimKit,
    private readonly ws: WebSocket,
    private readonly key: string,
    private readonly settings: VendorFSettings,
    private readonly withTimestamps: boolean,
  ) {
    this.signal = socketSignal(ws);
    this.queue = new SerialQueue((error) => {
      kit.logger.error({ err: error, vendor: 'vendor_f' }, 'vendor_f socket take failed');
      this.ws.terminate();
    });
  }

  start(): void {
    this.ws.on('error', () => this.ws.terminate());
    this.ws.on('close', () => this.idle?.stop());
    // The vendor's own idle rule is unknown (clients recycle sockets); only a test's override closes one.
    const idleMs = this.kit.state.idleTimeoutMs('vendor_f');
    if (idleMs !== undefined) this.idle = new IdleTimer(idleMs, () => this.ws.close(1000, 'idle timeout'));
    this.ws.on('message', (data, isBinary) => {
      this.idle?.touch();
      this.onMessage(parseJsonObject(data, isBinary));
    });
  }

  private onMessage(raw: Record<string, unknown> | undefined): void {
    const message = readVendorFClientMessage(raw);
    switch (message.type) {
      case 'text.delta':
        this.buffer += message.delta;
        return;
      case 'text.done':
        return this.onDone();
      case 'text.clear':
        return this.onClear();
      case 'refused':
        void this.error(message.message);
    }
  }

  private onDone(): void {
    const text = this.buffer;
    this.buffer = '';
    const generation = this.generation;
    void this.queue.push(async () => {
      if (generation !== this.generation || this.signal.aborted) return;
      if (text.trim() === '') {
        await sendJsonMessage(this.ws, VENDOR_F_AUDIO_DONE);
        return;
      }
      const problem = vendorFTextProblem(text);
      if (problem) return this.error(problem);
      await this.speak(text);
    });
  }

  private onClear(): void {
    this.buffer = '';
    this.generation++;
    this.current?.abort();
    void sendJsonMessage(this.ws, VENDOR_F_AUDIO_CLEAR);
  }

  private async speak(text: string): Promise<void> {
    const { take, fault } = beginTake(this.kit, {
      vendor: 'vendor_f',
      endpoint: 'ws',
      key: this.key,
      text,
      spec: this.settings.spec,
      speed: this.settings.speed,
    });
    const utterance = new AbortController();
    this.current = utterance;
    const onClose = (): void => utterance.abort();
    this.signal.addEventListener('abort', onClose, { once: true });
    let timed = 0;
    try {
      const outcome = await playTake(
        take,
        {
          signal: utterance.signal,
          open: () => undefined,
          send: (piece) => {
            const timestamps = this.withTimestamps ? this.timestampsFor(take, piece, timed) : undefined;
            if (timestamps) timed += timestamps.graph_chars.length;
            return sendJsonMessage(this.ws, vendorFAudioDelta(piece.bytes, timestamps));
          },
          fail: (f) => this.error(vendorFFaultProblem(f).message),
          cut: () => this.ws.terminate(),
        },
        this.kit.state.pacing('vendor_f'),
        fault,
      );
      if (outcome === 'done') await sendJsonMessage(this.ws, VENDOR_F_AUDIO_DONE);
    } finally {
      this.signal.removeEventListener('abort', onClose);
      if (this.current === utterance) this.current = undefined;
    }
  }

  /** Character timings (seconds from the utterance's start) for the characters spoken by the end of `piece`. */
  private timestampsFor(take: Take, piece: TakePiece, from: number): VendorFTimestamps | undefined {
    const spoken = take.characters.slice(from).filter((c) => c.endMs <= piece.endMs + 0.5 || piece.last);
    return spoken.length === 0 ? undefined : vendorFTimestamps(spoken);
  }

  private error(message: string): Promise<void> {
    return sendJsonMessage(this.ws, vendorFSocketError(message));
  }
}
