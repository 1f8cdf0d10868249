import { randomUUID } from 'node:crypto';
import { RouterError, type SynthSettings } from '@router/contracts';
import {
  fieldKind,
  type JsonMessage,
  JsonSocketConnection,
  type MessageProblem,
  type MirrorSocketRoute,
  queryFlag,
  refuseBadQuery,
  refuseJson,
  resolveSettings,
  sendJson,
  SOCKET_CLOSE,
  type SocketCommand,
  type SocketContextRenderer,
  type SocketFrame,
  type SocketHandshake,
  type SocketIdle,
} from '@router/vendors-core';
import { vendorE } from '../vendor-e.definition';
import { VENDOR_E_SPEAK_PATHS } from './vendor-e.drop-in';
import { badQuery, vendorEErrorBody } from './vendor-e.errors';
import { type Totals, Turns, VendorEV1Renderer, VendorEV2Renderer } from './vendor-e.mirror-socket-renderer';
import { vendorEVoiceModelParts } from './vendor-e.requests';
import {
  parseVendorESocketQuery,
  readVendorEClientMessage,
  readVendorEConfigure,
  VENDOR_E_IDLE_FATAL,
  VENDOR_E_IDLE_MS,
  vendorEConfigureSuccess,
  type VendorEFatal,
  vendorEOpening,
  vendorESessionMetadata,
  vendorESocketError,
  vendorEWarning,
} from './vendor-e.socket';
import type { VendorEGeneration, VendorEVoiceModel } from './vendor-e.voices';

/*
 * vendor_e's sockets on its mirror (spec: Vendor drop-ins, vendor_e; Events, vendor_e WebSocket). The settings
 * come from the handshake's query; the router splits the text into sentences, each a take of its own shared
 * with /v1/stream for equal settings, and speaks each once it is complete. `/v1/speak`: `Speak`, `Flush`
 * (answered with `Flushed` after its audio), `Clear` (`Cleared`), `Close`. `/v2/speak`: turns (the text up to
 * a `Flush`), each `SpeechStarted`, its audio, `Flushed` and `SpeechMetadata`; `Interrupt` (`SpeechInterrupted`,
 * split at sentence boundaries), `Configure` (later sentences), `Close` (`SessionMetadata`). A failure is an
 * `Error`, then the close with 1011; a message the vendor cannot read an `Error`, then 1008.
 */

/** One context per connection: the socket speaks one reply at a time. */
const SPEECH = 'speech';

/**
 * A voice model as the mirror knows it, from its name alone (the mirror has no copy of the vendor's lists): its
 * family, the longest model id it starts with, and the router's own uuid and `model_version` `unknown` for the
 * opening message (spec). A voice the vendor lacks is its refusal at the first sentence it is asked for.
 */
function mirrorVoiceModel(name: string): VendorEVoiceModel | undefined {
  const parts = vendorEVoiceModelParts(name);
  if (parts === undefined) return undefined;
  return {
    name,
    canonical_name: name,
    architecture: parts.model,
    languages: [],
    version: 'unknown',
    uuid: randomUUID(),
    metadata: { accent: '', age: '', color: '', image: '', sample: '', tags: [], use_cases: [] },
  };
}

/** A socket's settings as the vendor reads its query, and the router's settings of its sentences. */
interface MirrorSettings {
  readonly model: VendorEVoiceModel;
  /** The router settings at a speed (v2 `Configure` changes it). */
  at(speed: number): SynthSettings;
  readonly speed: number;
}

/**
 * The query read as the vendor reads it (`parseVendorESocketQuery`), then as the router's settings with the
 * defaults a native client's get, so the sentences share /v1/stream's takes. `mip_opt_out` and v2's
 * `expressivity` are options (sent on to the vendor, keyed apart); `tag` is the vendor's bookkeeping only.
 * Throws nothing: a refusal is the message.
 */
export function vendorEMirrorSettings(
  generation: VendorEGeneration,
  query: URLSearchParams,
): { ok: true; settings: MirrorSettings } | { ok: false; message: string } {
  const parsed = parseVendorESocketQuery(generation, query, mirrorVoiceModel);
  if (!parsed.ok) return parsed;
  const { model, spec, speed } = parsed.settings;
  const options: Record<string, unknown> = {};
  const optOut = queryFlag(query, 'mip_opt_out', null);
  if (optOut === undefined) return { ok: false, message: 'mip_opt_out must be true or false' };
  if (optOut !== null) options['mip_opt_out'] = optOut;
  const expressivity = query.get('expressivity');
  if (generation === 'v2' && expressivity !== null) options['expressivity'] = Number(expressivity);
  const at = (atSpeed: number): SynthSettings =>
    resolveSettings(
      vendorE,
      {
        model: model.architecture,
        voice: model.canonical_name.slice(model.architecture.length + 1),
        language: null,
        speed: atSpeed,
        sampleRate: spec.sampleRate,
        format: spec.codec,
        options,
      },
      'stream',
      'vendor',
    );
  try {
    at(speed);
  } catch (error) {
    if (error instanceof RouterError) return { ok: false, message: error.message };
    throw error;
  }
  return { ok: true, settings: { model, at, speed } };
}

