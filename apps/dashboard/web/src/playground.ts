import type { Catalogue, CatalogueModel, CatalogueProvider } from '@router/client';
import { call } from './api';
import { type Field, field, h, status } from './dom';
import { messageOf, type Page, section } from './pages';

/**
 * The format asked of the stream: 16-bit little-endian mono PCM (every vendor makes it), played as it comes with
 * Web Audio, so no decoder waits for a whole clip.
 */
const FORMAT = 'pcm';
/** The rate asked for where the vendor streams at it; else its highest. */
const PREFERRED_RATE = 24_000;
/** Audio scheduled this far ahead of now, so a frame that arrives a little late still plays without a gap. */
const LEAD_S = 0.05;

/** What the stream's `settings` message carries from the pickers (docs/stream-protocol.md). */
interface StreamSettings {
  model: string;
  voice: string;
  language?: string;
  response_format: string;
  sample_rate: number;
}

/** One sentence as the page reports it. */
interface SentenceResult {
  index: number;
  text: string;
  cached: boolean;
  /** From sending the text to this sentence's first audio frame. */
  firstAudioMs: number;
}

/** Plays 16-bit PCM frames back to back as they arrive. */
class PcmPlayer {
  private context: AudioContext | undefined;
  private next = 0;
  /** A frame may end inside a sample: its odd byte waits for the next frame. */
  private carry: Uint8Array | undefined;
  /** Set when the browser cannot play audio: the results are still shown. */
  problem: string | undefined;

  constructor(private readonly rate: number) {}

  /** Called from the click that asked for speech, so the browser lets the page make sound. */
  start(): void {
    try {
      this.context ??= new AudioContext();
      void this.context.resume();
      this.next = 0;
      this.carry = undefined;
    } catch {
      this.problem = 'This browser cannot play audio here; the results are still shown.';
    }
  }

  play(frame: ArrayBuffer): void {
    const context = this.context;
    if (!context) return;
    let bytes = new Uint8Array(frame);
    if (this.carry) {
      const joined = new Uint8Array(this.carry.length + bytes.length);
      joined.set(this.carry);
      joined.set(bytes, this.carry.length);
      bytes = joined;
    }
    const whole = bytes.length - (bytes.length % 2);
    this.carry = whole < bytes.length ? bytes.slice(whole) : undefined;
    if (whole === 0) return;
    const samples = new DataView(bytes.buffer, bytes.byteOffset, whole);
    const buffer = context.createBuffer(1, whole / 2, this.rate);
    const channel = buffer.getChannelData(0);
    for (let i = 0; i < channel.length; i++) channel[i] = samples.getInt16(i * 2, true) / 32768;
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    const at = Math.max(context.currentTime + LEAD_S, this.next);
    source.start(at);
    this.next = at + buffer.duration;
  }
}

