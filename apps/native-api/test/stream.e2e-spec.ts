import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import WebSocket from 'ws';
import {
  type Catalogue,
  type ProviderId,
  RouterApiError,
  RouterClient,
  type Sentence,
  type SentenceEnd,
  type StreamEvent,
  StreamClosedError,
  type StreamSession,
  type StreamSettings,
  type WordTiming,
} from '@router/client';
import { createOrgClient, eventually, readE2eStack, vendorSettings } from '@router/testing';
import { findTakeIds, parseWav, SimControl } from '@router/vendor-sim';

const stack = readE2eStack();
const gw = stack.gatewayUrl;
const sim = new SimControl(stack.simUrl);
const SETTINGS = vendorSettings(stack);
/** The speech body's own fields; anything else is a vendor option, which /v1/stream takes in `options`. */
const BODY_FIELDS = new Set(['model', 'voice', 'language', 'response_format', 'speed', 'sample_rate']);

/** What a test heard of one sentence, read through the client to its end. */
interface Heard {
  index: number;
  text: string;
  cached: boolean;
  audio: Buffer;
  words: WordTiming[] | null;
  end: SentenceEnd | null;
  error: RouterApiError | null;
}

/** A session under test: every event the router sent, in order, and its sentences as the client assembles them. */
interface Conversation {
  session: StreamSession;
  events: StreamEvent[];
  sentences: AsyncIterator<Sentence>;
}

/** The stream's settings for a speech body: vendor options move into `options`. */
function streamSettings(body: object): StreamSettings {
  const settings: Record<string, unknown> = {};
  const options: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (BODY_FIELDS.has(name)) settings[name] = value;
    else options[name] = value;
  }
  return { ...settings, options } as StreamSettings;
}

async function orgFor(
  vendor: ProviderId,
  name: string,
): Promise<{ key: string; vendorKey: string; client: RouterClient }> {
  const org = createOrgClient(stack, `${name}-${vendor}`);
  const vendorKey = `vk-${name}-${randomUUID()}`;
  expect((await org.client.providerKeys.put(vendor, vendorKey)).provider).toBe(vendor);
  return { key: org.key, vendorKey, client: org.client };
}

async function converse(client: RouterClient, settings: StreamSettings): Promise<Conversation> {
  const events: StreamEvent[] = [];
  const session = await client.stream(settings, { onEvent: (event) => events.push(event) });
  return { session, events, sentences: session.sentences() };
}

/** Sends a text in token-sized deltas, as an LLM streams it. */
function sendDeltas(session: StreamSession, text: string, size = 3): void {
  for (let i = 0; i < text.length; i += size) session.send(text.slice(i, i + size));
}

async function nextSentence(sentences: AsyncIterator<Sentence>): Promise<Sentence> {
  const next = await sentences.next();
  if (next.done) throw new Error('the session ended before the sentence came');
  return next.value;
}

/** Reads a sentence to its end: its audio, words and end, or the error it failed with. */
async function hear(sentence: Sentence): Promise<Heard> {
  const heard: Heard = {
    index: sentence.index,
    text: sentence.text,
    cached: sentence.cached,
    audio: Buffer.alloc(0),
    words: null,
    end: null,
    error: null,
  };
  try {
    for await (const chunk of sentence.audio) heard.audio = Buffer.concat([heard.audio, chunk]);
    heard.words = await sentence.words();
    heard.end = await sentence.end();
  } catch (error) {
    if (!(error instanceof RouterApiError)) throw error;
    heard.error = error;
  }
  return heard;
}

async function hearAll(sentences: AsyncIterator<Sentence>): Promise<Heard[]> {
  const heard: Heard[] = [];
  for (let next = await sentences.next(); !next.done; next = await sentences.next()) {
    heard.push(await hear(next.value));
  }
  return heard;
}

/**
 * The protocol's framing, checked on what the router sent: sentences never interleave, every binary frame
 * and `words` message belongs to the sentence open at the time, and a sentence ends with its
 * `sentence_end`, an `error` naming it, or the `interrupted` that cut it off.
 */
