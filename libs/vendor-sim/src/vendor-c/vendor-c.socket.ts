import {
  audioFrame,
  authProblem,
  DEFAULT_CHUNK_SCHEDULE,
  finalFrame,
  inactivityReason,
  msAlignment,
  parseSocketQuery,
  parseStreamInputMessage,
  socketError,
  textLengthProblem,
  TOO_MANY_CONTEXTS,
  MAX_CONTEXTS,
  voiceProblem,
  type SocketQuery,
  type StreamInputMessage,
  type VendorCProblem,
  VENDOR_C_KEY,
} from '@router/vendor-c';
import type { WebSocket } from 'ws';
import type { FaultSpec } from '../kit/faults';
import type { SocketRoute, UpgradeContext } from '../kit/http/socket-route';
import { playTake } from '../kit/play-take';
import { checkKey, requestKey, simKeyId } from '../kit/sim-keys';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import { parseJsonObject, SerialQueue, sendJsonMessage, socketSignal } from '../kit/ws-io';
import { charsInPiece, takeSpec, vendorCFaultProblem } from './vendor-c.replies';
import { speedOf, type VoiceStore } from './vendor-c.voices';

type SocketKind = 'stream-input' | 'multi-stream-input';

interface SocketSettings {
  readonly query: SocketQuery;
  readonly inactivityMs: number;
}

export function vendorCSocketRoutes(kit: SimKit, store: VoiceStore): SocketRoute[] {
  return [
    {
      path: '/v1/text-to-speech/:voice_id/stream-input',
      upgrade: (c) => openSession(kit, store, c, 'stream-input'),
    },
    {
      path: '/v1/text-to-speech/:voice_id/multi-stream-input',
      upgrade: (c) => openSession(kit, store, c, 'multi-stream-input'),
    },
  ];
}

async function openSession(
  kit: SimKit,
  store: VoiceStore,
  context: UpgradeContext,
  kind: SocketKind,
): Promise<void> {
  const ws = await context.accept();
  const session = new VendorCSession(kit, store, ws, kind, context.params['voice_id'] ?? '');
  ws.on('error', () => ws.terminate());
  const parsed = parseSocketQuery(context.query);
  if (!parsed.ok) {
    await session.fail({ status: 422, code: 'invalid_request', message: parsed.message });
    return;
  }
  const inactivityMs = kit.state.idleTimeoutMs('vendor_c') ?? parsed.value.inactivitySeconds * 1000;
  session.start({ query: parsed.value, inactivityMs }, requestKey(VENDOR_C_KEY, context));
}

/** One text stream with its own buffer and settings: the whole socket for `stream-input`, one context otherwise. */
class SpeechContext {
  private buffer = '';
  private generations = 0;
  private schedule: readonly number[] = DEFAULT_CHUNK_SCHEDULE;
  private speed: number;
  /** Whether settings were sent yet (until then the voice's stored speed holds). */
  private configured = false;
  private readonly queue: SerialQueue;
  closing = false;

  constructor(
    private readonly session: VendorCSession,
    readonly id: string | undefined,
  ) {
    this.speed = session.storedSpeed();
    this.queue = new SerialQueue((error) => session.crash(error));
  }

  /** Applies `voice_settings` and `generation_config` (init message, or any later text message). */
  configure(message: StreamInputMessage): VendorCProblem | undefined {
    if (message.settingsProblem) return message.settingsProblem;
    // The first settings sent decide as on REST; a later message's only change what they name.
    const speed = message.voiceSettings?.['speed'];
    if (typeof speed === 'number') this.speed = speed;
    else if (!this.configured) this.speed = speedOf(message.voiceSettings, this.speed);
    if (message.voiceSettings) this.configured = true;
    if (message.chunkSchedule) this.schedule = message.chunkSchedule;
    return undefined;
  }

  addText(text: string, flush: boolean): void {
    if (this.session.settings?.query.autoMode) {
      if (text.trim() !== '') this.enqueue(text);
      return;
    }
    this.buffer += text;
    if (flush) {
      this.flush();
      return;
    }
    // The vendor starts a generation once the buffer reaches the schedule's next length, cutting at a space.
    for (;;) {
      const threshold = this.schedule[Math.min(this.generations, this.schedule.length - 1)] ?? 120;
      if (this.buffer.length < threshold) return;
      const cut = this.buffer.lastIndexOf(' ') + 1 || this.buffer.length;
      const part = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut);
      this.enqueue(part);
    }
  }

  flush(): void {
    const text = this.buffer;
    this.buffer = '';
    if (text.trim() !== '') this.enqueue(text);
  }

  /** Flushes what is buffered, then (after all its audio) sends `isFinal`. */
  finish(): Promise<void> {
    this.closing = true;
    this.flush();
    return this.queue.push(() => this.session.send(finalFrame(this.id)));
  }

  /** `close_context`: the text not flushed yet is dropped; what was is spoken, then `isFinal`. */
  close(): Promise<void> {
    this.buffer = '';
    return this.finish();
  }

  private enqueue(text: string): void {
    const first = this.generations === 0;
    this.generations++;
    const speed = this.speed;
    void this.queue.push(() => this.session.speak(text, first, speed, this));
  }
}

class VendorCSession {
  settings: SocketSettings | undefined;
  private key: string | undefined;
  private readonly signal: AbortSignal;
  private single: SpeechContext | undefined;
  private readonly contexts = new Map<string, SpeechContext>();
  private idleTimer: NodeJS.Timeout | undefined;
  private speaking = 0;
  private ended = false;

