import { randomUUID } from 'node:crypto';
import type { ProviderId, SpeechRequest, VoiceSettings } from '@router/client';
import { createOrgClient, readE2eStack } from '@router/testing';
import { SimControl } from '@router/vendor-sim';

const stack = readE2eStack();
const sim = new SimControl(stack.simUrl);
const at = (vendor: string, path: string) => `${stack.simUrl}/${vendor}${path}`;

async function json(url: string, headers: Record<string, string>): Promise<any> {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  return res.json();
}

/** Per vendor, the settings of one speakable request: voices come from the catalogue or the vendor's own list. */
/** Vendor options go top-level beside the settings (here vendor_d's `instructions`). */
const SETTINGS: Record<
  ProviderId,
  (vendorKey: string) => Promise<VoiceSettings & { instructions?: string }>
> = {
  vendor_a: async () => ({
    model: 'vendor_a/a_model_1',
    voice: 'aarila',
    language: 'en-IN',
    response_format: 'pcm',
  }),
  vendor_b: async (key) => {
    const { voices } = await json(at('vendor_b', '/v1/voices'), { 'x-api-key': key });
    const voice = voices.find(
      (v: { model: string; language: string }) => v.model === 'b_model_1' && v.language === 'hi',
    );
    return { model: 'vendor_b/b_model_1', voice: voice.voice_id, language: 'hi', response_format: 'pcm' };
  },
  vendor_c: async (key) => {
    const { voices } = await json(at('vendor_c', '/v1/voices'), { 'vendor_c-api-key': key });
    return {
      model: 'vendor_c/c_model_1',
      voice: voices[0].voice_id,
      response_format: 'pcm',
      sample_rate: 16000,
    };
  },
  vendor_d: async () => ({
    model: 'vendor_d/d_model_3',
    voice: 'brook',
    response_format: 'pcm',
    instructions: 'Calm.',
  }),
  vendor_e: async (key) => {
    const { tts } = await json(at('vendor_e', '/v1/models'), { authorization: `Token ${key}` });
    const model = tts.find((m: { architecture: string }) => m.architecture === 'e_model_1');
    return {
      model: 'vendor_e/e_model_1',
      voice: model.canonical_name.replace('e_model_1-', ''),
      response_format: 'pcm',
    };
  },
  vendor_f: async (key) => {
    const { voices } = await json(at('vendor_f', '/v1/tts/voices'), { authorization: `Bearer ${key}` });
    return { model: 'vendor_f/f_model_1', voice: voices[0].voice_id, response_format: 'pcm' };
  },
  vendor_g: async (key) => {
    const { models } = await json(at('vendor_g', '/v1/tts-models'), { authorization: `Bearer ${key}` });
    return {
      model: 'vendor_g/g_model_1',
      voice: models[0].voices[0].id,
      language: 'en',
      response_format: 'pcm',
    };
  },
  vendor_h: async (key) => {
    const { voices } = await json(at('vendor_h', '/waves/v1/h_model_1/get_voices'), {
      authorization: `Bearer ${key}`,
    });
    return {
      model: 'vendor_h/h_model_1',
      voice: voices[0].voiceId,
      response_format: 'pcm',
      sample_rate: 16000,
    };
  },
  vendor_i: async (key) => {
    const { data } = await json(at('vendor_i', '/voices'), {
      'x-api-key': key,
      'vendor_i-Version': '2026-08-14',
    });
    return { model: 'vendor_i/i_model_1', voice: data[0].id, response_format: 'pcm', sample_rate: 16000 };
  },
  vendor_j: async () => ({ model: 'vendor_j/j_model_1', voice: 'Anselm', response_format: 'pcm' }),
};

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
