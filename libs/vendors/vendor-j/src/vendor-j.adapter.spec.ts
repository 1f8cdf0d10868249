import type { SynthSettings } from '@router/contracts';
import { streamingWavHeader } from '@router/vendors-core';
import { vendorJErrorMessage } from './wire/vendor-j.errors';
import { VENDOR_J_SAMPLE_RATE } from './wire/vendor-j.formats';
import { vendorJBody, vendorJStreamPath } from './wire/vendor-j.requests';

const base: SynthSettings = {
  vendor: 'vendor_j',
  model: 'j_model_1',
  voice: 'Anselm',
  language: null,
  speed: null,
  sampleRate: 24000,
  format: 'pcm',
  options: {},
};

describe('vendorJBody', () => {
  it('sends the text as one user part with the prebuilt voice and audio output', () => {
    expect(vendorJBody(base, 'Hello.')).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hello.' }] }],
      generationConfig: {
        responseModalities: ['AUDIO'],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Anselm' } } },
      },
    });
  });

  it('puts instructions before the text as a spoken direction', () => {
    const body = vendorJBody({ ...base, options: { instructions: 'Say cheerfully:' } }, 'Have a good day!');
    expect(body['contents']).toEqual([
      { role: 'user', parts: [{ text: 'Say cheerfully: Have a good day!' }] },
    ]);
  });

  it('voices the named speaker line with both speakers in multiSpeakerVoiceConfig', () => {
    const body = vendorJBody(
      {
        ...base,
        model: 'j_model_3',
        voice: 'Briar',
        options: { speakers: { Ann: 'Anselm', Ben: 'Briar' }, speaker: 'Ben', instructions: 'A calm chat' },
      },
      'Hi Ann.',
    );
    expect(body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'A calm chat\nBen: Hi Ann.' }] }],
      generationConfig: {
        responseModalities: ['AUDIO'],
        speechConfig: {
          multiSpeakerVoiceConfig: {
            speakerVoiceConfigs: [
              { speaker: 'Ann', voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Anselm' } } },
              { speaker: 'Ben', voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Briar' } } },
            ],
          },
        },
      },
    });
  });

  it('refuses formats and rates the vendor cannot produce', () => {
    expect(() => vendorJBody({ ...base, format: 'mp3' }, 'x')).toThrow(
      expect.objectContaining({ code: 'bad_request' }),
    );
    expect(() => vendorJBody({ ...base, sampleRate: 16000 }, 'x')).toThrow(
      expect.objectContaining({ code: 'bad_request' }),
    );
  });
});

describe('vendorJStreamPath', () => {
  it('names the model and the SSE form of the streaming call', () => {
    expect(vendorJStreamPath('j_model_2')).toBe('/v1beta/models/j_model_2:streamGenerateContent?alt=sse');
  });
});

describe('vendorJErrorMessage', () => {
  it('reads error.message, else the body', () => {
    expect(vendorJErrorMessage('{"error":{"code":400,"message":"API key not valid.","status":"X"}}')).toBe(
      'API key not valid.',
    );
    expect(vendorJErrorMessage('')).toBe('');
    expect(vendorJErrorMessage('upstream connect error')).toBe('upstream connect error');
  });
});

describe('openWavHeader', () => {
  it('describes 16-bit mono PCM at 24000 Hz with its sizes left open', () => {
    const header = streamingWavHeader(VENDOR_J_SAMPLE_RATE);
    expect(header.length).toBe(44);
    expect(header.toString('latin1', 0, 4)).toBe('RIFF');
    expect(header.readUInt32LE(4)).toBe(0xffffffff);
    expect(header.readUInt16LE(22)).toBe(1);
    expect(header.readUInt32LE(24)).toBe(24000);
    expect(header.readUInt16LE(34)).toBe(16);
    expect(header.toString('latin1', 36, 40)).toBe('data');
    expect(header.readUInt32LE(40)).toBe(0xffffffff);
  });
});