function expectFramed(events: readonly StreamEvent[]): void {
  let open: number | null = null;
  const broken: string[] = [];
  for (const [at, event] of events.entries()) {
    const where = `event ${at} (${event.type})`;
    switch (event.type) {
      case 'sentence_start':
        if (open !== null) broken.push(`${where}: sentence ${open} had not ended`);
        open = event.sentence;
        break;
      case 'audio':
      case 'words':
        if (open === null || event.sentence !== open) broken.push(`${where} outside its sentence`);
        break;
      case 'sentence_end':
        if (event.sentence !== open) broken.push(`${where} for a sentence not open`);
        open = null;
        break;
      case 'error':
        if (event.sentence !== undefined && event.sentence === open) open = null;
        break;
      case 'interrupted':
        open = null;
        break;
      default:
        break;
    }
  }
  expect(broken).toEqual([]);
}

const starts = (events: readonly StreamEvent[]) => events.filter((e) => e.type === 'sentence_start');

/** Says a reply over a fresh session and closes it: every sentence, in order, once the router closed (1000). */
async function sayOverStream(
  client: RouterClient,
  settings: StreamSettings,
  text: string,
): Promise<{ session: StreamSession; events: StreamEvent[]; sentences: Heard[] }> {
  const { session, events, sentences } = await converse(client, settings);
  const heard = hearAll(sentences);
  heard.catch(() => undefined); // awaited below, unless the close already failed the test
  sendDeltas(session, text);
  expect(await session.close()).toMatchObject({ code: 1000 });
  expect(await session.closed).toMatchObject({ code: 1000 });
  const all = await heard;
  expectFramed(events);
  return { session, events, sentences: all };
}

