import { randomUUID } from 'node:crypto';
import { call, createOrgWithKey, eventually, readE2eStack } from '@router/testing';
import { SimControl } from '@router/vendor-sim';

const stack = readE2eStack();
const gw = stack.gatewayUrl;
const sim = new SimControl(stack.simUrl);
/** The stack's re-read interval of stored vendor settings (short for tests). */
const REFRESH_MS = Number(stack.env['STORED_SETTINGS_REFRESH_MS']);

async function orgWithVendorKey(name: string, vendor: string): Promise<{ key: string; vendorKey: string }> {
  const org = createOrgWithKey(stack.adminUrl, name);
  const vendorKey = `vk-${name}-${randomUUID()}`;
  const put = await call(gw, 'PUT', `/v1/provider-keys/${vendor}`, {
    key: org.key,
    body: { api_key: vendorKey },
  });
  expect(put.status).toBe(200);
  return { key: org.key, vendorKey };
}

async function speak(key: string, body: Record<string, unknown>): Promise<Buffer> {
  const res = await fetch(`${gw}/v1/audio/speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const audio = Buffer.from(await res.arrayBuffer());
  expect([res.status, res.headers.get('content-type')]).toEqual([200, 'audio/pcm']);
  expect(audio.length).toBeGreaterThan(1000);
  return audio;
}

/** Long enough that every stored setting the router uses has been read again since now. */
const pastOneRefresh = () => new Promise((resolve) => setTimeout(resolve, REFRESH_MS + 300));

describe('settings stored at the vendor (e2e, simulated vendors)', () => {
  it('has a short re-read interval in this stack', () => {
    expect(REFRESH_MS).toBeGreaterThan(0);
    expect(REFRESH_MS).toBeLessThanOrEqual(2000);
  });

  describe('vendor_c', () => {
    let voice: string;

    beforeAll(async () => {
      const res = await fetch(`${stack.simUrl}/vendor_c/v1/voices`, {
        headers: { 'vendor_c-api-key': 'any' },
      });
      const { voices } = (await res.json()) as { voices: { voice_id: string; category: string }[] };
      voice = voices.find((v) => v.category === 'premade')!.voice_id;
    });

    const body = (input: string, extra: Record<string, unknown> = {}) => ({
      model: 'vendor_c/c_model_3',
      voice,
      input,
      response_format: 'pcm',
      sample_rate: 16000,
      ...extra,
    });

    it("synthesizes a sentence afresh once the voice's stored settings change at the vendor", async () => {
      const org = await orgWithVendorKey('stored-c-voice', 'vendor_c');
      const calls = () => sim.callCount('vendor_c', { key: org.vendorKey });
      const input = `The stored settings decide this one ${randomUUID().slice(0, 8)}.`;

      const first = await speak(org.key, body(input));
      expect(await calls()).toBe(1);
      expect(await sim.readCount('vendor_c', { key: org.vendorKey, what: 'voice-settings' })).toBeGreaterThan(
        0,
      );
      // Before any change: the same sentence is a hit.
      expect((await speak(org.key, body(input))).equals(first)).toBe(true);
      expect(await calls()).toBe(1);

      await sim.setVendorCVoiceSettings(org.vendorKey, voice, { stability: 0.2, speed: 1.15 });
      await pastOneRefresh();
      const fresh = await speak(org.key, body(input));
      expect(await calls()).toBe(2);
      // The vendor spoke it with the stored speed: a shorter take.
      expect(fresh.length).toBeLessThan(first.length);
      // And the new take is cached in turn.
      expect((await speak(org.key, body(input))).equals(fresh)).toBe(true);
      expect(await calls()).toBe(2);
    });

    it('does not depend on stored settings when voice_settings are given', async () => {
      const org = await orgWithVendorKey('stored-c-explicit', 'vendor_c');
      const input = `Explicit settings are kept ${randomUUID().slice(0, 8)}.`;
      const explicit = { voice_settings: { stability: 0.4, similarity_boost: 0.6 } };
      await speak(org.key, body(input, explicit));
      await sim.setVendorCVoiceSettings(org.vendorKey, voice, { stability: 0.9 });
      await pastOneRefresh();
      await speak(org.key, body(input, explicit));
      expect(await sim.callCount('vendor_c', { key: org.vendorKey })).toBe(1);
      expect(await sim.readCount('vendor_c', { key: org.vendorKey, what: 'voice-settings' })).toBe(0);
    });

    it('synthesizes afresh after a new version of a dictionary named without a version', async () => {
      const org = await orgWithVendorKey('stored-c-dictionary', 'vendor_c');
      const calls = () => sim.callCount('vendor_c', { key: org.vendorKey });
      const dictionary = `dict-${randomUUID().slice(0, 8)}`;
      const input = `A dictionary shapes this sentence ${randomUUID().slice(0, 8)}.`;
      const settings = {
        voice_settings: { stability: 0.5, similarity_boost: 0.75 },
        pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: dictionary }],
      };
      await speak(org.key, body(input, settings));
      await speak(org.key, body(input, settings));
      expect(await calls()).toBe(1);
      expect(await sim.readCount('vendor_c', { key: org.vendorKey, what: 'dictionary' })).toBeGreaterThan(0);

      await sim.addVendorCDictionaryVersion(org.vendorKey, dictionary);
      await pastOneRefresh();
      await speak(org.key, body(input, settings));
      expect(await calls()).toBe(2);
      await speak(org.key, body(input, settings));
      expect(await calls()).toBe(2);
    });

    it('keys a versioned dictionary by its version, without reading it', async () => {
      const org = await orgWithVendorKey('stored-c-versioned', 'vendor_c');
      const input = `A pinned dictionary version ${randomUUID().slice(0, 8)}.`;
      const settings = {
        voice_settings: { stability: 0.5, similarity_boost: 0.75 },
        pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: 'dict-pinned', version_id: 'v1' }],
      };
      await speak(org.key, body(input, settings));
      await speak(org.key, body(input, settings));
      expect(await sim.callCount('vendor_c', { key: org.vendorKey })).toBe(1);
      expect(await sim.readCount('vendor_c', { key: org.vendorKey, what: 'dictionary' })).toBe(0);
    });
  });

  describe('vendor_a', () => {
    it('plays a dict_id used for the first time without caching it, and caches by its name once read', async () => {
      const org = await orgWithVendorKey('stored-a-dict', 'vendor_a');
      const calls = () => sim.callCount('vendor_a', { key: org.vendorKey });
      const body = {
        model: 'vendor_a/a_model_1',
        voice: 'aarila',
        language: 'en-IN',
        response_format: 'pcm',
        dict_id: `dict-${randomUUID().slice(0, 8)}`,
        input: `A dictionary used for the first time ${randomUUID().slice(0, 8)}.`,
      };
      await speak(org.key, body);
      expect(await calls()).toBe(1);
      // Played, not cached: the same sentence goes to the vendor again.
      await speak(org.key, body);
      expect(await calls()).toBe(2);
      await eventually(
        'the router read the dictionary',
        async () => (await sim.readCount('vendor_a', { key: org.vendorKey, what: 'dictionary' })) > 0,
      );
      // Once read, a take is cached (the first take after the read goes to the vendor), then replayed.
      await eventually('a piece with the dictionary comes from the cache', async () => {
        const before = await calls();
        await speak(org.key, body);
        return (await calls()) === before;
      });
      const settled = await calls();
      // Once read whole, the dictionary is never read again (a read that timed out under load was retried).
      const reads = await sim.readCount('vendor_a', { key: org.vendorKey, what: 'dictionary' });
      await speak(org.key, body);
      expect(await calls()).toBe(settled);
      // Keyed by the dictionary's name: a change of its entries does not make new takes.
      await sim.setVendorADictionary(org.vendorKey, body.dict_id, [
        { word: 'first', pronunciation: 'fɜːst' },
      ]);
      await pastOneRefresh();
      await speak(org.key, body);
      expect(await calls()).toBe(settled);
      expect(await sim.readCount('vendor_a', { key: org.vendorKey, what: 'dictionary' })).toBe(reads);
    });

    it('reads nothing and caches at once without a dict_id', async () => {
      const org = await orgWithVendorKey('stored-a-plain', 'vendor_a');
      const body = {
        model: 'vendor_a/a_model_1',
        voice: 'aarila',
        language: 'en-IN',
        response_format: 'pcm',
        input: `No dictionary here ${randomUUID().slice(0, 8)}.`,
      };
      await speak(org.key, body);
      await speak(org.key, body);
      expect(await sim.callCount('vendor_a', { key: org.vendorKey })).toBe(1);
      expect(await sim.readCount('vendor_a', { key: org.vendorKey })).toBe(0);
    });
  });
});
