import type { WebSocket } from 'ws';
import type { SocketRoute, UpgradeContext } from '../kit/http/socket-route';
import { playTake } from '../kit/play-take';
import { checkKey, requestKey } from '../kit/sim-keys';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import { IdleTimer, parseJsonObject, SerialQueue, sendJsonMessage, socketSignal } from '../kit/ws-io';
import {
  hasSpeakableText,
  parseVendorASettings,
  readVendorAClientMessage,
  VENDOR_A_AUTH_PROBLEM,
  VENDOR_A_FINAL_EVENT,
  VENDOR_A_IDLE_MS,
  VENDOR_A_KEY,
  VENDOR_A_KEY_PROTOCOL_PREFIX,
  VENDOR_A_UNKNOWN_DICTIONARY,
  vendorAAudioMessage,
  vendorACompletionEvents,
  vendorAConfigFirst,
  vendorAErrorBody,
  vendorARequestId,
  vendorASocketError,
  vendorASocketModelProblem,
  vendorASocketTextProblem,
  type VendorAErrorCode,
  type VendorASettings,
  type VendorASocketEndpoint,
} from '@router/vendor-a';
import { isUnknownDictId } from './vendor-a.dictionaries';
import { vendorAFaultProblem } from './vendor-a.errors';

export function vendorASocketRoutes(kit: SimKit): SocketRoute[] {
  return [
    { path: '/text-to-speech/ws', upgrade: (context) => openSession(kit, context, 'ws') },
    { path: '/text-to-speech/ws/v2', upgrade: (context) => openSession(kit, context, 'ws-v2') },
  ];
}

async function openSession(
  kit: SimKit,
  context: UpgradeContext,
  endpoint: VendorASocketEndpoint,
): Promise<void> {
  // The vendor's browser client sends the key as a sub-protocol and drops the socket unless it is echoed.
  const offered = context.protocols.find((p) => p.startsWith(VENDOR_A_KEY_PROTOCOL_PREFIX));
  const key = requestKey(VENDOR_A_KEY, context) ?? offered?.slice(VENDOR_A_KEY_PROTOCOL_PREFIX.length);
  if (checkKey(key) !== 'ok') {
    context.refuse(403, vendorAErrorBody(VENDOR_A_AUTH_PROBLEM));
    return;
  }
  const ws = await context.accept(offered);
  new VendorASession(kit, ws, endpoint, key as string, context.query).start();
}

class VendorASession {
  private settings: VendorASettings | undefined;
  private buffer = '';
  private readonly signal: AbortSignal;
  private readonly queue: SerialQueue;
  private readonly completionEvents: boolean;
  private idle: IdleTimer | undefined;
  private ended = false;

  constructor(
    private readonly kit: SimKit,
    private readonly ws: WebSocket,
    private readonly endpoint: VendorASocketEndpoint,
    private readonly key: string,
    private readonly query: URLSearchParams,
  ) {
    this.signal = socketSignal(ws);
    this.completionEvents = vendorACompletionEvents(query);
    this.queue = new SerialQueue((error) => {
      kit.logger.error({ err: error, vendor: 'vendor_a' }, 'vendor_a socket take failed');
      this.ws.terminate();
    });
  }

  start(): void {
    this.ws.on('error', () => this.ws.terminate());
    this.ws.on('close', () => this.idle?.stop());
    const refused = vendorASocketModelProblem(this.endpoint, this.query.get('model'));
    if (refused) {
      void this.error('invalid_request_error', refused.message).then(() =>
        this.ws.close(1008, refused.reason),
      );
      return;
    }
    const idleMs = this.kit.state.idleTimeoutMs('vendor_a') ?? VENDOR_A_IDLE_MS;
    this.idle = new IdleTimer(idleMs, () => {
      void this.error(
        'idle_timeout_error',
        `Connection closed after ${Math.round(idleMs / 1000)} s without messages`,
      ).then(() => this.ws.close(1008, 'idle timeout'));
    });
    this.ws.on('message', (data, isBinary) => {
      this.idle?.touch();
      this.onMessage(parseJsonObject(data, isBinary));
    });
  }

  private onMessage(raw: Record<string, unknown> | undefined): void {
    const read = readVendorAClientMessage(raw);
    if (!read.ok) {
      void this.error(read.code, read.message);
      return;
    }
    const message = read.message;
    switch (message.type) {
      case 'config':
        return this.onConfig(message.data);
      case 'text':
        return this.onText(message.data);
      case 'flush':
        return this.onFlush();
      case 'ping':
        return;
    }
  }

  private onConfig(data: Record<string, unknown>): void {
    const parsed = parseVendorASettings(data, 'ws', this.query.get('model') ?? undefined);
    if (!parsed.ok) {
      void this.error(parsed.problem.code, parsed.problem.message);
      return;
    }
    this.settings = parsed.settings;
    if (parsed.settings.dictId !== undefined && isUnknownDictId(parsed.settings.dictId))
      void this.error(VENDOR_A_UNKNOWN_DICTIONARY.code, VENDOR_A_UNKNOWN_DICTIONARY.message);
  }

  private onText(data: Record<string, unknown>): void {
    if (!this.settings) {
      void this.error('invalid_request_error', vendorAConfigFirst('text'));
      return;
    }
    const text = data['text'];
    const problem = vendorASocketTextProblem(text);
    if (problem) {
      void this.error(problem.code, problem.message);
      return;
    }
    this.buffer += text as string;
    // The vendor starts synthesis by itself once `min_buffer_size` characters are buffered.
    if (this.buffer.length >= this.settings.minBufferSize) this.synthesizeBuffer(this.settings);
  }

  private onFlush(): void {
    if (!this.settings) {
      void this.error('invalid_request_error', vendorAConfigFirst('flush'));
      return;
    }
    if (this.buffer.trim() !== '') this.synthesizeBuffer(this.settings);
    this.buffer = '';
    if (this.completionEvents) {
      void this.queue.push(() => sendJsonMessage(this.ws, VENDOR_A_FINAL_EVENT));
    }
  }

  private synthesizeBuffer(settings: VendorASettings): void {
    const text = this.buffer;
    this.buffer = '';
    void this.queue.push(() => this.speak(text, settings));
  }

  private async speak(text: string, settings: VendorASettings): Promise<void> {
    if (this.ended || this.signal.aborted) return;
    if (!hasSpeakableText(text)) {
      await this.error('invalid_request_error', 'text must contain at least one letter or digit');
      return;
    }
    const { take, fault } = beginTake(this.kit, {
      vendor: 'vendor_a',
      endpoint: this.endpoint,
      key: this.key,
      text,
      spec: settings.spec,
      speed: settings.pace,
    });
    const requestId = vendorARequestId();
    const outcome = await playTake(
      take,
      {
        signal: this.signal,
        open: () => undefined,
        send: (piece) =>
          sendJsonMessage(this.ws, vendorAAudioMessage(requestId, piece.bytes, take.contentType)),
        fail: async (f) => {
          const problem = vendorAFaultProblem(f);
          await this.error(problem.code, problem.message, requestId);
        },
        cut: () => this.ws.terminate(),
      },
      this.kit.state.pacing('vendor_a'),
      fault,
    );
    if (outcome === 'cut' || outcome === 'gone') this.ended = true;
  }

  private error(code: VendorAErrorCode, message: string, requestId?: string): Promise<void> {
    return sendJsonMessage(this.ws, vendorASocketError(code, message, requestId));
  }
}
