import { type DropInRequest, requestLabels } from '@router/vendors-core';
import { vendorIDropIn, vendorIRequestKeying } from './vendor-i.drop-in';

function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = { 'vendor_i-version': '2026-08-14' },
  query = '',
): DropInRequest {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { method: 'POST', path, query, headers, body: Buffer.from(text) };
}

const body = {
  model_id: 'i_model_2',
  transcript: 'Hello there.',
  voice: { mode: 'id', id: 'v1' },
  output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 },
};

const keyOf = (request: DropInRequest): unknown => {
  const keying = vendorIRequestKeying(request);
  return keying.cacheable ? keying.canonical : undefined;
};

describe('vendor_i drop-in keying', () => {
  it('keys both synthesis endpoints by the release their version names, in the header or the query', () => {
    const byHeader = keyOf(post('/tts/sse', body, { 'vendor_i-version': '2025-04-16' }));
    expect(byHeader).toMatchObject({ query: { vendor_i_version: ['2025-04-16'] } });
    expect(keyOf(post('/tts/sse', body, { 'vendor_i-version': '2026-02-28' }))).toEqual(byHeader);
    expect(keyOf(post('/tts/sse', body, {}, 'vendor_i_version=2025-12-01'))).toEqual(byHeader);
    expect(keyOf(post('/tts/sse', body, { 'vendor_i-version': '2026-03-01' }))).not.toEqual(byHeader);
    expect(keyOf(post('/tts/bytes', body))).not.toEqual(keyOf(post('/tts/sse', body)));
  });

  it('reads the voice in its three spellings alike, add_timestamps left out as false, and no context_id', () => {
    const key = keyOf(post('/tts/sse', body));
    expect(keyOf(post('/tts/sse', { ...body, voice: { id: 'v1' } }))).toEqual(key);
    expect(keyOf(post('/tts/sse', { ...body, voice: 'v1' }))).toEqual(key);
    expect(keyOf(post('/tts/sse', { ...body, add_timestamps: false, context_id: 'c9' }))).toEqual(key);
    expect(keyOf(post('/tts/sse', { ...body, add_timestamps: true }))).not.toEqual(key);
    expect(keyOf(post('/tts/sse', { ...body, pronunciation_dict_id: 'd1' }))).not.toEqual(key);
    expect(keyOf(post('/tts/sse', { ...body, normalization: 'off' }))).not.toEqual(key);
  });

  it.each([
    { what: 'no version', request: post('/tts/bytes', body, {}) },
    {
      what: 'a version from the future',
      request: post('/tts/bytes', body, { 'vendor_i-version': '2999-01-01' }),
    },
    { what: 'a body that is not JSON', request: post('/tts/bytes', 'transcript=hi') },
    { what: 'no transcript', request: post('/tts/bytes', { ...body, transcript: undefined }) },
    {
      what: 'save: true (a file stored at the vendor)',
      request: post('/tts/bytes', { ...body, save: true }),
    },
    { what: 'a voice read', request: { ...post('/voices', ''), method: 'GET' } },
  ])('never caches $what', ({ request }) => {
    expect(vendorIRequestKeying(request)).toEqual({ cacheable: false });
  });

  it("stores an SSE answer's events without context_id, whole at done and not after an error event", () => {
    const request = post('/tts/sse', body);
    const head = { status: 200, headers: { 'content-type': 'text/event-stream' } };
    const answer =
      'event: chunk\ndata: {"type":"chunk","data":"AAA=","step_time":1.5,"done":false,"status_code":200,"context_id":"c"}\n\n' +
      'event: done\ndata: {"type":"done","done":true,"status_code":200,"context_id":"c"}\n\n';
    const reading = vendorIDropIn.readAnswer(request, head);
    reading.push(Buffer.from(answer));
    expect(reading.end()).toEqual({ complete: true });
    expect(reading.stored(Buffer.from(answer)).toString()).toBe(answer.replaceAll(',"context_id":"c"', ''));

    const failed = vendorIDropIn.readAnswer(request, head);
    failed.push(Buffer.from('event: error\ndata: {"type":"error","status_code":500}\n\n'));
    expect(failed.end()).toMatchObject({ complete: false });
  });

  it("refuses a body past the client-JSON rule with the vendor's 400, JSON or text by the request's version", () => {
    const problem = { field: 'voice', message: 'voice nests too deep' };
    const request = { method: 'POST', path: '/tts/bytes', headers: {}, query: new URLSearchParams() };
    const json = vendorIDropIn.invalidBody(problem, {
      ...request,
      headers: { 'vendor_i-version': '2026-08-14' },
    });
    expect(json.status).toBe(400);
    expect(JSON.parse(json.body)).toMatchObject({
      error_code: 'bad_request',
      message: 'voice nests too deep',
    });
    expect(vendorIDropIn.invalidBody(problem, request).body).toBe('Bad Request: voice nests too deep');
  });
});

describe('vendor_i request labels', () => {
  const labels = (req: DropInRequest) => requestLabels(vendorIDropIn, vendorIDropIn.keying(req));

  it("names the body's model_id and its voice's id, in each form a version sends it", () => {
    const named = { model: body.model_id, voice: 'v1' };
    expect(labels(post('/tts/bytes', body))).toEqual(named);
    expect(labels(post('/tts/sse', { ...body, voice: { id: 'v1' } }))).toEqual(named);
    expect(labels(post('/tts/sse', { ...body, voice: 'v1' }))).toEqual(named);
  });
});
