import { type DropInRequest, requestLabels } from '@router/vendors-core';
import { vendorEDropIn, vendorERequestKeying } from './vendor-e.drop-in';

const request = (path: string, query: string, body: unknown, method = 'POST'): DropInRequest => ({
  method,
  path,
  query,
  headers: {},
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});
const canonical = (r: DropInRequest): unknown => {
  const keyed = vendorERequestKeying(r);
  return keyed.cacheable ? keyed.canonical : 'live';
};

describe('vendor_e drop-in keying', () => {
  it("keys a speak call with the query's defaults left out as the same call spelled out", () => {
    const text = { text: 'Hello there.' };
    const bare = canonical(request('/v1/speak', '', text));
    expect(bare).toEqual({
      method: 'POST',
      path: '/v1/speak',
      query: {
        model: ['e_model_1-orla-en'],
        encoding: ['mp3'],
        container: ['none'],
        sample_rate: ['22050'],
        bit_rate: ['48000'],
        speed: ['1'],
        mip_opt_out: ['false'],
      },
      body: text,
    });
    const spelled =
      'speed=1.0&model=e_model_1-orla-en&bit_rate=48000&encoding=mp3&sample_rate=22050&mip_opt_out=false';
    expect(canonical(request('/v1/speak', spelled, text))).toEqual(bare);
    // A flag in any spelling of a boolean, as every mirror reads one.
    expect(canonical(request('/v1/speak', 'mip_opt_out=False', text))).toEqual(bare);
    expect(canonical(request('/v1/speak', 'mip_opt_out=0', text))).toEqual(bare);
    expect(canonical(request('/v1/speak', 'mip_opt_out=True', text))).toEqual(
      canonical(request('/v1/speak', 'mip_opt_out=true', text)),
    );
    // The container and rate the vendor fills follow the encoding asked for.
    expect(canonical(request('/v1/speak', 'encoding=linear16', text))).toEqual(
      canonical(request('/v1/speak', 'encoding=linear16&container=wav&sample_rate=24000', text)),
    );
    expect(canonical(request('/v1/speak', 'speed=1.1', text))).not.toEqual(bare);
  });

  it('requires the model on /v2/speak: none is filled', () => {
    expect(canonical(request('/v2/speak', '', { text: 'Hi.' }))).toMatchObject({
      query: { encoding: ['mp3'] },
    });
    expect(canonical(request('/v2/speak', '', { text: 'Hi.' }))).not.toHaveProperty('query.model');
  });

  it('sends a call with a callback, the model lists and a body the vendor refuses on live', () => {
    expect(
      canonical(request('/v2/speak', 'model=e_model_3-orla-en&callback=https://x.invalid', { text: 'Hi.' })),
    ).toBe('live');
    expect(canonical(request('/v1/models', '', '', 'GET'))).toBe('live');
    expect(canonical(request('/v1/speak', '', '[1]'))).toBe('live');
    expect(canonical(request('/v1/speak', '', { text: 3 }))).toBe('live');
  });
});

describe('vendor_e request labels', () => {
  const labels = (req: DropInRequest) => requestLabels(vendorEDropIn, vendorEDropIn.keying(req));

  it("names the query's voice model as the router's model and voice, /v1/speak's default where left out", () => {
    expect(labels(request('/v2/speak', 'model=e_model_3-orla-en', { text: 'Hi.' }))).toEqual({
      model: 'e_model_3',
      voice: 'orla-en',
    });
    expect(labels(request('/v1/speak', '', { text: 'Hi.' }))).toEqual({
      model: 'e_model_1',
      voice: 'orla-en',
    });
  });

  it('names a voice model of no known family as all model', () => {
    expect(labels(request('/v1/speak', 'model=nova', { text: 'Hi.' }))).toEqual({ model: 'nova', voice: '' });
  });
});
