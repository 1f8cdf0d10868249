import { RouterError } from '@router/contracts';
import { VendorAAdapter } from '@router/vendor-a';
import { VendorBAdapter } from '@router/vendor-b';
import { VendorCAdapter } from '@router/vendor-c';
import { VendorDAdapter } from '@router/vendor-d';
import { VendorEAdapter } from '@router/vendor-e';
import { VendorFAdapter } from '@router/vendor-f';
import { VendorGAdapter } from '@router/vendor-g';
import type { HttpVendorAdapter, Voice, VoiceListRequest } from '@router/vendors-core';
import { useSharedSim } from './adapter-harness';

const KEY = 'voices-org-key';

type Lister = HttpVendorAdapter & { listVoices(request: VoiceListRequest): Promise<Voice[]> };

describe('listVoices of vendor_a … vendor_g against the simulated vendors', () => {
  const t = useSharedSim();
  const proxied = <A extends Lister>(make: (o: { baseUrl: string }) => A, vendor: string): A =>
    t.adopt(make({ baseUrl: t.proxy.base(vendor) }));
  const list = (adapter: Lister, extra: { key?: string; model?: string; signal?: AbortSignal } = {}) =>
    adapter.listVoices({
      apiKey: extra.key ?? KEY,
      signal: extra.signal ?? new AbortController().signal,
      ...(extra.model !== undefined ? { model: extra.model } : {}),
    });
  /** The GETs that reached the vendor, by path without the query. */
  const reads = (): string[] => t.proxy.requests.map((r) => `${r.method} ${r.path.replace(/\?.*$/, '')}`);
  const raw = async <T>(vendor: string, path: string, headers: Record<string, string>): Promise<T> =>
    (await (await fetch(`${t.base(vendor)}${path}`, { headers })).json()) as T;

  it.each([
    ['vendor_a', (o: { baseUrl: string }) => new VendorAAdapter(o), 48],
    ['vendor_d', (o: { baseUrl: string }) => new VendorDAdapter(o), 13],
  ])('%s lists its catalogue voices without a vendor call', async (vendor, make, count) => {
    const voices = await list(proxied(make, vendor));
    expect(voices).toHaveLength(count);
    expect(voices.every((v) => v.provider === vendor && v.provider_data === null)).toBe(true);
    expect(reads()).toEqual([]);
  });

  describe('vendor_b', () => {
    it('reads the one list with the key and keeps only voices of catalogue models', async () => {
      const adapter = proxied((o) => new VendorBAdapter(o), 'vendor_b');
      const voices = await list(adapter);
      expect(reads()).toEqual(['GET /v1/voices']);
      expect(t.proxy.last().headers['x-api-key']).toBe(KEY);
      const listed = await raw<{ voices: { voice_id: string; model: string }[] }>('vendor_b', '/v1/voices', {
        'x-api-key': KEY,
      });
      const speakable = listed.voices.filter((v) => v.model !== 'b_model_3');
      expect(speakable.length).toBeLessThan(listed.voices.length);
      expect(voices.map((v) => v.id)).toEqual(speakable.map((v) => v.voice_id));
      expect(voices.every((v) => v.models.length === 1 && v.category === 'builtin')).toBe(true);
      expect(voices.map((v) => v.provider_data)).toEqual(speakable);
      expect((await list(adapter, { model: 'b_model_2' })).every((v) => v.models[0] === 'b_model_2')).toBe(
        true,
      );
    });

    it('maps a wrong key to provider_rejected with the vendor status', async () => {
      const error = await list(
        proxied((o) => new VendorBAdapter(o), 'vendor_b'),
        { key: 'bad-key' },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RouterError);
      expect(error).toMatchObject({ code: 'provider_rejected', providerStatus: 401 });
    });
  });

  describe('vendor_c', () => {
    it('reads every page of the account and lists every kind of voice with previews', async () => {
      const voices = await list(proxied((o) => new VendorCAdapter(o), 'vendor_c'));
      // More voices than the largest page: the list really crossed pages.
      expect(reads()).toEqual(['GET /v2/voices', 'GET /v2/voices']);
      expect(t.proxy.requests[1]?.path).toContain('next_page_token=');
      expect(await t.control.readCount('vendor_c', { key: KEY, what: 'voices' })).toBe(2);
      const all = await raw<{ voices: { voice_id: string; name: string }[] }>('vendor_c', '/v1/voices', {
        'vendor_c-api-key': KEY,
      });
      const training = all.voices.find((v) => v.name === 'Studio Voice In Training');
      expect(training).toBeDefined();
      expect(voices.length).toBeGreaterThan(100);
      expect(new Set(voices.map((v) => v.id))).toEqual(
        new Set(all.voices.filter((v) => v !== training).map((v) => v.voice_id)),
      );
      expect(new Set(voices.map((v) => v.category))).toEqual(
        new Set(['builtin', 'cloned', 'custom', 'library']),
      );
      expect(voices.every((v) => v.preview_url?.startsWith('https://') === true)).toBe(true);
      expect(voices.every((v) => v.models.length === 9 && v.languages.length > 0)).toBe(true);
    });

    it('maps a wrong key to provider_rejected with the vendor status', async () => {
      await expect(
        list(
          proxied((o) => new VendorCAdapter(o), 'vendor_c'),
          { key: 'bad-key' },
        ),
      ).rejects.toMatchObject({
        code: 'provider_rejected',
        providerStatus: 400,
      });
    });

    it('stops reading when its signal is aborted', async () => {
      const abort = new AbortController();
      const reason = new Error('client gone');
      abort.abort(reason);
      await expect(
        list(
          proxied((o) => new VendorCAdapter(o), 'vendor_c'),
          { signal: abort.signal },
        ),
      ).rejects.toBe(reason);
      expect(reads()).toEqual([]);
    });
  });

  describe('vendor_e', () => {
    it('lists from the public model lists even with a wrong key, sending no key', async () => {
      const voices = await list(
        proxied((o) => new VendorEAdapter(o), 'vendor_e'),
        { key: 'bad-key' },
      );
      expect(reads().sort()).toEqual(['GET /v1/models', 'GET /v2/models']);
      expect(t.proxy.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
      const ids = voices.map((v) => v.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toContain('orla-en');
      expect(ids).not.toContain('vesper-en'); // only on e_model_0, which the catalogue lacks
      expect(voices.find((v) => v.id === 'orla-en')?.models).toEqual(['e_model_1', 'e_model_2', 'e_model_3']);
      expect(voices.every((v) => v.preview_url !== null && v.category === 'builtin')).toBe(true);
    });

    it("reads only the asked model's list", async () => {
      const voices = await list(
        proxied((o) => new VendorEAdapter(o), 'vendor_e'),
        { model: 'e_model_3' },
      );
      expect(reads()).toEqual(['GET /v2/models']);
      expect(voices.map((v) => v.id).sort()).toEqual(['orla-en', 'thatcher-en', 'wren-en']);
      expect(voices.find((v) => v.id === 'orla-en')?.preview_url).toContain('e_model_3-orla-en');
    });
  });

  describe('vendor_f', () => {
    it("lists the built-in voices and the account's custom voices as cloned", async () => {
      const voices = await list(proxied((o) => new VendorFAdapter(o), 'vendor_f'));
      expect(reads()).toEqual(['GET /v1/tts/voices']);
      expect(t.proxy.last().headers.authorization).toBe(`Bearer ${KEY}`);
      expect(voices.filter((v) => v.category === 'builtin')).toHaveLength(5);
      expect(voices.filter((v) => v.category === 'cloned')).toHaveLength(2);
      const other = await list(
        proxied((o) => new VendorFAdapter(o), 'vendor_f'),
        { key: 'another-account' },
      );
      expect(other.filter((v) => v.category === 'cloned').map((v) => v.id)).not.toEqual(
        voices.filter((v) => v.category === 'cloned').map((v) => v.id),
      );
    });
  });

  describe('vendor_g', () => {
    it('joins the built-in voices and every page of ready clones, leaving out the beta model', async () => {
      const voices = await list(proxied((o) => new VendorGAdapter(o), 'vendor_g'));
      expect(reads().sort()).toEqual(['GET /v1/tts-models', 'GET /v1/voices', 'GET /v1/voices']);
      expect(await t.control.readCount('vendor_g', { key: KEY, what: 'voices' })).toBe(2);
      const ids = voices.map((v) => v.id);
      expect(ids).toEqual(expect.arrayContaining(['Maren', 'Vesna']));
      expect(ids).not.toContain('Zephyr');
      const byName = (name: string) => voices.find((v) => v.name === name);
      expect(byName('Studio Clone')).toMatchObject({
        category: 'cloned',
        models: ['g_model_1', 'g_model_2', 'g_model_3'],
      });
      expect(byName('Field Clone')?.models).toEqual(['g_model_3']);
      for (const absent of ['Pending Clone', 'Broken Clone', 'Beta Clone'])
        expect(byName(absent)).toBeUndefined();
      // Clones from the second page are there too.
      expect(byName('Project Clone 100')).toBeDefined();
      expect(voices.filter((v) => v.category === 'cloned').length).toBeGreaterThan(70);
    });

    it('filters by model', async () => {
      const voices = await list(
        proxied((o) => new VendorGAdapter(o), 'vendor_g'),
        { model: 'g_model_2' },
      );
      expect(voices.every((v) => v.models.includes('g_model_2'))).toBe(true);
      expect(voices.map((v) => v.id)).not.toContain('Vesna');
      expect(voices.find((v) => v.name === 'Field Clone')).toBeUndefined();
    });
  });
});
