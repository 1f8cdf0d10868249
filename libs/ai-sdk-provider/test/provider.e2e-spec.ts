import { randomUUID } from 'node:crypto';
import { experimental_generateSpeech as generateSpeech } from 'ai';
import type { RouterModelId } from '@router/client';
import { createOrgWithVendorKey, readE2eStack, vendorSettings } from '@router/testing';
import { SPEC_VENDOR_TOKENS } from '@router/spec-facts';
import { SimControl } from '@router/vendor-sim';
import { createSpeechRouter } from '../src';

/**
 * `generateSpeech` of the AI SDK (`ai` 6) with the provider, against the e2e stack's router and simulated
 * vendors: every vendor's audio comes back as the router's speech endpoint gives it, and said again it comes
 * from the cache (the same bytes, no vendor call).
 */
const stack = readE2eStack();
const sim = new SimControl(stack.simUrl);
const SETTINGS = vendorSettings(stack);

describe('the AI SDK speech provider against the router (e2e, simulated vendors)', () => {
  it.each(SPEC_VENDOR_TOKENS.map((v) => [v]))(
    '%s: generateSpeech returns the vendor audio, then the same audio from the cache',
    async (vendor) => {
      const org = await createOrgWithVendorKey(stack, vendor, `ai-${vendor}`);
      const { model, voice, language, sample_rate, instructions } = await SETTINGS[vendor](org.vendorKey);
      const router = createSpeechRouter({ baseURL: stack.gatewayUrl, apiKey: org.key });
      const text = `Generated speech for ${vendor}. A second sentence ${randomUUID().slice(0, 8)}.`;
      const speak = () =>
        generateSpeech({
          model: router.speech(model as RouterModelId),
          text,
          voice,
          outputFormat: 'pcm',
          ...(language ? { language } : {}),
          ...(instructions ? { instructions } : {}),
          ...(sample_rate ? { providerOptions: { speechRouter: { sample_rate } } } : {}),
          maxRetries: 0,
        });

      const first = await speak();
      const calls = await sim.callCount(vendor, { key: org.vendorKey });
      const second = await speak();

      expect(first.warnings).toEqual([]);
      expect(first.audio.uint8Array.length).toBeGreaterThan(1000);
      expect(calls).toBe(2); // one vendor call per sentence
      const metadata = first.providerMetadata.speechRouter;
      expect(metadata).toMatchObject({ contentType: 'audio/pcm', responseFormat: 'pcm' });
      expect(metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(first.responses[0].headers?.['x-request-id']).toBe(metadata.requestId);

      // The router's own answer for the same body: what the provider returned, untouched.
      const direct = await org.client.speech({
        model,
        voice,
        input: text,
        response_format: 'pcm',
        ...(language ? { language } : {}),
        ...(instructions ? { instructions } : {}),
        ...(sample_rate ? { sample_rate } : {}),
      });
      expect(Buffer.from(await direct.bytes()).equals(Buffer.from(first.audio.uint8Array))).toBe(true);

      // Said again: the same bytes from the cache, no vendor call, a new request id.
      expect(Buffer.from(second.audio.uint8Array).equals(Buffer.from(first.audio.uint8Array))).toBe(true);
      expect(await sim.callCount(vendor, { key: org.vendorKey })).toBe(calls);
      expect(second.providerMetadata.speechRouter.requestId).not.toBe(metadata.requestId);
    },
  );

  it('takes typed defaults from the model and picks a format the vendor makes when the call names none', async () => {
    const org = await createOrgWithVendorKey(stack, 'vendor_a', 'ai-defaults');
    const router = createSpeechRouter({ baseURL: stack.gatewayUrl, apiKey: org.key });
    const model = router.speech('vendor_a/a_model_1', {
      voice: 'aarila',
      language: 'en-IN',
      sampleRate: 16000,
      options: { temperature: 0.4 },
    });
    const result = await generateSpeech({ model, text: 'The defaults speak.', maxRetries: 0 });
    expect(result.providerMetadata.speechRouter).toMatchObject({
      contentType: 'audio/mpeg',
      responseFormat: 'mp3',
    });

    const vendorB = await createOrgWithVendorKey(stack, 'vendor_b', 'ai-defaults-b');
    const { voice } = await SETTINGS.vendor_b(vendorB.vendorKey);
    const routerB = createSpeechRouter({ baseURL: stack.gatewayUrl, apiKey: vendorB.key });
    const wav = await generateSpeech({
      model: routerB.speech('vendor_b/b_model_1', { language: 'hi' }),
      text: 'No mp3 here.',
      voice,
      maxRetries: 0,
    });
    expect(wav.providerMetadata.speechRouter).toMatchObject({
      contentType: 'audio/wav',
      responseFormat: 'wav',
    });
    expect(Buffer.from(wav.audio.uint8Array).subarray(0, 4).toString('latin1')).toBe('RIFF');
  });

  it('surfaces a refusal as the SDK error with the router code, not retried', async () => {
    const org = await createOrgWithVendorKey(stack, 'vendor_c', 'ai-refusal');
    const router = createSpeechRouter({ baseURL: stack.gatewayUrl, apiKey: org.key });
    const calls = sim.callCount('vendor_c', { key: org.vendorKey });
    await expect(
      generateSpeech({
        model: router.speech('vendor_c/c_model_1'),
        text: 'Refused.',
        voice: 'anything',
        outputFormat: 'flac',
      }),
    ).rejects.toMatchObject({
      statusCode: 400,
      isRetryable: false,
      message: expect.stringMatching(/^bad_request: /),
    });
    expect(await sim.callCount('vendor_c', { key: org.vendorKey })).toBe(await calls);
  });
});
