import type { WebSocket } from 'ws';
import type { Take } from '../kit/audio/take';
import type { SocketRoute, UpgradeContext } from '../kit/http/socket-route';
import { playTake } from '../kit/play-take';
import { checkKey, requestKey } from '../kit/sim-keys';
import { sleep } from '../kit/sleep';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import { IdleTimer, parseJsonObject, SerialQueue, sendJsonMessage, socketSignal } from '../kit/ws-io';
import {
  hasVendorHSpeech,
  parseVendorHRequest,
  readVendorHSocketControl,
  readVendorHSocketTimeout,
  VENDOR_H_AUTH_PROBLEM,
  VENDOR_H_IDLE_MS,
  VENDOR_H_PONG,
  vendorHChunkFrame,
  vendorHCompleteBackoffMs,
  vendorHCompleteFrame,
  vendorHCorrelation,
  vendorHErrorBody,
  vendorHIdleError,
  vendorHSocketError,
  vendorHWordFrame,
  type VendorHRequest,
  type VendorHTurnIds,
  VENDOR_H_KEY,
} from '@router/vendor-h';
import { vendorHFaultProblem } from './vendor-h.errors';
import { isVendorHVoice } from './vendor-h.voices';

export function vendorHSocketRoutes(kit: SimKit): SocketRoute[] {
  return [{ path: '/waves/v1/tts/live', upgrade: (context) => openSession(kit, context) }];
}

async function openSession(kit: SimKit, context: UpgradeContext): Promise<void> {
  const key = requestKey(VENDOR_H_KEY, context);
  if (checkKey(key) !== 'ok') {
    context.refuse(VENDOR_H_AUTH_PROBLEM.status, vendorHErrorBody(VENDOR_H_AUTH_PROBLEM));
    return;
  }
  const timeout = readVendorHSocketTimeout(context.query.get('timeout'));
  if (!timeout.ok) {
    context.refuse(timeout.status, timeout.body);
    return;
  }
  const ws = await context.accept();
  const timeoutS = timeout.seconds;
  const idleMs = kit.state.idleTimeoutMs('vendor_h') ?? (timeoutS ? timeoutS * 1000 : VENDOR_H_IDLE_MS);
  new VendorHSession(kit, ws, key as string, idleMs).start();
}

/** One turn of a context: text buffered until a flush or its last message, spoken under one request id. */
interface Turn extends VendorHTurnIds {
  buffer: string;
  /** Seconds of audio already sent in this turn (word timestamps count from the turn's start). */
  offsetS: number;
  wordId: number;
  /** A take of this turn failed: the rest of the turn is dropped. */
  failed: boolean;
  /** Its last message came: new text starts a new turn, but a cancel still reaches this one. */
  closed: boolean;
  /** The settings of its latest message (what `context_close` speaks the rest of the buffer with). */
  last: VendorHRequest;
  readonly cancel: AbortController;
}

class VendorHSession {
  private readonly turns = new Map<string, Turn>();
  private readonly signal: AbortSignal;
  private readonly queue: SerialQueue;
  private idle: IdleTimer | undefined;
  private requests = 0;

  constructor(
    private readonly kit: SimKit,
    private readonly ws: WebSocket,
    private readonly key: string,
    private readonly idleMs: number,
  ) {
    this.signal = socketSignal(ws);
    this.queue = new SerialQueue((error) => {
      kit.logger.error({ err: error, vendor: 'vendor_h' }, 'vendor_h socket take failed');
      this.ws.terminate();
    });
  }

  start(): void {
    this.ws.on('error', () => this.ws.terminate());
    this.ws.on('close', () => this.idle?.stop());
    this.idle = new IdleTimer(this.idleMs, () => {
      void sendJsonMessage(this.ws, vendorHIdleError(this.idleMs)).then(() =>
        this.ws.close(1000, 'idle timeout'),
      );
    });
    this.ws.on('message', (data, isBinary) => {
      this.idle?.touch();
      this.onMessage(parseJsonObject(data, isBinary));
    });
  }

  private onMessage(message: Record<string, unknown> | undefined): void {
    if (!message) {
      void this.error('Messages must be JSON objects');
      return;
    }
    const control = readVendorHSocketControl(message);
    const { contextId } = control;
    if (control.ping) {
      void sendJsonMessage(this.ws, VENDOR_H_PONG);
      return;
    }
    if (control.cancel) return this.onCancel(contextId);
    if (control.closeOnly) {
      const open = this.turns.get(contextId);
      if (open && !open.closed) this.speakBuffer(open, open.last);
      return this.endTurn(contextId, undefined);
    }
    const parsed = parseVendorHRequest(message, {
      allowEmptyText: true,
      isVoice: isVendorHVoice,
    });
    if (!parsed.ok) {
      void this.error(parsed.problem.message, contextId);
      return;
    }
    const request = parsed.request;
    const turn = this.turnOf(contextId, request);
    turn.buffer += request.text;
    if (control.flush || !control.more) this.speakBuffer(turn, request);
    if (!control.more) this.endTurn(contextId, control.completeBackoff);
  }