/** No message for 30 minutes: the vendor's `NET-0001` `Error`, then 1011 (the cap, where set, shortens it). */
export const VENDOR_E_IDLE: SocketIdle = {
  ms: VENDOR_E_IDLE_MS,
  frames: [JSON.stringify(vendorESocketError(VENDOR_E_IDLE_FATAL.code, VENDOR_E_IDLE_FATAL.description))],
  code: VENDOR_E_IDLE_FATAL.closeCode,
  reason: VENDOR_E_IDLE_FATAL.code,
};

/** A second-generation model a client opens `/v2/speak` with. */
const VENDOR_E_V2_CLIENT_MODEL = 'e_model_3-orla-en';

export const vendorESocketRoutes: readonly MirrorSocketRoute[] = (['v1', 'v2'] as const).map(
  (generation): MirrorSocketRoute => ({
    path: new RegExp(`^${VENDOR_E_SPEAK_PATHS[generation]}$`),
    // The second generation's clients always name a model (the vendor refuses a socket without one).
    ...(generation === 'v2' ? { openings: [{ query: [['model', VENDOR_E_V2_CLIENT_MODEL]] }] } : {}),
    refuse: refuseBadQuery(
      (query) => vendorEMirrorSettings(generation, query),
      (message) => vendorEErrorBody(badQuery(message)),
    ),
    open: (handshake) =>
      generation === 'v1' ? new VendorEV1Connection(handshake) : new VendorEV2Connection(handshake),
    idle: () => VENDOR_E_IDLE,
  }),
);

/** The vendor's fatal error: the `Error`, then its close. */
function fatal({ code, description, closeCode }: VendorEFatal): SocketCommand {
  return refuseJson(vendorESocketError(code, description), { code: closeCode, reason: code });
}

/** What both generations share: the query's settings, the opening message, `Speak`'s limit, refusals. */
abstract class VendorEConnection<Kind extends string> extends JsonSocketConnection<Kind> {
  protected readonly settings: ReturnType<typeof vendorEMirrorSettings>;
  protected speed = 1;
  /** Whether the context has the socket's settings: an interrupt ends it, and the next one needs them. */
  protected configured = false;
  /** Text sent since the last flush, for the vendor's limit before a `Flush`. */
  protected buffered = 0;

  constructor(
    private readonly generation: VendorEGeneration,
    handshake: SocketHandshake,
  ) {
    super();
    this.settings = vendorEMirrorSettings(generation, handshake.query);
    if (this.settings.ok) this.speed = this.settings.settings.speed;
  }

  /** The opening message with the router's own ids. A refused query never gets here (the upgrade is refused). */
  override opened(): SocketCommand[] {
    if (!this.settings.ok) {
      return [
        fatal({ code: 'DATA-0000', description: this.settings.message, closeCode: SOCKET_CLOSE.policy }),
      ];
    }
    return [sendJson(vendorEOpening(this.generation, this.settings.settings.model, randomUUID()))];
  }

  /** `Speak` as the vendor reads it: its text, or its fatal error (no text, past the limit before a flush). */
  protected speak(message: JsonMessage): SocketCommand[] {
    const read = readVendorEClientMessage(message, this.buffered);
    if (read.kind === 'fatal') return [fatal(read.fatal)];
    if (read.kind !== 'speak') return [];
    this.buffered += read.text.length;
    return [...this.configure(), { kind: 'text', context: SPEECH, text: read.text }];
  }

  protected configure(): SocketCommand[] {
    if (this.configured || !this.settings.ok) return [];
    this.configured = true;
    return [{ kind: 'configure', context: SPEECH, settings: this.settings.settings.at(this.speed) }];
  }

  /** An unreadable message is `DATA-0000`, one of no type the vendor has `MESSAGE-0000`; both close with 1008. */
  protected refuse(problem: MessageProblem): SocketCommand[] {
    const code = problem.reason === 'unknown-kind' ? 'MESSAGE-0000' : 'DATA-0000';
    return [fatal({ code, description: problem.message, closeCode: SOCKET_CLOSE.policy })];
  }

  protected override kindOf(message: JsonMessage): Kind | undefined {
    return fieldKind(message, 'type', this.kinds);
  }

  protected abstract readonly kinds: readonly Kind[];
}

const V1_KINDS = ['Speak', 'Flush', 'Clear', 'Close'] as const;
type V1Kind = (typeof V1_KINDS)[number];

/** `/v1/speak`: flushes and clears numbered by one rising `sequence_id`, as the vendor numbers them. */
export class VendorEV1Connection extends VendorEConnection<V1Kind> {
  protected readonly kinds = V1_KINDS;
  private sequence = 0;
  /** The `sequence_id`s of the clears whose `Cleared` is still to come, in order. */
  private readonly clears: number[] = [];

  constructor(handshake: SocketHandshake) {
    super('v1', handshake);
  }

  context(): SocketContextRenderer {
    return new VendorEV1Renderer(this.clears);
  }

