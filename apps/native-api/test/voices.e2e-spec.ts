import { randomUUID } from 'node:crypto';
import { call, createOrgWithKey, eventually, readE2eStack } from '@router/testing';
import { SimControl } from '@router/vendor-sim';

const stack = readE2eStack();
const gw = stack.gatewayUrl;
const sim = new SimControl(stack.simUrl);
const at = (vendor: string, path: string) => `${stack.simUrl}/${vendor}${path}`;

const LISTED = ['vendor_a', 'vendor_b', 'vendor_c', 'vendor_d', 'vendor_e', 'vendor_f', 'vendor_g'] as const;
type Listed = (typeof LISTED)[number];

/** The spec's Voice table, field for field. */
const VOICE_FIELDS = [
  'accent',
  'age',
  'category',
  'description',
  'gender',
  'id',
  'languages',
  'models',
  'name',
  'preview_url',
  'provider',
  'provider_data',
].sort();

/** Spec: "Categories" and "Previews" per vendor. */
const TABLE: Record<Listed, { categories: string[]; previews: boolean; catalogue: boolean }> = {
  vendor_a: { categories: ['builtin'], previews: false, catalogue: true },
  vendor_b: { categories: ['builtin'], previews: false, catalogue: false },
  vendor_c: { categories: ['builtin', 'cloned', 'custom', 'library'], previews: true, catalogue: false },
  vendor_d: { categories: ['builtin'], previews: false, catalogue: true },
  vendor_e: { categories: ['builtin'], previews: true, catalogue: false },
  vendor_f: { categories: ['builtin', 'cloned'], previews: false, catalogue: false },
  vendor_g: { categories: ['builtin', 'cloned'], previews: false, catalogue: false },
};

interface Voice {
  id: string;
  name: string;
  provider: string;
  models: string[];
  languages: string[];
  gender: string | null;
  accent: string | null;
  age: string | null;
  description: string | null;
  preview_url: string | null;
  category: string;
  provider_data: Record<string, any> | null;
}

interface Org {
  key: string;
  vendorKeys: Partial<Record<Listed, string>>;
}

/** A new org with a stored key for each of `vendors` (`bad-…` keys are wrong at the simulated vendors). */
async function orgWithKeys(name: string, vendors: readonly Listed[], prefix = 'vk'): Promise<Org> {
  const org = createOrgWithKey(stack.adminUrl, name);
  const vendorKeys: Org['vendorKeys'] = {};
  for (const vendor of vendors) {
    const vendorKey = `${prefix}-${name}-${vendor}-${randomUUID()}`;
    const put = await call(gw, 'PUT', `/v1/provider-keys/${vendor}`, {
      key: org.key,
      body: { api_key: vendorKey },
    });
    expect(put.status).toBe(200);
    vendorKeys[vendor] = vendorKey;
  }
  return { key: org.key, vendorKeys };
}

async function voicesOf(org: Org, query: string): Promise<{ status: number; body: any }> {
  const res = await call(gw, 'GET', `/v1/voices${query}`, { key: org.key });
  return { status: res.status, body: res.body };
}

async function listed(org: Org, query: string): Promise<Voice[]> {
  const res = await voicesOf(org, query);
  expect([query, res.status]).toEqual([query, 200]);
  return res.body.voices as Voice[];
}

async function simJson(url: string, headers: Record<string, string>): Promise<any> {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  return res.json();
}

