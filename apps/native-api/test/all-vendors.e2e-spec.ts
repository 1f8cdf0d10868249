import { randomUUID } from 'node:crypto';
import { call, createOrgWithKey, readE2eStack } from '@router/testing';
import { SimControl } from '@router/vendor-sim';
import { vendorSettings } from './vendor-settings.fixture';

const stack = readE2eStack();
const gw = stack.gatewayUrl;
const sim = new SimControl(stack.simUrl);
const SETTINGS = vendorSettings(stack);

describe('POST /v1/audio/speech for all ten vendors (e2e, simulated vendors)', () => {
  it.each(Object.keys(SETTINGS))(
    '%s: a reply streams from the vendor, then wholly from the cache, byte for byte',
    async (vendor) => {
      const org = createOrgWithKey(stack.adminUrl, `all-${vendor}`);
      const vendorKey = `vk-${vendor}-${randomUUID()}`;
      expect(
        (await call(gw, 'PUT', `/v1/provider-keys/${vendor}`, { key: org.key, body: { api_key: vendorKey } }))
          .status,
      ).toBe(200);
      const body = {
        ...(await SETTINGS[vendor](vendorKey)),
        input: `First words for ${vendor}. And the second sentence ${randomUUID().slice(0, 6)}.`,
      };
      const speak = async () => {
        const res = await fetch(`${gw}/v1/audio/speech`, {
          method: 'POST',
          headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const audio = Buffer.from(await res.arrayBuffer());
        return { status: res.status, type: res.headers.get('content-type'), audio };
      };
      const first = await speak();
      expect([vendor, first.status, first.type]).toEqual([vendor, 200, 'audio/pcm']);
      expect(first.audio.length).toBeGreaterThan(1000);
      const calls = await sim.callCount(vendor, { key: vendorKey });
      expect(calls).toBe(2);
      const second = await speak();
      expect(second.audio.equals(first.audio)).toBe(true);
      expect(await sim.callCount(vendor, { key: vendorKey })).toBe(calls);
    },
  );
});
