import { randomUUID } from 'node:crypto';
import type { ProviderId, SpeechRequest } from '@router/client';
import { createOrgClient, readE2eStack, vendorSettings } from '@router/testing';
import { SimControl } from '@router/vendor-sim';

const stack = readE2eStack();
const sim = new SimControl(stack.simUrl);
const SETTINGS = vendorSettings(stack);

describe('POST /v1/audio/speech for all ten vendors (e2e, simulated vendors)', () => {
  it.each(Object.keys(SETTINGS) as ProviderId[])(
    '%s: a reply streams from the vendor, then wholly from the cache, byte for byte',
    async (vendor) => {
      const { client } = createOrgClient(stack, `all-${vendor}`);
      const vendorKey = `vk-${vendor}-${randomUUID()}`;
      expect((await client.providerKeys.put(vendor, vendorKey)).provider).toBe(vendor);
      const body: SpeechRequest = {
        ...(await SETTINGS[vendor](vendorKey)),
        input: `First words for ${vendor}. And the second sentence ${randomUUID().slice(0, 6)}.`,
      };
      const speak = async () => {
        const audio = await client.speech(body);
        return { type: audio.contentType, audio: Buffer.from(await audio.bytes()) };
      };
      const first = await speak();
      expect([vendor, first.type]).toEqual([vendor, 'audio/pcm']);
      expect(first.audio.length).toBeGreaterThan(1000);
      const calls = await sim.callCount(vendor, { key: vendorKey });
      expect(calls).toBe(2);
      const second = await speak();
      expect(second.audio.equals(first.audio)).toBe(true);
      expect(await sim.callCount(vendor, { key: vendorKey })).toBe(calls);
    },
  );
});
