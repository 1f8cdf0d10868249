import type { SynthSettings } from '@router/contracts';
import { parseSse, vendorBBody, vendorBErrorMessage, type SseEvent } from './vendor-b.adapter';

const base: SynthSettings = {
  vendor: 'vendor_b',
  model: 'b_model_1',
  voice: 'b_voice_hi_f1',
  language: 'hi',
  speed: 1.2,
  sampleRate: 8000,
  format: 'mulaw',
  options: {},
};

async function* from(parts: string[]): AsyncGenerator<string> {
  for (const part of parts) yield part;
}

async function events(parts: string[]): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of parseSse(from(parts))) out.push(event);
  return out;
}

describe('vendorBBody', () => {
  it('maps the settings onto the vendor fields', () => {
    expect(vendorBBody(base, 'Namaste')).toEqual({
      text: 'Namaste',
      voice_id: 'b_voice_hi_f1',
      language: 'hi',
      model: 'b_model_1',
      codec: 'mulaw',
      sample_rate: 8000,
      speed: 1.2,
    });
  });

  it('refuses a codec the vendor does not have', () => {
    expect(() => vendorBBody({ ...base, format: 'mp3' }, 'x')).toThrow(
      expect.objectContaining({ code: 'bad_request' }),
    );
  });
});

describe('parseSse', () => {
  it('joins events split anywhere across chunks, with CRLF line ends and comments', async () => {
    const parsed = await events([
      'event: ch',
      'unk\r\ndata: {"a":',
      '1}\r\n\r\n: keep-alive\n\nevent: done\ndata: {}\n',
      '\n',
    ]);
    expect(parsed).toEqual([
      { event: 'chunk', data: '{"a":1}' },
      { event: 'done', data: '{}' },
    ]);
  });

  it('joins multi-line data and names unnamed events message', async () => {
    expect(await events(['data: a\ndata: b\n\n'])).toEqual([{ event: 'message', data: 'a\nb' }]);
  });

  it('drops an event the stream cut before its blank line', async () => {
    expect(await events(['event: chunk\ndata: {"data":"AAAA"}\n'])).toEqual([]);
  });
});

describe('vendorBErrorMessage', () => {
  it('reads the application error, then the gateway message, then the raw body', () => {
    expect(vendorBErrorMessage('{"error":{"code":"invalid_voice","message":"voice_id not found"}}')).toBe(
      'voice_id not found',
    );
    expect(vendorBErrorMessage('{"message":"Invalid authentication credentials","request_id":"x"}')).toBe(
      'Invalid authentication credentials',
    );
    expect(vendorBErrorMessage('Bad Gateway')).toBe('Bad Gateway');
  });
});