  protected message(kind: V1Kind, message: JsonMessage): SocketCommand[] {
    switch (kind) {
      case 'Speak':
        return this.speak(message);
      case 'Flush':
        this.buffered = 0;
        return [...this.configure(), { kind: 'flush', context: SPEECH, tag: String(this.sequence++) }];
      case 'Clear':
        this.buffered = 0;
        this.configured = false;
        this.clears.push(this.sequence++);
        return [{ kind: 'cancel', context: SPEECH }];
      case 'Close':
        // What was flushed is spoken, text never flushed is not (as at the vendor), then the close.
        return [{ kind: 'drain', context: SPEECH }, { kind: 'close' }];
    }
  }
}

const V2_KINDS = ['Speak', 'Flush', 'Interrupt', 'Configure', 'Close'] as const;
type V2Kind = (typeof V2_KINDS)[number];

/** `/v2/speak`: turns with the router's own `speech_id`s, interruptions split at sentence boundaries. */
export class VendorEV2Connection extends VendorEConnection<V2Kind> {
  protected readonly kinds = V2_KINDS;
  private turns = new Turns();
  private readonly totals: Totals = { audioMs: 0, inputChars: 0, billableChars: 0 };

  constructor(
    handshake: SocketHandshake,
    private readonly newId: () => string = randomUUID,
  ) {
    super('v2', handshake);
  }

  context(): SocketContextRenderer {
    return new VendorEV2Renderer(this.turns, this.totals);
  }

  /** The session's totals: every turn that ended with its `SpeechMetadata`. */
  closing(): SocketFrame[] {
    return [JSON.stringify(vendorESessionMetadata(this.totals))];
  }

  protected message(kind: V2Kind, message: JsonMessage): SocketCommand[] {
    switch (kind) {
      case 'Speak':
        return this.speakInTurn(message);
      case 'Flush':
        return this.flush();
      case 'Interrupt':
        return this.interrupt(message);
      case 'Configure':
        return this.reconfigure(message);
      case 'Close':
        return [{ kind: 'drain', context: SPEECH }, { kind: 'close' }];
    }
  }

  private speakInTurn(message: JsonMessage): SocketCommand[] {
    const commands = this.speak(message);
    const text = commands.find((c) => c.kind === 'text');
    if (!text || text.kind !== 'text') return commands;
    const { turns } = this;
    if (!turns.open) {
      turns.open = {
        speechId: this.newId(),
        inputChars: 0,
        billableChars: 0,
        audioMs: 0,
        started: false,
        firstSentence: null,
        hasWords: false,
      };
      turns.queue.push(turns.open);
    }
    turns.open.inputChars += Array.from(text.text).length;
    turns.open.hasWords ||= text.text.trim() !== '';
    return commands;
  }

  /** The end of the turn's text; a turn with no text but white space is the vendor's `EMPTY_TURN` warning. */
  private flush(): SocketCommand[] {
    const { turns } = this;
    const turn = turns.open;
    this.buffered = 0;
    turns.open = undefined;
    if (!turn?.hasWords) {
      if (turn) turns.queue.splice(turns.queue.indexOf(turn), 1);
      return [sendJson(vendorEWarning('EMPTY_TURN'))];
    }
    return [...this.configure(), { kind: 'flush', context: SPEECH, tag: turn.speechId }];
  }

  /**
   * Stops the turn playing, `SpeechInterrupted` once it has stopped, and drops every turn sent after it (flushed
   * or still being written) without a word, as the vendor drops them. `playback_offset`, the milliseconds of the
   * turn's audio the listener heard, splits its text; with nothing to stop, the vendor's `NO_ACTIVE_SPEECH`
   * warning.
   */
  private interrupt(message: JsonMessage): SocketCommand[] {
    const offset = message['playback_offset'];
    if (offset !== undefined && offset !== null && !(typeof offset === 'number' && offset >= 0)) {
      return [
        fatal({
          code: 'DATA-0000',
          description: 'playback_offset must be a number of milliseconds, 0 or more',
          closeCode: SOCKET_CLOSE.policy,
        }),
      ];
    }
    const turns = this.turns;
    this.buffered = 0;
    if (!turns.playing) return [sendJson(vendorEWarning('NO_ACTIVE_SPEECH'))];
    const offsetMs = typeof offset === 'number' ? offset : undefined;
    turns.interrupt = { offsetMs };
    this.turns = new Turns();
    this.configured = false;
    return [
      {
        kind: 'cancel',
        context: SPEECH,
        ...(offsetMs === undefined ? {} : { playedMs: turns.startMs + offsetMs }),
      },
    ];
  }

  /** `Configure`: a new speed for the sentences that follow, acknowledged at once; a refusal is not fatal. */
  private reconfigure(message: JsonMessage): SocketCommand[] {
    const read = readVendorEConfigure({ ...message });
    if (!read.ok) return [sendJson(read.reply)];
    if (!this.settings.ok) return [];
    this.speed = read.speed;
    const commands: SocketCommand[] = [sendJson(vendorEConfigureSuccess(read.speed))];
    if (this.configured) {
      commands.push({ kind: 'configure', context: SPEECH, settings: this.settings.settings.at(read.speed) });
    }
    return commands;
  }
}
