import type { WebSocket } from 'ws';
import type { Take } from '../kit/audio/take';
import type { SocketRoute, UpgradeContext } from '../kit/http/socket-route';
import { playTake } from '../kit/play-take';
import { checkKey } from '../kit/sim-keys';
import { sleep } from '../kit/sleep';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import { IdleTimer, parseJsonObject, SerialQueue, sendJsonMessage, socketSignal } from '../kit/ws-io';
import { vendorHFaultProblem } from './vendor-h.errors';
import { parseVendorHRequest, type VendorHRequest } from './vendor-h.settings';

/** The vendor closes a socket after 60 s without a client message, unless `timeout` (up to 180 s) says otherwise. */
export const VENDOR_H_IDLE_MS = 60_000;
const MAX_TIMEOUT_S = 180;
/** The vendor waits this long after a turn's last audio before `complete` (scaled by the pacing factor here). */
const DEFAULT_COMPLETE_BACKOFF_MS = 4000;
const MAX_COMPLETE_BACKOFF_MS = 10_000;

export function vendorHSocketRoutes(kit: SimKit): SocketRoute[] {
  return [{ path: '/waves/v1/tts/live', upgrade: (context) => openSession(kit, context) }];
}

async function openSession(kit: SimKit, context: UpgradeContext): Promise<void> {
  const key = /^Bearer\s+(.+)$/i.exec(context.header('authorization') ?? '')?.[1]?.trim();
  if (checkKey(key) !== 'ok') {
    context.refuse(401, { error: 'unauthorized' });
    return;
  }
  const rawTimeout = context.query.get('timeout');
  const timeoutS = rawTimeout === null ? undefined : Number(rawTimeout);
  if (timeoutS !== undefined && !(Number.isInteger(timeoutS) && timeoutS >= 1 && timeoutS <= MAX_TIMEOUT_S)) {
    context.refuse(400, { error: `timeout must be an integer between 1 and ${MAX_TIMEOUT_S}` });
    return;
  }
  const ws = await context.accept();
  const idleMs = kit.state.idleTimeoutMs('vendor_h') ?? (timeoutS ? timeoutS * 1000 : VENDOR_H_IDLE_MS);
  new VendorHSession(kit, ws, key as string, idleMs).start();
}

/** One turn of a context: text buffered until a flush or its last message, spoken under one request id. */
interface Turn {
  readonly requestId: string;
  readonly correlation: Readonly<Record<string, string>>;
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
      const seconds = Math.round(this.idleMs / 1000);
      void sendJsonMessage(this.ws, {
        status: 'error',
        message: `Connection timed out after ${seconds} seconds of inactivity`,
      }).then(() => this.ws.close(1000, 'idle timeout'));
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
    if (message['type'] === 'ping') {
      void sendJsonMessage(this.ws, { type: 'pong' });
      return;
    }
    const contextId = typeof message['context_id'] === 'string' ? message['context_id'] : '';
    if (message['cancel_request'] === true) return this.onCancel(contextId);
    if (message['context_close'] === true && message['text'] === undefined) {
      const open = this.turns.get(contextId);
      if (open && !open.closed) this.speakBuffer(open, contextId, open.last);
      return this.endTurn(contextId, undefined);
    }
    const parsed = parseVendorHRequest(message, false, true);
    if (!parsed.ok) {
      void this.error(parsed.problem.message, contextId);
      return;
    }
    const request = parsed.request;
    const turn = this.turnOf(contextId, request);
    turn.buffer += request.text;
    const more = message['continue'] === true && message['context_close'] !== true;
    if (message['flush'] === true || !more) this.speakBuffer(turn, contextId, request);
    if (!more) this.endTurn(contextId, message['complete_backoff_ms']);
  }

  private turnOf(contextId: string, request: VendorHRequest): Turn {
    let turn = this.turns.get(contextId);
    if (turn && !turn.closed) {
      turn.last = request;
    } else {
      const correlation: Record<string, string> = {};
      if (request.echo['x-external-request-id'])
        correlation['external_request_id'] = request.echo['x-external-request-id'];
      if (request.echo['x-external-session-id'])
        correlation['external_session_id'] = request.echo['x-external-session-id'];
      turn = {
        requestId: `req_${++this.requests}`,
        correlation,
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

  private speakBuffer(turn: Turn, contextId: string, request: VendorHRequest): void {
    const text = turn.buffer;
    turn.buffer = '';
    // Text with no letter or digit gets no audio.
    if (!/[\p{L}\p{N}]/u.test(text)) return;
    void this.queue.push(() => this.speak(turn, contextId, text, request));
  }

  /** Closes the turn: one `complete` after its last audio and the backoff. */
  private endTurn(contextId: string, backoff: unknown): void {
    const turn = this.turns.get(contextId);
    if (!turn || turn.closed) return;
    turn.closed = true;
    const pacing = this.kit.state.pacing('vendor_h');
    const asked =
      typeof backoff === 'number' ? Math.min(Math.max(0, backoff), MAX_COMPLETE_BACKOFF_MS) : undefined;
    const waitMs = (asked ?? DEFAULT_COMPLETE_BACKOFF_MS) * pacing.factor;
    void this.queue.push(async () => {
      const done = await sleep(waitMs, AbortSignal.any([this.signal, turn.cancel.signal]));
      if (this.turns.get(contextId) === turn) this.turns.delete(contextId);
      if (!done || turn.failed) return;
      await sendJsonMessage(this.ws, this.frame(turn, contextId, { status: 'complete' }));
    });
  }

  private onCancel(contextId: string): void {
    const turn = this.turns.get(contextId);
    if (!turn) return;
    this.turns.delete(contextId);
    turn.buffer = '';
    turn.cancel.abort();
  }

  private async speak(turn: Turn, contextId: string, text: string, request: VendorHRequest): Promise<void> {
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
        send: (piece) =>
          sendJsonMessage(
            this.ws,
            this.frame(turn, contextId, { status: 'chunk', data: { audio: piece.bytes.toString('base64') } }),
          ),
        fail: async (f) => {
          turn.failed = true;
          const problem = vendorHFaultProblem(f);
          await this.error(problem.message, contextId, turn);
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
          this.frame(turn, contextId, {
            status: 'word_timestamp',
            data: {
              id: turn.wordId++,
              word: word.word,
              start: turn.offsetS + word.start,
              end: turn.offsetS + word.end,
            },
          }),
        );
      }
    }
    turn.offsetS += take.durationMs / 1000;
  }

  private frame(turn: Turn, contextId: string, body: Record<string, unknown>): Record<string, unknown> {
    return {
      ...body,
      request_id: turn.requestId,
      ...turn.correlation,
      ...(contextId !== '' ? { context_id: contextId } : {}),
    };
  }

  /** An error for one request or context; the connection stays open. */
  private error(message: string, contextId = '', turn?: Turn): Promise<void> {
    return sendJsonMessage(this.ws, {
      status: 'error',
      message,
      ...(turn ? { request_id: turn.requestId } : {}),
      ...(contextId !== '' ? { context_id: contextId } : {}),
    });
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
