import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { ProviderId } from '@router/client';
import { call, createOrgWithKey, readE2eStack } from '@router/testing';
import { findTakeIds, SimControl } from '@router/vendor-sim';
import { vendorSettings } from './vendor-settings.fixture';

const stack = readE2eStack();
const gw = stack.gatewayUrl;
const wsUrl = `${gw.replace(/^http/, 'ws')}/v1/stream`;
const sim = new SimControl(stack.simUrl);
const SETTINGS = vendorSettings(stack);
/** The speech body's own fields; anything else is a vendor option, which /v1/stream takes in `options`. */
const BODY_FIELDS = new Set(['model', 'voice', 'language', 'response_format', 'speed', 'sample_rate']);

type Message = Record<string, any>;

interface Sentence {
  index: number;
  text: string;
  cached: boolean;
  audio: Buffer;
  words?: Message[];
  end?: Message;
  error?: Message;
}

/** A /v1/stream connection for a test: every message in order, sentences assembled from their frames. */
class StreamConnection {
  readonly messages: Message[] = [];
  readonly sentences: Sentence[] = [];
  closed: { code: number } | null = null;
  private readonly waiters: Array<() => void> = [];

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) {
        const current = this.sentences.at(-1);
        if (!current || current.end || current.error) throw new Error('audio outside a sentence');
        current.audio = Buffer.concat([current.audio, data]);
      } else {
        const message = JSON.parse(data.toString('utf8')) as Message;
        this.messages.push(message);
        if (message.type === 'sentence_start') {
          this.sentences.push({
            index: message.sentence,
            text: message.text,
            cached: message.cached,
            audio: Buffer.alloc(0),
          });
        }
        const sentence = this.sentences.find((s) => s.index === message.sentence);
        if (sentence && message.type === 'words') sentence.words = message.words;
        if (sentence && message.type === 'sentence_end') sentence.end = message;
        if (sentence && message.type === 'error') sentence.error = message;
      }
      this.waiters.splice(0).forEach((wake) => wake());
    });
    ws.on('close', (code) => {
      this.closed = { code };
      this.waiters.splice(0).forEach((wake) => wake());
    });
  }

  static open(key: string, url = wsUrl): Promise<StreamConnection> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers: { authorization: `Bearer ${key}` } });
      const connection = new StreamConnection(ws);
      ws.once('open', () => resolve(connection));
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`handshake answered ${res.statusCode}`)),
      );
      ws.once('error', reject);
    });
  }

  send(message: Message): void {
    this.ws.send(JSON.stringify(message));
  }

  /** Sends a text in token-sized deltas, as an LLM streams it. */
  sendDeltas(text: string, size = 3): void {
    for (let i = 0; i < text.length; i += size) this.send({ type: 'text', text: text.slice(i, i + size) });
  }

  async waitFor(test: (c: StreamConnection) => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test(this)) {
      if (this.closed && !test(this))
        throw new Error(`closed (${this.closed.code}) while waiting for ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  message(type: string): Message | undefined {
    return this.messages.find((m) => m.type === type);
  }

  kill(): void {
    this.ws.terminate();
  }

  close(): void {
    this.ws.close();
  }
}

/** The stream's settings message for a speech body: vendor options move into `options`. */
function settingsMessage(body: object): Message {
  const message: Message = { type: 'settings', options: {} };
  for (const [name, value] of Object.entries(body)) {
    if (BODY_FIELDS.has(name)) message[name] = value;
    else message.options[name] = value;
  }
  return message;
}

async function orgFor(vendor: string, name: string): Promise<{ key: string; vendorKey: string }> {
  const org = createOrgWithKey(stack.adminUrl, `${name}-${vendor}`);
  const vendorKey = `vk-${name}-${randomUUID()}`;
  const put = await call(gw, 'PUT', `/v1/provider-keys/${vendor}`, {
    key: org.key,
    body: { api_key: vendorKey },
  });
  expect(put.status).toBe(200);
  return { key: org.key, vendorKey };
}

/** Says a reply over a fresh connection and closes it: every sentence, in order, once the router closed. */
async function sayOverStream(key: string, settings: Message, text: string): Promise<StreamConnection> {
  const stream = await StreamConnection.open(key);
  stream.send(settings);
  stream.sendDeltas(text);
  stream.send({ type: 'close' });
  await stream.waitFor((c) => c.closed !== null, 'the router to close after the reply');
  expect(stream.closed?.code).toBe(1000);
  return stream;
}

const unique = () => randomUUID().slice(0, 8);

describe('/v1/stream (e2e, simulated vendors)', () => {
  it.each(Object.keys(SETTINGS) as ProviderId[])(
    '%s: a reply streamed as token-sized deltas plays in order, then wholly from the cache with identical bytes',
    async (vendor) => {
      const org = await orgFor(vendor, 'stream');
      const settings = settingsMessage(await SETTINGS[vendor](org.vendorKey));
      const text = `Hello from the stream ${unique()}. A second sentence follows here. And the third one ends it.`;

      const first = await sayOverStream(org.key, settings, text);
      expect(first.message('ready')?.settings.model).toBe(settings.model);
      expect(first.sentences.map((s) => [s.index, s.cached, s.end?.bytes])).toEqual(
        first.sentences.map((s, i) => [i, false, s.audio.length]),
      );
      expect(first.sentences).toHaveLength(3);
      expect(first.sentences.map((s) => s.text).join(' ')).toBe(text);
      expect(first.sentences.every((s) => s.audio.length > 500)).toBe(true);
      expect(new Set(first.sentences.map((s) => findTakeIds(s.audio)[0])).size).toBe(3);
      const calls = await sim.callCount(vendor, { key: org.vendorKey });
      expect(calls).toBe(3);

      const second = await sayOverStream(org.key, settings, text);
      expect(second.sentences.map((s) => s.cached)).toEqual([true, true, true]);
      second.sentences.forEach((s, i) => expect(s.audio.equals(first.sentences[i].audio)).toBe(true));
      expect(await sim.callCount(vendor, { key: org.vendorKey })).toBe(calls);
    },
  );

  it('shares one cache entry with POST /v1/audio/speech for equal settings', async () => {
    const org = await orgFor('vendor_a', 'shared');
    const body = await SETTINGS['vendor_a'](org.vendorKey);
    const sentence = `One entry for both surfaces ${unique()}.`;
    const res = await fetch(`${gw}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, input: sentence }),
    });
    const spoken = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(1);

    const streamed = await sayOverStream(org.key, settingsMessage(body), sentence);
    expect(streamed.sentences.map((s) => s.cached)).toEqual([true]);
    expect(streamed.sentences[0].audio.equals(spoken)).toBe(true);
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(1);
  });

  it.each(['vendor_c', 'vendor_i'] as const)(
    '%s: words messages carry the vendor timings on a miss and the same timings on a hit',
    async (vendor) => {
      const org = await orgFor(vendor, 'words');
      const settings = settingsMessage(await SETTINGS[vendor](org.vendorKey));
      const text = `Timed words arrive ${unique()}.`;
      const first = await sayOverStream(org.key, settings, text);
      const words = first.sentences[0]?.words;
      expect(words?.length).toBeGreaterThan(2);
      expect(words?.[0]).toMatchObject({ word: 'Timed', start: 0, end: 5 });
      expect(words?.every((w) => w.end_ms >= w.start_ms)).toBe(true);
      const second = await sayOverStream(org.key, settings, text);
      expect(second.sentences[0]?.cached).toBe(true);
      expect(second.sentences[0]?.words).toEqual(words);
    },
  );

  it('sends no words when the vendor option turns them off', async () => {
    const org = await orgFor('vendor_c', 'nowords');
    const settings = settingsMessage(await SETTINGS['vendor_c'](org.vendorKey));
    settings.options.sync_alignment = false;
    const stream = await sayOverStream(org.key, settings, `No timings for this one ${unique()}.`);
    expect(stream.sentences).toHaveLength(1);
    expect(stream.messages.filter((m) => m.type === 'words')).toEqual([]);
  });

  it('releases the first clause without a flush, and answers a flush after the audio it covers', async () => {
    const org = await orgFor('vendor_a', 'flush');
    const stream = await StreamConnection.open(org.key);
    stream.send(settingsMessage(await SETTINGS['vendor_a'](org.vendorKey)));
    // A clause end (a comma and a space after 20 characters) releases a piece while the sentence goes on.
    stream.sendDeltas(`This opening clause is long enough, and the rest ${unique()}`);
    await stream.waitFor((c) => c.sentences[0]?.end !== undefined, 'the first clause');
    expect(stream.sentences[0]?.text).toBe('This opening clause is long enough,');
    expect(stream.sentences).toHaveLength(1);
    stream.send({ type: 'flush', id: 'turn-1' });
    await stream.waitFor((c) => c.message('flushed') !== undefined, 'flushed');
    expect(stream.sentences).toHaveLength(2);
    const flushedAt = stream.messages.findIndex((m) => m.type === 'flushed');
    const endAt = stream.messages.findIndex((m) => m.type === 'sentence_end' && m.sentence === 1);
    expect(endAt).toBeGreaterThan(-1);
    expect(flushedAt).toBeGreaterThan(endAt);
    expect(stream.message('flushed')).toEqual({ type: 'flushed', id: 'turn-1', last_sentence: 1 });
    stream.close();
  });

  it('applies a settings change to later sentences only', async () => {
    const org = await orgFor('vendor_a', 'change');
    const body = await SETTINGS['vendor_a'](org.vendorKey);
    const sentence = `Said twice with two speeds ${unique()}.`;
    const stream = await StreamConnection.open(org.key);
    stream.send(settingsMessage(body));
    stream.sendDeltas(sentence);
    stream.send({ type: 'settings', ...settingsMessage({ ...body, speed: 1.25 }) });
    stream.sendDeltas(` ${sentence}`);
    stream.send({ type: 'close' });
    await stream.waitFor((c) => c.closed !== null, 'close');
    expect(stream.messages.filter((m) => m.type === 'ready').map((m) => m.settings.speed)).toEqual([1, 1.25]);
    expect(stream.sentences.map((s) => [s.text, s.cached])).toEqual([
      [sentence, false],
      [sentence, false],
    ]);
    expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(2);
  });

  it("follows a change of a vendor_c voice's stored settings on a connection that stays open", async () => {
    const org = await orgFor('vendor_c', 'stored');
    const settings = settingsMessage(await SETTINGS['vendor_c'](org.vendorKey));
    const refreshMs = Number(stack.env['STORED_SETTINGS_REFRESH_MS']);
    const sentence = `Stored settings follow the connection ${unique()}.`;
    const stream = await StreamConnection.open(org.key);
    stream.send(settings);
    const say = async (count: number) => {
      stream.sendDeltas(` ${sentence}`);
      stream.send({ type: 'flush' });
      await stream.waitFor((c) => c.messages.filter((m) => m.type === 'flushed').length === count, 'flushed');
      return stream.sentences[count - 1];
    };
    expect((await say(1)).cached).toBe(false);
    expect((await say(2)).cached).toBe(true);
    await sim.setVendorCVoiceSettings(org.vendorKey, settings.voice, {
      stability: 0.3,
      similarity_boost: 0.6,
    });
    await new Promise((r) => setTimeout(r, refreshMs + 1500)); // one re-read, and this connection's re-plan
    expect((await say(3)).cached).toBe(false);
    expect(await sim.callCount('vendor_c', { key: org.vendorKey })).toBe(2);
    stream.close();
  });

  describe('interruption and disconnection', () => {
    const faults: string[] = [];
    afterEach(async () => {
      for (const id of faults.splice(0)) await sim.removeFault(id);
    });

    /** Sentence 0 stalls at the vendor after some audio, so the client acts while it is in progress. */
    async function stalledReply(vendor: ProviderId, name: string) {
      const org = await orgFor(vendor, name);
      const settings = settingsMessage(await SETTINGS[vendor](org.vendorKey));
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
      const sentences = [
        `The first sentence stalls ${id}.`,
        'The second sentence is short.',
        'A third sentence follows on.',
        'The fourth is never needed at all.',
        'Nor is the fifth and last one.',
      ];
      const stream = await StreamConnection.open(org.key);
      stream.send(settings);
      stream.sendDeltas(sentences.join(' '));
      await stream.waitFor((c) => (c.sentences[0]?.audio.length ?? 0) > 0, 'the first audio');
      return { org, settings, sentences, stream };
    }

    it('vendor_a: an interrupt stops the sentence in progress (not cached) and drops the unsent ones', async () => {
      const { org, settings, sentences, stream } = await stalledReply('vendor_a', 'interrupt');
      stream.send({ type: 'interrupt', played_ms: 0 });
      await stream.waitFor((c) => c.message('interrupted') !== undefined, 'interrupted');
      const interrupted = stream.message('interrupted')!;
      expect(interrupted.last_spoken).toBeNull();
      expect(interrupted.text_spoken).toBe('');
      expect(interrupted.text_remaining).toBe(sentences.join(' '));
      expect(stream.sentences).toHaveLength(1);
      expect(stream.sentences[0]?.end).toBeUndefined();
      // No sentence beyond those resolved ahead ever reached the vendor, even later.
      await new Promise((r) => setTimeout(r, 2000));
      const calls = await sim.callCount('vendor_a', { key: org.vendorKey });
      expect(calls).toBeLessThan(sentences.length);
      expect(stream.sentences).toHaveLength(1);
      stream.close();

      // The stopped sentence was not cached: said again, the vendor is called for it.
      const again = await sayOverStream(org.key, settings, sentences[0]);
      expect(again.sentences.map((s) => s.cached)).toEqual([false]);
      expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(calls + 1);
    });

    it('vendor_c: an interrupted sentence in progress finishes at the vendor and is cached', async () => {
      const { org, settings, sentences, stream } = await stalledReply('vendor_c', 'interrupt');
      stream.send({ type: 'interrupt' });
      await stream.waitFor((c) => c.message('interrupted') !== undefined, 'interrupted');
      expect(stream.message('interrupted')).toMatchObject({ last_spoken: 0, text_spoken: sentences[0] });
      stream.close();
      let again: StreamConnection | undefined;
      for (let i = 0; i < 20; i += 1) {
        await new Promise((r) => setTimeout(r, 250));
        again = await sayOverStream(org.key, settings, sentences[0]);
        if (again.sentences[0]?.cached) break;
      }
      expect(again?.sentences[0]?.cached).toBe(true);
    });

    it('a client that disconnects lets the running sentence finish and be cached, and sends no more', async () => {
      const { org, settings, sentences, stream } = await stalledReply('vendor_a', 'gone');
      stream.kill();
      await new Promise((r) => setTimeout(r, 2500)); // the stall ends and the take completes
      const calls = await sim.callCount('vendor_a', { key: org.vendorKey });
      expect(calls).toBeLessThan(sentences.length);
      const again = await sayOverStream(org.key, settings, sentences[0]);
      expect(again.sentences.map((s) => s.cached)).toEqual([true]);
      expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(calls);
    });

    it('counts sentences whose audio had started by played_ms as spoken', async () => {
      const org = await orgFor('vendor_a', 'played');
      const settings = settingsMessage(await SETTINGS['vendor_a'](org.vendorKey));
      const stream = await StreamConnection.open(org.key);
      stream.send(settings);
      stream.sendDeltas(`One short sentence ${unique()}. Then another one.`);
      stream.send({ type: 'flush' });
      await stream.waitFor((c) => c.message('flushed') !== undefined, 'flushed');
      const firstMs = stream.sentences[0].end!.duration_ms as number;
      expect(firstMs).toBeGreaterThan(0);
      stream.send({ type: 'interrupt', played_ms: firstMs / 2 });
      await stream.waitFor((c) => c.message('interrupted') !== undefined, 'interrupted');
      expect(stream.message('interrupted')).toMatchObject({
        last_spoken: 0,
        text_spoken: stream.sentences[0].text,
        text_remaining: stream.sentences[1].text,
      });
      stream.close();
    });
  });

  describe('refusals', () => {
    it('refuses a handshake without a valid key, or with a query parameter', async () => {
      await expect(StreamConnection.open('rtr_wrong')).rejects.toThrow('handshake answered 401');
      const org = createOrgWithKey(stack.adminUrl, `refuse-${unique()}`);
      await expect(StreamConnection.open(org.key, `${wsUrl}?voice=x`)).rejects.toThrow(
        'handshake answered 400',
      );
    });

    it('answers bad messages with bad_request naming the rule, and stays open', async () => {
      const org = await orgFor('vendor_a', 'bad');
      const stream = await StreamConnection.open(org.key);
      const errors = () => stream.messages.filter((m) => m.type === 'error').map((m) => m.error);
      stream.send({ type: 'text', text: 'Too early.' });
      stream.send({ type: 'shout' });
      stream.send({ type: 'settings', model: 'vendor_a/a_model_1', voice: 'aarila' });
      stream.send({ ...settingsMessage(await SETTINGS['vendor_a'](org.vendorKey)), sample_rate: 44100 });
      stream.send({
        ...settingsMessage(await SETTINGS['vendor_a'](org.vendorKey)),
        options: { pitch: 0.2 },
      });
      stream.send({ ...settingsMessage(await SETTINGS['vendor_a'](org.vendorKey)), options: { volume: 1 } });
      await stream.waitFor(() => errors().length >= 6, 'six errors');
      expect(errors().map((e) => e.code)).toEqual(Array(6).fill('bad_request'));
      const text = errors().map((e) => e.message as string);
      expect(text[0]).toMatch(/after a settings message/);
      expect(text[1]).toMatch(/^type must be one of/);
      expect(text[2]).toMatch(/language/);
      expect(text[3]).toMatch(/sample_rate/);
      expect(text[4]).toMatch(/pitch/);
      expect(text[5]).toMatch(/options\.volume is not an option of vendor_a/);
      expect(stream.closed).toBeNull();
      stream.send(settingsMessage(await SETTINGS['vendor_a'](org.vendorKey)));
      await stream.waitFor((c) => c.message('ready') !== undefined, 'ready after the errors');
      stream.close();
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
        org.key,
        settingsMessage(await SETTINGS['vendor_a'](org.vendorKey)),
        `This one fails ${id}. This one plays ${id}.`,
      );
      const error = stream.messages.find((m) => m.type === 'error');
      expect(error).toMatchObject({ sentence: 0, error: { code: 'provider_unavailable', retryable: true } });
      expect(stream.sentences.map((s) => [s.index, s.cached, s.end !== undefined])).toEqual([
        [1, false, true],
      ]);
      await sim.removeFault(fault.id);
    });
  });
});