const unique = () => randomUUID().slice(0, 8);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('/v1/stream (e2e through the typed client, simulated vendors)', () => {
  let catalogue: Catalogue;
  beforeAll(async () => {
    catalogue = await new RouterClient({ baseUrl: gw }).models();
  });

  it.each(Object.keys(SETTINGS) as ProviderId[])(
    '%s: a reply streamed as token-sized deltas plays in order, then wholly from the cache with identical bytes',
    async (vendor) => {
      const org = await orgFor(vendor, 'stream');
      const settings = streamSettings(await SETTINGS[vendor](org.vendorKey));
      const text = `Hello from the stream ${unique()}. A second sentence follows here. And the third one ends it.`;

      const first = await sayOverStream(org.client, settings, text);
      expect(first.events[0]).toMatchObject({ type: 'ready', settings: { model: settings.model } });
      // The settings as resolved: every field, as the client types them.
      const ready = first.session.settings!;
      const provider = catalogue.providers.find((p) => p.id === vendor)!;
      expect(Object.keys(ready).sort()).toEqual(
        ['language', 'model', 'options', 'response_format', 'sample_rate', 'speed', 'voice'].sort(),
      );
      expect(ready).toMatchObject({ model: settings.model, voice: settings.voice, response_format: 'pcm' });
      expect(provider.sample_rates).toContain(ready.sample_rate);
      if (provider.speed === null) expect(ready.speed).toBeNull();
      const optionNames = new Set(provider.options.map((o) => o.name));
      expect(Object.keys(ready.options).filter((name) => !optionNames.has(name))).toEqual([]);
      expect(first.sentences.map((s) => [s.index, s.cached, s.end?.bytes, s.end?.interrupted])).toEqual(
        first.sentences.map((s, i) => [i, false, s.audio.length, false]),
      );
      expect(first.sentences).toHaveLength(3);
      expect(first.sentences.map((s) => s.text).join(' ')).toBe(text);
      expect(first.sentences.every((s) => s.audio.length > 500)).toBe(true);
      expect(new Set(first.sentences.map((s) => findTakeIds(s.audio)[0])).size).toBe(3);
      const calls = await sim.callCount(vendor, { key: org.vendorKey });
      expect(calls).toBe(3);

      const second = await sayOverStream(org.client, settings, text);
      expect(second.sentences.map((s) => s.cached)).toEqual([true, true, true]);
      second.sentences.forEach((s, i) => expect(s.audio.equals(first.sentences[i].audio)).toBe(true));
      expect(await sim.callCount(vendor, { key: org.vendorKey })).toBe(calls);
    },
  );

  it('shares one cache entry with POST /v1/audio/speech for equal settings', async () => {
    const org = await orgFor('vendor_a', 'shared');
    const body = await SETTINGS['vendor_a'](org.vendorKey);
    const sentence = `One entry for both surfaces ${unique()}.`;
    const spoken = Buffer.from(await (await org.client.speech({ ...body, input: sentence })).bytes());
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(1);

    const streamed = await sayOverStream(org.client, streamSettings(body), sentence);
    expect(streamed.sentences.map((s) => s.cached)).toEqual([true]);
    expect(streamed.sentences[0].audio.equals(spoken)).toBe(true);
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(1);
  });

  it('sends each wav sentence as its own clip, lists the options that apply with their defaults, and the speech endpoint one header', async () => {
    const org = await orgFor('vendor_a', 'wav');
    const body = {
      model: 'vendor_a/a_model_2',
      voice: 'meravi',
      language: 'en-IN',
      response_format: 'wav' as const,
      sample_rate: 16000 as const,
    };
    const text = `A clip of its own ${unique()}. And another one after it.`;
    const streamed = await sayOverStream(org.client, streamSettings(body), text);

    // The spec's vendor_a options for a_model_2 with wav: `bitrate` (mp3 and aac only) does not apply.
    expect(streamed.session.settings?.options).toEqual({
      temperature: 0.6,
      dict_id: null,
      pitch: 0,
      loudness: 1.0,
      enable_preprocessing: false,
      min_buffer_size: null,
      max_chunk_length: null,
    });

    // Each sentence is a WAV file of its own, as the vendor made it, so a client can play it alone.
    expect(streamed.sentences).toHaveLength(2);
    const clips = streamed.sentences.map((s) => ({ audio: s.audio, wav: parseWav(s.audio) }));
    for (const { wav } of clips) expect(wav.sampleRate).toBe(16000);

    // The speech endpoint (here from the cache the stream filled) sends one header, then each clip's samples.
    const spoken = Buffer.from(await (await org.client.speech({ ...body, input: text })).bytes());
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(2);
    const header = parseWav(spoken);
    expect(header.sampleRate).toBe(16000);
    expect(spoken.subarray(header.dataOffset)).toEqual(
      Buffer.concat(clips.map(({ audio, wav }) => audio.subarray(wav.dataOffset))),
    );
  });

  it.each(['vendor_c', 'vendor_i'] as const)(
    '%s: words messages carry the vendor timings on a miss and the same timings on a hit',
    async (vendor) => {
      const org = await orgFor(vendor, 'words');
      const settings = streamSettings(await SETTINGS[vendor](org.vendorKey));
      const text = `Timed words arrive ${unique()}.`;
      const first = await sayOverStream(org.client, settings, text);
      const words = first.sentences[0]?.words;
      expect(words?.length).toBeGreaterThan(2);
      expect(words?.[0]).toMatchObject({ word: 'Timed', start: 0, end: 5 });
      expect(words?.every((w) => w.endMs >= w.startMs)).toBe(true);
      // `words` comes before the sentence's end (the client reads the timings from it).
      const wordsAt = first.events.findIndex((e) => e.type === 'words');
      expect(wordsAt).toBeGreaterThan(-1);
      expect(wordsAt).toBeLessThan(first.events.findIndex((e) => e.type === 'sentence_end'));
      const second = await sayOverStream(org.client, settings, text);
      expect(second.sentences[0]?.cached).toBe(true);
      expect(second.sentences[0]?.words).toEqual(words);
    },
  );

  it('sends no words when the vendor option turns them off', async () => {
    const org = await orgFor('vendor_c', 'nowords');
    const settings = streamSettings(await SETTINGS['vendor_c'](org.vendorKey));
    settings.options = { ...settings.options, sync_alignment: false };
    const stream = await sayOverStream(org.client, settings, `No timings for this one ${unique()}.`);
    expect(stream.sentences).toHaveLength(1);
    expect(stream.sentences[0].words).toBeNull();
    expect(stream.events.filter((e) => e.type === 'words')).toEqual([]);
  });

  it('releases the first clause without a flush, and answers a flush after the audio it covers', async () => {
    const org = await orgFor('vendor_a', 'flush');
    const { session, events, sentences } = await converse(
      org.client,
      streamSettings(await SETTINGS['vendor_a'](org.vendorKey)),
    );
    // A clause end (a comma and a space after 20 characters) releases a piece while the sentence goes on.
    sendDeltas(session, `This opening clause is long enough, and the rest ${unique()}`);
    const first = await hear(await nextSentence(sentences));
    expect(first.text).toBe('This opening clause is long enough,');
    expect(first.end).toMatchObject({ interrupted: false });
    expect(starts(events)).toHaveLength(1);
    expect(await session.flush('turn-1')).toEqual({ id: 'turn-1', lastSentence: 1, interrupted: false });
    expect(starts(events)).toHaveLength(2);
    const flushedAt = events.findIndex((e) => e.type === 'flushed');
    const endAt = events.findIndex((e) => e.type === 'sentence_end' && e.sentence === 1);
    expect(endAt).toBeGreaterThan(-1);
    expect(flushedAt).toBeGreaterThan(endAt);
    expect(events[flushedAt]).toEqual({ type: 'flushed', id: 'turn-1', last_sentence: 1 });
    const second = await hear(await nextSentence(sentences));
    expect(second).toMatchObject({ index: 1, error: null, end: { interrupted: false } });
    // A flush with no new text covers the same sentences: it names the last one again.
    expect(await session.flush()).toEqual({ id: null, lastSentence: 1, interrupted: false });
    expect(await session.close()).toMatchObject({ code: 1000 });
    expectFramed(events);
  });

  it('starts the audio of a finished sentence at the whitespace after it, with no further text', async () => {
    const org = await orgFor('vendor_a', 'release');
    const { session, events, sentences } = await converse(
      org.client,
      streamSettings(await SETTINGS['vendor_a'](org.vendorKey)),
    );
    session.send('Your order has shipped. ');
    const first = await hear(await nextSentence(sentences));
    expect(first).toMatchObject({ index: 0, text: 'Your order has shipped.', error: null });
    expect(first.audio.length).toBeGreaterThan(0);
    expect(starts(events)).toHaveLength(1);
    expect(await session.close()).toMatchObject({ code: 1000 });
    expectFramed(events);
  });

  it("speaks text with no sentence end in pieces within the vendor's limit as it passes the limit", async () => {
    const org = await orgFor('vendor_a', 'nosentenceend');
    const { session, events, sentences } = await converse(
      org.client,
      streamSettings(await SETTINGS['vendor_a'](org.vendorKey)),
    );
    // 4,000 characters and no sentence end: the first 2,499 are spoken before any flush.
    sendDeltas(session, 'word '.repeat(800), 50);
    const first = await hear(await nextSentence(sentences));
    expect(first).toMatchObject({ index: 0, error: null, end: { interrupted: false } });
    expect(first.text).toBe(Array.from({ length: 500 }, () => 'word').join(' '));
    expect(await session.flush('rest')).toEqual({ id: 'rest', lastSentence: 1, interrupted: false });
    const second = await hear(await nextSentence(sentences));
    expect(second).toMatchObject({ index: 1, error: null, text: 'word '.repeat(300).trim() });
    expect(second.audio.length).toBeGreaterThan(0);
    expect(await session.close()).toMatchObject({ code: 1000 });
    expectFramed(events);
    const calls = await sim.calls('vendor_a', { key: org.vendorKey });
    expect(calls.map((c) => c.chars)).toEqual([2499, 1499]);
  });

  it('applies a settings change to later sentences only', async () => {
    const org = await orgFor('vendor_a', 'change');
    const body = await SETTINGS['vendor_a'](org.vendorKey);
    const sentence = `Said twice with two speeds ${unique()}.`;
    const { session, events, sentences } = await converse(org.client, streamSettings(body));
    const heard = hearAll(sentences);
    sendDeltas(session, sentence);
    const changed = session.updateSettings(streamSettings({ ...body, speed: 1.25 }));
    sendDeltas(session, ` ${sentence}`);
    expect(await session.close()).toMatchObject({ code: 1000 });
    expect((await changed).speed).toBe(1.25);
    expect(session.settings?.speed).toBe(1.25);
    expect(events.flatMap((e) => (e.type === 'ready' ? [e.settings.speed] : []))).toEqual([1, 1.25]);
    expect((await heard).map((s) => [s.text, s.cached])).toEqual([
      [sentence, false],
      [sentence, false],
    ]);
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(2);
  });

  it('gives a slow reader every byte in order: the client pauses and resumes the socket past its buffer', async () => {
    const org = await orgFor('vendor_a', 'slow');
    const settings = streamSettings(await SETTINGS['vendor_a'](org.vendorKey));
    const text = [1, 2, 3, 4].map((n) => `Slow reader sentence number ${n} ${unique()}.`).join(' ');
    const fast = await sayOverStream(org.client, settings, text);
    expect(fast.sentences.map((s) => s.cached)).toEqual([false, false, false, false]);

    // A 1 KiB buffer and a reader that reads nothing until the client has stopped reading the socket, then
    // dawdles on every frame: the client stops and restarts reading many times while the router sends the reply
    // again, from the cache. (No call waits for an answer until the last sentence: while one does, the client
    // keeps reading.)
    let pauses = 0;
    class CountingPauses extends WebSocket {
      override pause(): void {
        pauses += 1;
        super.pause();
      }
    }
    const client = new RouterClient({ baseUrl: gw, apiKey: org.key, WebSocket: CountingPauses });
    const events: StreamEvent[] = [];
    const session = await client.stream(settings, { maxBufferedBytes: 1024, onEvent: (e) => events.push(e) });
    const sentences = session.sentences();
    const slowly = async () => {
      const sentence = await nextSentence(sentences);
      const chunks: Uint8Array[] = [];
      for await (const chunk of sentence.audio) {
        chunks.push(chunk);
        await sleep(5);
      }
      return { audio: Buffer.concat(chunks), end: await sentence.end() };
    };
    sendDeltas(session, text);
    // However slowly the router sends (a loaded machine), the unread audio passes 1 KiB and the client pauses.
    await eventually('the client paused the socket', async () => pauses > 0, 20000);
    const heard = [await slowly(), await slowly(), await slowly()];
    const closing = session.close();
    heard.push(await slowly());
    expect(await closing).toMatchObject({ code: 1000 });
    expect((await sentences.next()).done).toBe(true);
    expectFramed(events);
    expect(heard.map((s) => [s.audio.length, s.end.interrupted])).toEqual(
      fast.sentences.map((s) => [s.end?.bytes, false]),
    );
    heard.forEach((s, i) => expect(s.audio.equals(fast.sentences[i].audio)).toBe(true));
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(4);
  });

  it("follows a change of a vendor_c voice's stored settings on a connection that stays open", async () => {
    const org = await orgFor('vendor_c', 'stored');
    const settings = streamSettings(await SETTINGS['vendor_c'](org.vendorKey));
    const refreshMs = Number(stack.env['STORED_SETTINGS_REFRESH_MS']);
    const sentence = `Stored settings follow the connection ${unique()}.`;
    const { session, sentences } = await converse(org.client, settings);
    const say = async (count: number) => {
      sendDeltas(session, ` ${sentence}`);
      expect(await session.flush()).toEqual({ id: null, lastSentence: count - 1, interrupted: false });
      return hear(await nextSentence(sentences));
    };
    expect((await say(1)).cached).toBe(false);
    expect((await say(2)).cached).toBe(true);
    await sim.setVendorCVoiceSettings(org.vendorKey, settings.voice, {
      stability: 0.3,
      similarity_boost: 0.6,
    });
    await sleep(refreshMs + 1500); // one re-read, and this connection's re-plan
    expect((await say(3)).cached).toBe(false);
    expect(await sim.callCount('vendor_c', { key: org.vendorKey })).toBe(2);
    expect(await session.close()).toMatchObject({ code: 1000 });
  });

  describe('interruption and disconnection', () => {
    const faults: string[] = [];
    afterEach(async () => {
      for (const id of faults.splice(0)) await sim.removeFault(id);
    });

    /** Sentence 0 stalls at the vendor after some audio, so the client acts while it is in progress. */
    async function stalledReply(vendor: ProviderId, name: string) {
      const org = await orgFor(vendor, name);
      const settings = streamSettings(await SETTINGS[vendor](org.vendorKey));
      const id = unique();
      const fault = await sim.injectFault({
        vendor,
        key: org.vendorKey,
        kind: 'stall',
        afterBytes: 1000,
        stallMs: 1500,
        textIncludes: id,
      });
      faults.push(fault.id);
      const texts = [
        `The first sentence stalls ${id}.`,
        'The second sentence is short.',
        'A third sentence follows on.',
        'The fourth is never needed at all.',
        'Nor is the fifth and last one.',
      ];
      const conversation = await converse(org.client, settings);
      sendDeltas(conversation.session, texts.join(' '));
      const first = await nextSentence(conversation.sentences);
      const audio = first.audio[Symbol.asyncIterator]();
      expect((await audio.next()).done).toBe(false); // the first audio
      /** The rest of the first sentence: what arrived before the client acted, and how it ended. */
      const rest = async () => {
        while (!(await audio.next()).done);
        return first.end();
      };
      return { org, settings, texts, first, rest, ...conversation };
    }

    it('vendor_a: an interrupt stops the sentence in progress (not cached) and drops the unsent ones', async () => {
      const { org, settings, texts, session, events, rest } = await stalledReply('vendor_a', 'interrupt');
      expect(await session.interrupt(0)).toEqual({
        lastSpoken: null,
        textSpoken: '',
        textRemaining: texts.join(' '),
      });
      expect(await rest()).toMatchObject({ interrupted: true });
      expect(starts(events)).toHaveLength(1);
      expect(events.filter((e) => e.type === 'sentence_end' || e.type === 'error')).toEqual([]);
      // No sentence beyond those resolved ahead ever reached the vendor, even later.
      await sleep(2000);
      const calls = await sim.callCount('vendor_a', { key: org.vendorKey });
      expect(calls).toBeLessThan(texts.length);
      expect(starts(events)).toHaveLength(1);
      expect(await session.close()).toMatchObject({ code: 1000 });
      expectFramed(events);

      // The stopped sentence was not cached: said again, the vendor is called for it.
      const again = await sayOverStream(org.client, settings, texts[0]);
      expect(again.sentences.map((s) => s.cached)).toEqual([false]);
      expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(calls + 1);
    });

    it('vendor_c: an interrupted sentence in progress finishes at the vendor and is cached', async () => {
      const { org, settings, texts, session, rest } = await stalledReply('vendor_c', 'interrupt');
      expect(await session.interrupt()).toMatchObject({ lastSpoken: 0, textSpoken: texts[0] });
      expect(await rest()).toMatchObject({ interrupted: true });
      expect(await session.close()).toMatchObject({ code: 1000 });
      let again: Heard | undefined;
      for (let i = 0; i < 20; i += 1) {
        await sleep(250);
        again = (await sayOverStream(org.client, settings, texts[0])).sentences[0];
        if (again?.cached) break;
      }
      expect(again?.cached).toBe(true);
    });

    it('a client that disconnects lets the running sentence finish and be cached, and sends no more', async () => {
      const { org, settings, texts, session, rest } = await stalledReply('vendor_a', 'gone');
      session.disconnect();
      expect(await rest()).toMatchObject({ interrupted: true }); // cut off by the session's end
      await sleep(2500); // the stall ends and the take completes
      const calls = await sim.callCount('vendor_a', { key: org.vendorKey });
      expect(calls).toBeLessThan(texts.length);
      const again = await sayOverStream(org.client, settings, texts[0]);
      expect(again.sentences.map((s) => s.cached)).toEqual([true]);
      expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(calls);
    });

    it('counts sentences whose audio had started by played_ms as spoken', async () => {
      const org = await orgFor('vendor_a', 'played');
      const { session, events, sentences } = await converse(
        org.client,
        streamSettings(await SETTINGS['vendor_a'](org.vendorKey)),
      );
      sendDeltas(session, `One short sentence ${unique()}. Then another one.`);
      expect(await session.flush()).toMatchObject({ lastSentence: 1, interrupted: false });
      const first = await hear(await nextSentence(sentences));
      const second = await hear(await nextSentence(sentences));
      const firstMs = first.end?.durationMs as number;
      expect(firstMs).toBeGreaterThan(0);
      expect(await session.interrupt(firstMs / 2)).toEqual({
        lastSpoken: 0,
        textSpoken: first.text,
        textRemaining: second.text,
      });
      expect(await session.close()).toMatchObject({ code: 1000 });
      expectFramed(events);
    });

    it('answers a flush still waiting when the interrupt comes with the interrupt, not with flushed', async () => {
      const { texts, session, events, rest } = await stalledReply('vendor_a', 'flushcut');
      const flushed = session.flush('turn-1');
      const interrupted = session.interrupt(0);
      expect(await flushed).toEqual({ id: 'turn-1', lastSentence: null, interrupted: true });
      expect(await interrupted).toMatchObject({ lastSpoken: null, textRemaining: texts.join(' ') });
      expect(await rest()).toMatchObject({ interrupted: true });
      expect(events.filter((e) => e.type === 'flushed')).toEqual([]);
      // After `interrupted` the connection takes the next reply.
      // Indexes never restart: the first flush had released all five sentences (0 to 4).
      session.send(`A new reply ${unique()}.`);
      expect(await session.flush('turn-2')).toEqual({
        id: 'turn-2',
        lastSentence: texts.length,
        interrupted: false,
      });
      expect(await session.close()).toMatchObject({ code: 1000 });
      expectFramed(events);
    });
  });

  describe('refusals and failures', () => {
    it('refuses a handshake without a valid key, or with a query parameter', async () => {
      const settings = streamSettings(await SETTINGS['vendor_a']('unused'));
      const wrongKey = new RouterClient({ baseUrl: gw, apiKey: 'rtr_wrong' });
      const unauthorized = await wrongKey.stream(settings).catch((e: unknown) => e);
      expect(unauthorized).toBeInstanceOf(RouterApiError);
      expect(unauthorized).toMatchObject({ httpStatus: 401, code: 'unauthorized' });

      // The client puts nothing in the URL; a WebSocket that adds a query parameter shows the refusal.
      class WithQuery extends WebSocket {
        constructor(url: string, options: WebSocket.ClientOptions) {
          super(`${url}?voice=x`, options);
        }
      }
      const { key } = createOrgClient(stack, `refuse-${unique()}`);
      const withQuery = new RouterClient({
        baseUrl: gw,
        apiKey: key,
        WebSocket: WithQuery,
      });
      const badRequest = await withQuery.stream(settings).catch((e: unknown) => e);
      expect(badRequest).toBeInstanceOf(RouterApiError);
      expect(badRequest).toMatchObject({
        httpStatus: 400,
        code: 'bad_request',
        message: expect.stringMatching(/query parameter "voice"/),
      });
    });

    it('refuses text before the first settings message', async () => {
      // The one check the client cannot make: it opens every session with its settings message, so a text
      // message before any settings needs a bare socket.
      const { key } = createOrgClient(stack, `early-${unique()}`);
      const ws = new WebSocket(`${gw.replace(/^http/, 'ws')}/v1/stream`, {
        headers: { authorization: `Bearer ${key}` },
      });
      await once(ws, 'open');
      ws.send(JSON.stringify({ type: 'text', text: 'Too early.' }));
      const [answer] = (await once(ws, 'message')) as [Buffer];
      ws.close();
      expect(JSON.parse(answer.toString('utf8'))).toMatchObject({
        type: 'error',
        error: { code: 'bad_request', message: expect.stringMatching(/after a settings message/) },
      });
      expect(JSON.parse(answer.toString('utf8')).sentence).toBeUndefined();
    });

    it('answers bad messages with bad_request naming the rule, and stays open', async () => {
      const org = await orgFor('vendor_a', 'bad');
      const settings = streamSettings(await SETTINGS['vendor_a'](org.vendorKey));
      const unanswered: RouterApiError[] = [];
      const session = await org.client.stream(settings, { onError: (e) => unanswered.push(e) });
      let closed = false;
      void session.closed.then(() => (closed = true));
      const events = session.events();
      const nextError = async () => {
        for (let next = await events.next(); !next.done; next = await events.next()) {
          if (next.value.type === 'error') return next.value;
        }
        throw new Error('the session ended before an error came');
      };

      // Frames the client would never send: through its raw level, one at a time (an error names no
      // message, so each is awaited before the next).
      session.sendRaw(JSON.stringify({ type: 'shout' }));
      expect(await nextError()).toEqual({
        type: 'error',
        error: {
          code: 'bad_request',
          message: expect.stringMatching(/^type must be one of/),
          retryable: false,
        },
      });
      session.sendRaw(new Uint8Array([1, 2, 3]));
      expect((await nextError()).error.message).toMatch(/binary frames/);
      expect(unanswered.map((e) => e.code)).toEqual(['bad_request', 'bad_request']);

      // Refused settings reject their own update; the previous settings stay in force.
      const refusals: Array<[StreamSettings, RegExp]> = [
        [{ model: 'vendor_a/a_model_1', voice: 'aarila' }, /language/],
        [{ ...settings, sample_rate: 44100 }, /sample_rate/],
        [{ ...settings, options: { pitch: 0.2 } }, /pitch/],
        [{ ...settings, options: { volume: 1 } }, /options\.volume is not an option of vendor_a/],
      ];
      for (const [bad, rule] of refusals) {
        const refused = await session.updateSettings(bad).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(RouterApiError);
        expect(refused).toMatchObject({
          code: 'bad_request',
          sentence: undefined,
          message: expect.stringMatching(rule),
        });
        expect(await nextError()).toMatchObject({ error: { message: expect.stringMatching(rule) } });
      }
      expect(unanswered).toHaveLength(2);
      expect(session.settings?.model).toBe(settings.model);
      expect(closed).toBe(false);
      expect((await session.updateSettings(settings)).model).toBe(settings.model);
      expect(await session.close()).toMatchObject({ code: 1000 });
    });

    it('closes with 1009 on a message over 256 KiB, which the client reports as StreamClosedError', async () => {
      const org = await orgFor('vendor_a', 'big');
      const session = await org.client.stream(streamSettings(await SETTINGS['vendor_a'](org.vendorKey)));
      const events = session.events();
      expect(await session.flush()).toEqual({ id: null, lastSentence: null, interrupted: false }); // no text yet
      session.sendRaw(JSON.stringify({ type: 'text', text: 'x'.repeat(300 * 1024) }));
      const reading = (async () => {
        for await (const _event of events);
      })();
      const error = await reading.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StreamClosedError);
      expect(error).toMatchObject({ closeCode: 1009, retryable: false });
      expect((await session.closed).code).toBe(1009);
    });

    it('reports a vendor failure for its sentence and goes on with the next', async () => {
      const org = await orgFor('vendor_a', 'fail');
      const id = unique();
      const fault = await sim.injectFault({
        vendor: 'vendor_a',
        key: org.vendorKey,
        kind: 'error',
        status: 500,
        textIncludes: `fails ${id}`,
      });
      const stream = await sayOverStream(
        org.client,
        streamSettings(await SETTINGS['vendor_a'](org.vendorKey)),
        `This one fails ${id}. This one plays ${id}.`,
      );
      expect(stream.events.find((e) => e.type === 'error')).toMatchObject({
        sentence: 0,
        error: { code: 'provider_unavailable', retryable: true },
      });
      // It failed before its audio started: no sentence_start, and the client yields it in its place.
      expect(starts(stream.events).map((e) => e.sentence)).toEqual([1]);
      const [failed, ...played] = stream.sentences;
      expect(failed).toMatchObject({ index: 0, text: '', end: null });
      expect(failed.error).toMatchObject({ code: 'provider_unavailable', retryable: true, sentence: 0 });
      expect(played.map((s) => [s.index, s.cached, s.end !== null, s.error])).toEqual([
        [1, false, true, null],
      ]);
      await sim.removeFault(fault.id);
    });

    it('ends a sentence cut off at the vendor after some audio with its error, not cached, and goes on', async () => {
      const org = await orgFor('vendor_a', 'cut');
      const settings = streamSettings(await SETTINGS['vendor_a'](org.vendorKey));
      const id = unique();
      const fault = await sim.injectFault({
        vendor: 'vendor_a',
        key: org.vendorKey,
        kind: 'cut',
        afterBytes: 1000,
        textIncludes: `cut ${id}`,
      });
      const stream = await sayOverStream(
        org.client,
        settings,
        `This one is cut ${id}. This one plays ${id}.`,
      );
      await sim.removeFault(fault.id);
      const [cut, played] = stream.sentences;
      // Its audio started: sentence_start, some audio, then the error naming it instead of sentence_end.
      expect(cut).toMatchObject({ index: 0, text: `This one is cut ${id}.`, cached: false, end: null });
      expect(cut.audio.length).toBeGreaterThan(0);
      expect(cut.error).toBeInstanceOf(RouterApiError);
      expect(cut.error).toMatchObject({ sentence: 0, retryable: true });
      expect(stream.events.filter((e) => e.type === 'sentence_end').map((e) => e.sentence)).toEqual([1]);
      expect(played).toMatchObject({ index: 1, cached: false, error: null, end: { interrupted: false } });
      const calls = await sim.callCount('vendor_a', { key: org.vendorKey });

      const again = await sayOverStream(org.client, settings, `This one is cut ${id}.`);
      expect(again.sentences.map((s) => [s.cached, s.error])).toEqual([[false, null]]);
      expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(calls + 1);
    });
  });
});