  private turnOf(contextId: string, request: VendorHRequest): Turn {
    let turn = this.turns.get(contextId);
    if (turn && !turn.closed) {
      turn.last = request;
    } else {
      turn = {
        requestId: `req_${++this.requests}`,
        correlation: vendorHCorrelation(request.echo),
        contextId,
        buffer: '',
        offsetS: 0,
        wordId: 0,
        failed: false,
        closed: false,
        last: request,
        cancel: new AbortController(),
      };
      this.turns.set(contextId, turn);
    }
    return turn;
  }

  private speakBuffer(turn: Turn, request: VendorHRequest): void {
    const text = turn.buffer;
    turn.buffer = '';
    if (!hasVendorHSpeech(text)) return;
    void this.queue.push(() => this.speak(turn, text, request));
  }

  /** Closes the turn: one `complete` after its last audio and the backoff. */
  private endTurn(contextId: string, backoff: unknown): void {
    const turn = this.turns.get(contextId);
    if (!turn || turn.closed) return;
    turn.closed = true;
    const pacing = this.kit.state.pacing('vendor_h');
    // The vendor's backoff, scaled by the pacing factor here.
    const waitMs = vendorHCompleteBackoffMs(backoff) * pacing.factor;
    void this.queue.push(async () => {
      const done = await sleep(waitMs, AbortSignal.any([this.signal, turn.cancel.signal]));
      if (this.turns.get(contextId) === turn) this.turns.delete(contextId);
      if (!done || turn.failed) return;
      await sendJsonMessage(this.ws, vendorHCompleteFrame(turn));
    });
  }

  private onCancel(contextId: string): void {
    const turn = this.turns.get(contextId);
    if (!turn) return;
    this.turns.delete(contextId);
    turn.buffer = '';
    turn.cancel.abort();
  }

  private async speak(turn: Turn, text: string, request: VendorHRequest): Promise<void> {
    if (turn.failed || turn.cancel.signal.aborted || this.signal.aborted) return;
    const { take, fault } = beginTake(this.kit, {
      vendor: 'vendor_h',
      endpoint: 'ws',
      key: this.key,
      text,
      // The socket streams raw 16-bit PCM whatever `output_format` says.
      spec: { codec: 'pcm', sampleRate: request.spec.sampleRate },
      speed: request.speed,
    });
    const outcome = await playTake(
      take,
      {
        signal: AbortSignal.any([this.signal, turn.cancel.signal]),
        open: () => undefined,
        send: (piece) => sendJsonMessage(this.ws, vendorHChunkFrame(turn, piece.bytes)),
        fail: async (f) => {
          turn.failed = true;
          const problem = vendorHFaultProblem(f);
          await this.error(problem.message, turn.contextId, turn);
        },
        cut: () => this.ws.terminate(),
      },
      this.kit.state.pacing('vendor_h'),
      fault,
    );
    if (outcome !== 'done') return;
    if (request.wordTimestamps) {
      for (const word of wordsOf(take, text)) {
        await sendJsonMessage(
          this.ws,
          vendorHWordFrame(turn, {
            id: turn.wordId++,
            word: word.word,
            start: turn.offsetS + word.start,
            end: turn.offsetS + word.end,
          }),
        );
      }
    }
    turn.offsetS += take.durationMs / 1000;
  }

  /** An error for one request or context; the connection stays open. */
  private error(message: string, contextId = '', turn?: Turn): Promise<void> {
    return sendJsonMessage(this.ws, vendorHSocketError(message, contextId, turn?.requestId));
  }
}

/** Each whitespace-separated word with the times of its first and last character, in seconds. */
function wordsOf(take: Take, text: string): { word: string; start: number; end: number }[] {
  const chars = Array.from(text);
  const words: { word: string; start: number; end: number }[] = [];
  let from = -1;
  chars.forEach((char, i) => {
    const space = /\s/u.test(char);
    if (!space && from < 0) from = i;
    if (from >= 0 && (space || i === chars.length - 1)) {
      const to = space ? i - 1 : i;
      words.push({
        word: chars.slice(from, to + 1).join(''),
        start: (take.characters[from]?.startMs ?? 0) / 1000,
        end: (take.characters[to]?.endMs ?? 0) / 1000,
      });
      from = -1;
    }
  });
  return words;
}
