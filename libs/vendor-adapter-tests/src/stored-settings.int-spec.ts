import { VendorAAdapter } from '@router/vendor-a';
import { VendorCAdapter } from '@router/vendor-c';
import { useSharedSim } from './adapter-harness';

const KEY = 'stored-org-key';

describe('stored settings read from the simulated vendors', () => {
  const t = useSharedSim();
  let vendorC: VendorCAdapter;
  let vendorA: VendorAAdapter;
  let voice: string;
  const call = (key = KEY) => ({ apiKey: key, signal: new AbortController().signal });

  beforeAll(async () => {
    vendorC = t.adopt(new VendorCAdapter({ baseUrl: t.proxy.base('vendor_c') }));
    vendorA = t.adopt(new VendorAAdapter({ baseUrl: t.proxy.base('vendor_a') }));
    const listed = await fetch(`${t.base('vendor_c')}/v1/voices`, { headers: { 'vendor_c-api-key': KEY } });
    voice = ((await listed.json()) as { voices: { voice_id: string }[] }).voices[0]?.voice_id ?? '';
  });

  it("vendor_c: reads a voice's stored settings with the org's key, and sees a change", async () => {
    const reference = { name: `voice-settings/${voice}`, kind: 'fingerprint' as const };
    const before = await vendorC.storedSettings.read(reference, call());
    expect(before).toMatchObject({ stability: 0.5, similarity_boost: 0.75 });
    expect(t.proxy.last()).toMatchObject({ method: 'GET', path: `/v1/voices/${voice}/settings` });
    expect(t.proxy.last().headers['vendor_c-api-key']).toBe(KEY);
    await t.control.setVendorCVoiceSettings(KEY, voice, { stability: 0.9 });
    expect(await vendorC.storedSettings.read(reference, call())).toMatchObject({ stability: 0.9 });
  });

  it('vendor_c: reads an unversioned dictionary as its latest version', async () => {
    const reference = { name: 'dictionary/dict-1', kind: 'fingerprint' as const };
    const first = await vendorC.storedSettings.read(reference, call());
    expect(first).toEqual({ latest_version_id: expect.any(String) });
    const version = await t.control.addVendorCDictionaryVersion(KEY, 'dict-1');
    expect(await vendorC.storedSettings.read(reference, call())).toEqual({ latest_version_id: version });
  });

  it('vendor_c: a wrong key or an unknown dictionary is provider_rejected with the vendor status', async () => {
    await expect(
      vendorC.storedSettings.read({ name: 'dictionary/unknown-1', kind: 'fingerprint' }, call()),
    ).rejects.toMatchObject({ code: 'provider_rejected', providerStatus: 404 });
    await expect(
      vendorC.storedSettings.read({ name: `voice-settings/${voice}`, kind: 'fingerprint' }, call('bad-key')),
    ).rejects.toMatchObject({ code: 'provider_rejected', providerStatus: 400 });
  });

  it('vendor_a: reads a dictionary by its id; one the vendor does not know is refused', async () => {
    const read = await vendorA.storedSettings.read(
      { name: 'dictionary/my-dict', kind: 'first-read' },
      call(),
    );
    expect(read).toMatchObject({ dict_id: 'my-dict' });
    expect(t.proxy.last().headers['api-subscription-key']).toBe(KEY);
    expect(await t.control.readCount('vendor_a', { key: KEY, what: 'dictionary' })).toBe(1);
    await expect(
      vendorA.storedSettings.read({ name: 'dictionary/unknown-dict', kind: 'first-read' }, call()),
    ).rejects.toMatchObject({ code: 'provider_rejected', providerStatus: 404 });
  });
});
