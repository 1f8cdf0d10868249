import type { ProviderId, VoiceSettings } from '@router/client';
import type { StackInfo } from './stack';

/**
 * Per vendor, the speech-body settings of one speakable request: voices come from the router catalogue or,
 * read straight from the simulator, the vendor's own list. Vendor options go top-level beside the settings
 * (here vendor_d's `instructions`), as in the speech body.
 */
export function vendorSettings(
  stack: Pick<StackInfo, 'simUrl'>,
): Record<ProviderId, (vendorKey: string) => Promise<VoiceSettings & { instructions?: string }>> {
  const at = (vendor: string, path: string) => `${stack.simUrl}/${vendor}${path}`;

  return {
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
}

async function json(url: string, headers: Record<string, string>): Promise<any> {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return res.json();
}