describe('GET /v1/voices (e2e, simulated vendors)', () => {
  let org: Org;

  beforeAll(async () => {
    org = await orgWithKeys('voices', LISTED);
  });

  describe.each(LISTED)('%s', (vendor) => {
    it('lists voices with exactly the fields of the Voice table, of its categories, with previews where it has them', async () => {
      const voices = await listed(org, `?provider=${vendor}`);
      expect(voices.length).toBeGreaterThan(0);
      const row = TABLE[vendor];
      for (const voice of voices) {
        expect(Object.keys(voice).sort()).toEqual(VOICE_FIELDS);
        expect(voice.provider).toBe(vendor);
        expect(voice.models.length).toBeGreaterThan(0);
        expect(row.categories).toContain(voice.category);
        expect(voice.preview_url === null).toBe(!row.previews);
        expect(voice.provider_data === null).toBe(row.catalogue);
        if (voice.gender !== null) expect(['male', 'female', 'neutral']).toContain(voice.gender);
      }
      expect(new Set(voices.map((v) => v.category))).toEqual(new Set(row.categories));
      // One entry per voice.
      expect(new Set(voices.map((v) => v.id)).size).toBe(voices.length);
    });

    it('restricts to the voices a model takes', async () => {
      const models: { id: string }[] = (await call(gw, 'GET', '/v1/models')).body.providers.find(
        (p: { id: string }) => p.id === vendor,
      ).models;
      const all = await listed(org, `?provider=${vendor}`);
      let total = 0;
      for (const { id } of models) {
        const some = await listed(org, `?provider=${vendor}&model=${id}`);
        expect(some.every((v) => v.models.includes(id))).toBe(true);
        expect(some.map((v) => v.id)).toEqual(all.filter((v) => v.models.includes(id)).map((v) => v.id));
        total += some.length;
      }
      expect(total).toBeGreaterThanOrEqual(all.length);
    });

    it('refuses an org without a stored key for the vendor with provider_key_missing', async () => {
      const keyless = await orgWithKeys(`voices-keyless-${vendor}`, []);
      const res = await voicesOf(keyless, `?provider=${vendor}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'provider_key_missing', retryable: false });
      expect(res.body.error.message).toContain(vendor);
    });
  });

  describe('bad_request', () => {
    it.each([
      ['', 'provider'],
      ['?model=a_model_1', 'provider'],
      ['?provider=vendor_h', 'provider'],
      ['?provider=vendor_i', 'provider'],
      ['?provider=vendor_j', 'provider'],
      ['?provider=vendor_x', 'provider'],
      ['?provider=vendor_a&provider=vendor_b', 'provider'],
      ['?provider=vendor_a&model=b_model_1', 'model'],
      ['?provider=vendor_a&model=vendor_a/a_model_1', 'model'],
      ['?provider=vendor_c&model=', 'model'],
      ['?provider=vendor_c&language=en', 'language'],
      ['?provider=vendor_c&page_size=10', 'page_size'],
    ])('%s names %s', async (query, parameter) => {
      const res = await voicesOf(org, query);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', retryable: false });
      expect(res.body.error.message).toContain(parameter);
    });
  });

  it('is described in the OpenAPI document: its query parameters and the Voice schema', async () => {
    const doc = (await call(gw, 'GET', '/openapi.json')).body;
    const get = doc.paths['/v1/voices'].get;
    expect(
      get.parameters.map((p: { name: string; in: string; required: boolean }) => [p.name, p.in, p.required]),
    ).toEqual([
      ['provider', 'query', true],
      ['model', 'query', false],
    ]);
    expect(get.parameters[0].schema.enum).toEqual([...LISTED]);
    expect(Object.keys(doc.components.schemas.VoiceDto.properties).sort()).toEqual(VOICE_FIELDS);
    expect(doc.components.schemas.VoiceDto.properties.category.enum).toEqual([
      'builtin',
      'cloned',
      'custom',
      'library',
    ]);
  });

  it('needs a router key', async () => {
    expect((await call(gw, 'GET', '/v1/voices?provider=vendor_a')).status).toBe(401);
  });

  describe('vendor_a and vendor_d come from the router catalogue', () => {
    it('vendor_a: 37 speakers of a_model_1 with gender and the personas of a_model_2 with their language', async () => {
      const speakers = await listed(org, '?provider=vendor_a&model=a_model_1');
      expect(speakers).toHaveLength(37);
      expect(speakers.every((v) => v.gender !== null && v.languages.length === 11)).toBe(true);
      const personas = await listed(org, '?provider=vendor_a&model=a_model_2');
      expect(personas.length).toBeGreaterThan(0);
      expect(personas.every((v) => v.languages.length === 1)).toBe(true);
      const catalogue = (await call(gw, 'GET', '/v1/models')).body.providers[0].models[0].voices;
      expect(speakers.map((v) => v.id)).toEqual(catalogue);
    });

    it('vendor_d: the catalogue voices, for every model', async () => {
      const voices = await listed(org, '?provider=vendor_d');
      expect(voices).toHaveLength(13);
      expect(voices.every((v) => v.models.length === 4 && v.languages.length === 0)).toBe(true);
    });
  });

  describe('vendor_b', () => {
    it('lists each voice with its one model and the vendor object as received, leaving out an unlaunched model', async () => {
      const voices = await listed(org, '?provider=vendor_b');
      const raw = await simJson(at('vendor_b', '/v1/voices'), { 'x-api-key': org.vendorKeys.vendor_b! });
      const speakable = raw.voices.filter((v: { model: string }) => v.model !== 'b_model_3');
      expect(speakable.length).toBeLessThan(raw.voices.length);
      expect(voices.map((v) => v.provider_data)).toEqual(speakable);
      expect(voices.every((v) => v.models.length === 1)).toBe(true);
    });
  });

  describe('vendor_c', () => {
    it("reads every page of the org's account, live each time", async () => {
      const key = org.vendorKeys.vendor_c!;
      const before = await sim.readCount('vendor_c', { key, what: 'voices' });
      const first = await listed(org, '?provider=vendor_c');
      const pages = (await sim.readCount('vendor_c', { key, what: 'voices' })) - before;
      expect(pages).toBeGreaterThanOrEqual(2);
      expect(first.length).toBeGreaterThan(100);
      await listed(org, '?provider=vendor_c');
      expect(await sim.readCount('vendor_c', { key, what: 'voices' })).toBe(before + 2 * pages);
    });

    it('shows a voice added at the vendor at once (nothing cached), as library, with its object as received', async () => {
      const key = org.vendorKeys.vendor_c!;
      const shared = await simJson(at('vendor_c', '/v1/shared-voices?page_size=1'), {
        'vendor_c-api-key': key,
      });
      const pick = shared.voices[0];
      const added = await fetch(at('vendor_c', `/v1/voices/add/${pick.public_owner_id}/${pick.voice_id}`), {
        method: 'POST',
        headers: { 'vendor_c-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ new_name: 'Added just now' }),
      });
      const { voice_id } = (await added.json()) as { voice_id: string };
      const voice = (await listed(org, '?provider=vendor_c')).find((v) => v.id === voice_id);
      expect(voice).toMatchObject({ name: 'Added just now', category: 'library' });
      const vendorObject = await simJson(at('vendor_c', `/v1/voices/${voice_id}`), {
        'vendor_c-api-key': key,
      });
      expect(voice?.provider_data).toEqual(vendorObject);
      expect(voice?.models).toHaveLength(9);
      expect(voice?.languages[0]).toBe(vendorObject.labels.language);
    });

    it('leaves out a professional clone still in training', async () => {
      const raw = await simJson(at('vendor_c', '/v1/voices'), {
        'vendor_c-api-key': org.vendorKeys.vendor_c!,
      });
      const training = raw.voices.find((v: { name: string }) => v.name === 'Studio Voice In Training');
      expect(training).toBeDefined();
      const ids = (await listed(org, '?provider=vendor_c')).map((v) => v.id);
      expect(ids).not.toContain(training.voice_id);
    });

    it('refuses a wrong stored key as provider_rejected with the vendor status', async () => {
      const wrong = await orgWithKeys('voices-wrong-c', ['vendor_c'], 'bad');
      const res = await voicesOf(wrong, '?provider=vendor_c');
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'provider_rejected',
        provider_status: 400,
        retryable: false,
      });
    });
  });

  describe('vendor_e', () => {
    it('names a voice by the vendor name with the model id removed, with a preview, leaving out unknown models', async () => {
      const voices = await listed(org, '?provider=vendor_e');
      const raw = await simJson(at('vendor_e', '/v1/models'), {});
      const outdated = raw.tts.filter((m: { architecture: string }) => m.architecture === 'e_model_0');
      expect(outdated.length).toBeGreaterThan(0);
      const orla = voices.find((v) => v.id === 'orla-en');
      expect(orla?.models).toEqual(['e_model_1', 'e_model_2', 'e_model_3']);
      for (const voice of voices) {
        for (const model of voice.models) expect(voice.id).not.toContain(model);
        expect(voice.provider_data?.canonical_name).toBe(`${voice.provider_data?.architecture}-${voice.id}`);
      }
      expect(voices.map((v) => v.id)).not.toContain('vesper-en');
    });

    it('lists with a wrong stored key (the model lists are public), which is refused when speaking', async () => {
      const wrong = await orgWithKeys('voices-wrong-e', ['vendor_e'], 'bad');
      const voices = await listed(wrong, '?provider=vendor_e&model=e_model_1');
      expect(voices.length).toBeGreaterThan(0);
      const speech = await call(gw, 'POST', '/v1/audio/speech', {
        key: wrong.key,
        body: {
          model: 'vendor_e/e_model_1',
          voice: voices[0].id,
          input: `Hello ${randomUUID().slice(0, 6)}.`,
          response_format: 'pcm',
        },
      });
      expect(speech.status).toBe(400);
      expect(speech.body.error).toMatchObject({ code: 'provider_rejected', provider_status: 401 });
    });
  });

  describe('vendor_f', () => {
    it("lists the vendor's voices and the org's custom voices as cloned", async () => {
      const voices = await listed(org, '?provider=vendor_f');
      const raw = await simJson(at('vendor_f', '/v1/tts/voices'), {
        authorization: `Bearer ${org.vendorKeys.vendor_f!}`,
      });
      expect(voices.map((v) => v.provider_data)).toEqual(raw.voices);
      expect(voices.filter((v) => v.category === 'cloned').map((v) => v.id)).toEqual(
        raw.voices
          .filter((v: { type: string }) => v.type === 'custom')
          .map((v: { voice_id: string }) => v.voice_id),
      );
    });
  });

  describe('vendor_g', () => {
    it('reads every page of cloned voices and lists a clone only with the models it is ready for', async () => {
      const key = org.vendorKeys.vendor_g!;
      const before = await sim.readCount('vendor_g', { key, what: 'voices' });
      const voices = await listed(org, '?provider=vendor_g');
      expect((await sim.readCount('vendor_g', { key, what: 'voices' })) - before).toBeGreaterThanOrEqual(2);
      let cursor: string | null = null;
      const clones: { id: string; name: string; models: { model: string; status: string }[] }[] = [];
      do {
        const page: any = await simJson(
          at('vendor_g', `/v1/voices?limit=100${cursor ? `&cursor=${cursor}` : ''}`),
          {
            authorization: `Bearer ${key}`,
          },
        );
        clones.push(...page.voices);
        cursor = page.next_page_cursor;
      } while (cursor);
      const catalogueModels = ['g_model_1', 'g_model_2', 'g_model_3'];
      const expected = clones
        .map((c) => ({
          id: c.id,
          models: c.models
            .filter((m) => m.status === 'ready' && catalogueModels.includes(m.model))
            .map((m) => m.model),
        }))
        .filter((c) => c.models.length > 0);
      const cloned = voices.filter((v) => v.category === 'cloned');
      expect(cloned.map((v) => ({ id: v.id, models: v.models }))).toEqual(expected);
      expect(expected.length).toBeLessThan(clones.length);
      // The beta model's own voice is not listed.
      expect(voices.map((v) => v.id)).not.toContain('Zephyr');
    });

    it('lists voices the router can speak with', async () => {
      const clone = (await listed(org, '?provider=vendor_g&model=g_model_3')).find(
        (v) => v.category === 'cloned',
      )!;
      const res = await fetch(`${gw}/v1/audio/speech`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'vendor_g/g_model_3',
          voice: clone.id,
          language: 'en',
          input: `A cloned voice speaks ${randomUUID().slice(0, 6)}.`,
          response_format: 'pcm',
        }),
      });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    });
  });

  it('stops listing for a vendor within seconds of its key being deleted', async () => {
    const temporary = await orgWithKeys('voices-deleted', ['vendor_f']);
    expect((await voicesOf(temporary, '?provider=vendor_f')).status).toBe(200);
    expect((await call(gw, 'DELETE', '/v1/provider-keys/vendor_f', { key: temporary.key })).status).toBe(204);
    await eventually('provider_key_missing after delete', async () => {
      const res = await voicesOf(temporary, '?provider=vendor_f');
      return res.status === 400 && res.body.error.code === 'provider_key_missing';
    });
  });
});