  constructor(
    private readonly kit: SimKit,
    private readonly store: VoiceStore,
    private readonly ws: WebSocket,
    private readonly kind: SocketKind,
    private readonly voiceId: string,
  ) {
    this.signal = socketSignal(ws);
    ws.on('close', () => {
      this.ended = true;
      clearTimeout(this.idleTimer);
    });
  }

  start(settings: SocketSettings, headerKey: string | undefined): void {
    this.settings = settings;
    if (headerKey !== undefined && !this.authenticate(headerKey)) return;
    this.touch();
    this.ws.on('message', (data, isBinary) => {
      this.touch();
      const json = parseJsonObject(data, isBinary);
      if (!json) {
        void this.fail({ status: 422, code: 'invalid_request', message: 'Messages must be JSON objects' });
        return;
      }
      const message = parseStreamInputMessage(json);
      if (this.key === undefined && !this.authenticate(message.key)) return;
      if (this.kind === 'stream-input') this.onSingleMessage(message);
      else this.onContextMessage(message);
    });
  }

  /** Checks a key and the path's voice; on failure reports it and closes (1008). */
  private authenticate(key: string | undefined): boolean {
    const check = checkKey(key);
    if (check !== 'ok') {
      void this.fail(authProblem(check));
      return false;
    }
    const problem = voiceProblem(this.store.find(simKeyId(key as string), this.voiceId), this.voiceId);
    if (problem) {
      void this.fail(problem);
      return false;
    }
    this.key = key;
    return true;
  }

  storedSpeed(): number {
    return this.key ? this.store.settings(simKeyId(this.key), this.voiceId).speed : 1;
  }

  private onSingleMessage(message: StreamInputMessage): void {
    const { text } = message;
    if (!this.single) {
      // The first message opens the stream (its text is a single space).
      this.single = new SpeechContext(this, undefined);
      const problem = this.single.configure(message);
      if (problem) return void this.fail(problem);
      if (typeof text === 'string' && text.trim() !== '') this.single.addText(text, message.flush);
      return;
    }
    const problem = this.single.configure(message);
    if (problem) return void this.fail(problem);
    if (text === '') {
      void this.single.finish().then(() => this.ws.close(1000));
      return;
    }
    if (typeof text === 'string') this.single.addText(text, message.flush || message.tryTriggerGeneration);
    else if (message.flush) this.single.flush();
  }

  private onContextMessage(message: StreamInputMessage): void {
    if (message.closeSocket) {
      void Promise.all([...this.contexts.values()].map((c) => c.finish())).then(() => this.ws.close(1000));
      this.contexts.clear();
      return;
    }
    const id = message.contextId;
    let context = this.contexts.get(id);
    const opening = !context;
    if (!context) {
      if (message.closeContext) return;
      if (this.contexts.size >= MAX_CONTEXTS) {
        void this.send(socketError(TOO_MANY_CONTEXTS, id));
        return;
      }
      context = new SpeechContext(this, id);
      this.contexts.set(id, context);
    }
    const problem = context.configure(message);
    if (problem) return void this.send(socketError(problem, id));
    if (message.closeContext) {
      this.contexts.delete(id);
      void context.close();
      return;
    }
    const { text } = message;
    // An empty text keeps the context alive; the message opening a context is its init (text " ").
    const speakable = text !== undefined && (opening ? text.trim() !== '' : text !== '');
    if (speakable) context.addText(text, message.flush);
    else if (message.flush) context.flush();
  }

  async speak(text: string, first: boolean, speed: number, context: SpeechContext): Promise<void> {
    if (this.ended || !this.settings || !this.key) return;
    const problem = textLengthProblem(this.settings.query.model, text);
    if (problem) return this.send(socketError(problem, context.id));
    const { take, fault } = beginTake(this.kit, {
      vendor: 'vendor_c',
      endpoint: this.kind,
      key: this.key,
      text,
      spec: takeSpec(this.settings.query.output.audio, first),
      speed,
    });
    this.speaking++;
    try {
      const outcome = await playTake(
        take,
        {
          signal: this.signal,
          open: () => undefined,
          send: (piece) =>
            this.send(
              audioFrame(piece.bytes, msAlignment(charsInPiece(take, piece), piece.startMs), context.id),
            ),
          fail: (f: FaultSpec) => this.fail(vendorCFaultProblem(f), context.id),
          cut: () => this.ws.terminate(),
        },
        this.kit.state.pacing('vendor_c'),
        fault,
      );
      if (outcome !== 'done') this.ended = true;
    } finally {
      this.speaking--;
      this.touch();
    }
  }

  send(message: unknown): Promise<void> {
    return sendJsonMessage(this.ws, message);
  }

  /** Reports an error message and closes with the code it names (1008, or 1011 for server errors). */
  async fail(
    problem: Pick<VendorCProblem, 'status' | 'code' | 'message'>,
    contextId?: string,
  ): Promise<void> {
    this.ended = true;
    const message = socketError(problem, contextId);
    await this.send(message);
    this.ws.close(message['code'] as number, problem.code);
  }

  crash(error: unknown): void {
    this.kit.logger.error({ err: error, vendor: 'vendor_c' }, 'vendor_c socket take failed');
    this.ws.terminate();
  }

  /** Restarts the inactivity clock; it only closes the socket while no audio is being generated. */
  private touch(): void {
    clearTimeout(this.idleTimer);
    if (this.ended || !this.settings) return;
    const timeoutMs = this.settings.inactivityMs;
    this.idleTimer = setTimeout(() => {
      if (this.speaking > 0) return this.touch();
      this.ended = true;
      this.ws.close(1008, inactivityReason(timeoutMs));
    }, timeoutMs);
  }
}