/** The router's own `/v1/stream`, on the origin the page came from: the browser sends the session's cookie. */
function streamUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/v1/stream`;
}

/**
 * Says `text` on one connection: settings, then the text and a flush, then close once it is all spoken.
 * `onSentence` gets each sentence at its first audio; `onFailed` each sentence that failed.
 */
function speak(
  settings: StreamSettings,
  text: string,
  player: PcmPlayer,
  onSentence: (result: SentenceResult) => void,
  onFailed: (index: number, message: string) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(streamUrl());
    socket.binaryType = 'arraybuffer';
    let sentAt = 0;
    let started: { index: number; text: string; cached: boolean } | undefined;
    let done = false;
    const finish = (error?: Error): void => {
      if (done) return;
      done = true;
      if (error) reject(error);
      else resolve();
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'close' }));
    };
    socket.onopen = () => socket.send(JSON.stringify({ type: 'settings', ...settings }));
    socket.onmessage = (event: MessageEvent<string | ArrayBuffer>) => {
      if (typeof event.data !== 'string') {
        if (started) {
          onSentence({ ...started, firstAudioMs: Math.round(performance.now() - sentAt) });
          started = undefined;
        }
        player.play(event.data);
        return;
      }
      const message = JSON.parse(event.data) as StreamMessage;
      if (message.type === 'ready') {
        sentAt = performance.now();
        socket.send(JSON.stringify({ type: 'text', text }));
        socket.send(JSON.stringify({ type: 'flush' }));
      } else if (message.type === 'sentence_start') {
        started = { index: message.sentence, text: message.text, cached: message.cached };
      } else if (message.type === 'flushed') {
        finish();
      } else if (message.type === 'error') {
        if (message.sentence === undefined) finish(new Error(message.error.message));
        else onFailed(message.sentence, message.error.message);
      }
    };
    socket.onclose = (event) => {
      // A refused handshake shows the page nothing but a close: the likely causes, in words.
      finish(
        new Error(
          event.code === 1006
            ? 'The router refused the stream or could not be reached: check that you are still signed in, and try again.'
            : `The stream closed (${event.code}${event.reason ? `: ${event.reason}` : ''}).`,
        ),
      );
    };
  });
}

type StreamMessage =
  | { type: 'ready' }
  | { type: 'sentence_start'; sentence: number; text: string; cached: boolean }
  | { type: 'flushed' }
  | { type: 'error'; sentence?: number; error: { code: string; message: string } }
  | { type: 'sentence_end' | 'words' | 'interrupted' };

/** The streaming rate asked of a vendor: the preferred one where it has it, else its highest. */
export function rateFor(vendor: CatalogueProvider): number {
  return vendor.sample_rates.includes(PREFERRED_RATE)
    ? PREFERRED_RATE
    : Math.max(...vendor.sample_rates, 8_000);
}

function options(select: HTMLSelectElement, values: Array<{ value: string; label: string }>): void {
  select.replaceChildren(...values.map(({ value, label }) => h('option', { value }, label)));
}

// ---- Playground -----------------------------------------------------------------------------------

export const playgroundPage: Page = {
  title: 'Playground',
  async render() {
    const { providers } = await call<Catalogue>('GET', '/v1/models');
    const note = status();
    const results = h('ol', { class: 'results' });
    // A log announces each sentence as it is added, without moving focus.
    const log = h(
      'div',
      { role: 'log', 'aria-live': 'polite', 'aria-label': 'Sentences spoken', 'data-testid': 'sentences' },
      results,
    );
    const vendorField = field('Vendor', h('select', {}) as HTMLSelectElement);
    const modelField = field('Model', h('select', {}) as HTMLSelectElement);
    const languageField = field('Language', h('select', {}) as HTMLSelectElement);
    const voiceBox = h('div', {});
    let voiceField: Field = voiceInput();
    const textField = field(
      'Text',
      h('textarea', { rows: 4, maxlength: 20_000, required: true }) as HTMLTextAreaElement,
      'One sentence or several: each is looked up in the cache, and said by the vendor when it is not there.',
    );
    const speakButton = h('button', { type: 'submit' }, 'Speak') as HTMLButtonElement;
    options(
      vendorField.input as HTMLSelectElement,
      providers.map((p) => ({ value: p.id, label: p.id })),
    );
    const vendor = (): CatalogueProvider =>
      providers.find((p) => p.id === vendorField.input.value) ?? providers[0];
    const model = (): CatalogueModel =>
      vendor().models.find((m) => m.id === modelField.input.value) ?? vendor().models[0];

    /** The voice picker: the catalogue's voices, the vendor's live list, or a box to type one in. */
    const showVoices = async (): Promise<void> => {
      const chosen = model();
      let voices = chosen.voices?.map((id) => ({ value: id, label: id }));
      let why = '';
      if (!voices) {
        try {
          const listed = await call<{ voices: Array<{ id: string; name: string }> }>(
            'GET',
            `/v1/voices?provider=${encodeURIComponent(vendor().id)}&model=${encodeURIComponent(chosen.id)}`,
          );
          voices = listed.voices.map((v) => ({
            value: v.id,
            label: v.name === v.id ? v.id : `${v.name} (${v.id})`,
          }));
        } catch (error) {
          why = `The vendor's voice list could not be read (${messageOf(error)}). `;
        }
      }
      if (voices && voices.length > 0) {
        const select = h('select', {}) as HTMLSelectElement;
        options(select, voices);
        voiceField = field('Voice', select);
      } else {
        voiceField = voiceInput(`${why}Type the id of one of the vendor's voices.`);
      }
      voiceBox.replaceChildren(voiceField.wrapper);
    };
    const showModels = async (): Promise<void> => {
      options(
        modelField.input as HTMLSelectElement,
        vendor().models.map((m) => ({ value: m.id, label: m.id })),
      );
      await showModel();
    };
    const showModel = async (): Promise<void> => {
      options(languageField.input as HTMLSelectElement, [
        { value: '', label: "The vendor's default" },
        ...model().languages.map((l) => ({ value: l, label: l })),
      ]);
      await showVoices();
    };
    vendorField.input.addEventListener('change', () => void showModels());
    modelField.input.addEventListener('change', () => void showModel());
    await showModels();

    const say = async (event: Event): Promise<void> => {
      event.preventDefault();
      textField.setError(null);
      voiceField.setError(null);
      const text = textField.input.value.trim();
      const voice = voiceField.input.value.trim();
      if (voice === '')
        return void (voiceField.setError('Choose or type a voice.'), voiceField.input.focus());
      if (text === '') return void (textField.setError('Type something to say.'), textField.input.focus());
      const rate = rateFor(vendor());
      const player = new PcmPlayer(rate);
      player.start();
      const language = languageField.input.value;
      speakButton.disabled = true;
      note.say('Speaking…');
      let spoken = 0;
      let failed = 0;
      try {
        await speak(
          {
            model: `${vendor().id}/${model().id}`,
            voice,
            ...(language ? { language } : {}),
            response_format: FORMAT,
            sample_rate: rate,
          },
          text,
          player,
          (result) => {
            spoken++;
            results.append(sentenceItem(result));
          },
          (index, message) => {
            failed++;
            results.append(
              h(
                'li',
                { class: 'failed', 'data-sentence': index },
                `Sentence ${index + 1} failed: ${message}`,
              ),
            );
          },
        );
        const audio = player.problem ? ` ${player.problem}` : '';
        note.say(
          `Done: ${spoken} sentence${spoken === 1 ? '' : 's'} spoken` +
            (failed > 0 ? `, ${failed} failed.` : '.') +
            audio,
          failed > 0 ? 'error' : 'ok',
        );
      } catch (error) {
        note.say(messageOf(error), 'error');
      } finally {
        speakButton.disabled = false;
      }
    };

    return h(
      'div',
      {},
      h(
        'p',
        {},
        'Say something with any vendor, model and voice of the catalogue, through the router as your voice ',
        "agents do (its /v1/stream), signed in as you: the org's stored vendor key is used, and what is said ",
        'counts and is billed as a request with an API key. Each sentence shows whether it came from the cache ',
        'and how long its first audio took; say the same text again to hear it from the cache.',
      ),
      h(
        'form',
        { onsubmit: (e: Event) => void say(e), novalidate: true, class: 'playground' },
        vendorField.wrapper,
        modelField.wrapper,
        languageField.wrapper,
        voiceBox,
        textField.wrapper,
        speakButton,
      ),
      note.element,
      section('Sentences', log),
    );
  },
};

function voiceInput(hint?: string): Field {
  return field(
    'Voice',
    h('input', { type: 'text', autocomplete: 'off', spellcheck: 'false' }) as HTMLInputElement,
    hint,
  );
}

/** One sentence's result, in words: what it said, where its audio came from, and its time to first audio. */
function sentenceItem(result: SentenceResult): HTMLElement {
  return h(
    'li',
    { 'data-sentence': result.index, 'data-cached': String(result.cached) },
    h('span', { class: 'muted' }, `Sentence ${result.index + 1}: `),
    h('q', {}, result.text),
    ' ',
    h(
      'span',
      { class: result.cached ? 'badge ok' : 'badge synth' },
      result.cached ? 'from the cache' : 'synthesized',
    ),
    ' ',
    h('span', { class: 'first-audio' }, `first audio after ${result.firstAudioMs} ms`),
  );
}
