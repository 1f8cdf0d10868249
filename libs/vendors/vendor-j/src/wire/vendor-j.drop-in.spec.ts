import {
  cacheableKeying,
  type DropInRequest,
  jsonDropInRequest,
  NOT_WHOLE,
  requestLabels,
} from '@router/vendors-core';
import { vendorJErrorBody } from './vendor-j.errors';
import { VENDOR_J_PCM_MIME, VENDOR_J_WAV_MIME } from './vendor-j.formats';
import { vendorJDropIn, vendorJRequestKeying } from './vendor-j.drop-in';
import { VENDOR_J_DEFAULT_VOICE } from './vendor-j.requests';
import { vendorJResponse, vendorJSseEvent, vendorJUsage } from './vendor-j.responses';

const GENERATE = '/v1beta/models/j_model_2:generateContent';
const STREAM = '/v1beta/models/j_model_2:streamGenerateContent';

const request = (method: string, path: string, body: unknown = '', query = ''): DropInRequest =>
  jsonDropInRequest(path, body, method, query);

const post = (path: string, body: unknown, query = ''): DropInRequest => request('POST', path, body, query);

const canonical = (req: DropInRequest) => cacheableKeying(vendorJRequestKeying, req).canonical;

/** The notes' request: one user text, audio out, one prebuilt voice. */
function body(text: string, voice: string | undefined = 'Anselm'): Record<string, unknown> {
  return {
    contents: [{ role: 'user', parts: [{ text }] }],
    generationConfig: {
      responseModalities: ['AUDIO'],
      ...(voice ? { speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: voice } } } } : {}),
    },
  };
}

const twoSpeakers = {
  multiSpeakerVoiceConfig: {
    speakerVoiceConfigs: [
      { speaker: 'Ann', voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Anselm' } } },
      { speaker: 'Ben', voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Briar' } } },
    ],
  },
};

describe('vendor_j request keying', () => {
  it('caches both generate calls whole, the streaming one as SSE only, with the characters of the text', () => {
    const generate = cacheableKeying(vendorJRequestKeying, post(GENERATE, body('Héllo, 👋.')));
    expect(generate).toMatchObject({ stored: [], chars: 9 });
    expect(vendorJRequestKeying(post(STREAM, body('Hi.'), 'alt=sse')).cacheable).toBe(true);
    for (const query of ['', 'alt=json', 'alt=SSE', 'alt=sse&alt=sse']) {
      expect([query, vendorJRequestKeying(post(STREAM, body('Hi.'), query)).cacheable]).toEqual([
        query,
        false,
      ]);
    }
  });

  it('sends every body that is not one text upstream uncached, and the lists', () => {
    const text = { text: 'Hi.' };
    const audio = { inlineData: { mimeType: 'audio/wav', data: 'AAAA' } };
    const notOneText: unknown[] = [
      { ...body('x'), contents: [{ parts: [text] }, { parts: [text] }] },
      { ...body('x'), contents: [{ parts: [text, text] }] },
      { ...body('x'), contents: [{ parts: [audio] }] },
      { ...body('x'), contents: [{ parts: [{ ...text, ...audio }] }] },
      { ...body('x'), contents: [{ parts: [{ text: 3 }] }] },
      { ...body('x'), contents: [] },
      { ...body('x'), contents: 'Hi.' },
      { generationConfig: body('x')['generationConfig'] },
    ];
    for (const sent of notOneText) expect(vendorJRequestKeying(post(GENERATE, sent)).cacheable).toBe(false);
    expect(vendorJRequestKeying(post(GENERATE, '{"contents": [')).cacheable).toBe(false);
    expect(vendorJRequestKeying(post(GENERATE, '[1]')).cacheable).toBe(false);
    for (const path of ['/v1beta/voices', '/v1beta/models', '/v1beta/models/j_model_1']) {
      expect(vendorJRequestKeying(request('GET', path)).cacheable).toBe(false);
    }
    expect(vendorJRequestKeying(request('GET', GENERATE)).cacheable).toBe(false);
  });

  it('keys a text without a role, a voice or alt as the same text with the user role, the default voice and alt=json', () => {
    const bare = canonical(
      post(GENERATE, {
        contents: [{ parts: [{ text: 'Hi.' }] }],
        generationConfig: { responseModalities: ['AUDIO'] },
      }),
    );
    expect(bare).toEqual({
      method: 'POST',
      path: GENERATE,
      query: { alt: ['json'] },
      body: body('Hi.', VENDOR_J_DEFAULT_VOICE),
    });
    expect(canonical(post(GENERATE, body('Hi.', VENDOR_J_DEFAULT_VOICE), 'alt=json'))).toEqual(bare);
    // A speech config with no voice in it is the default voice too, its other fields kept.
    const language = {
      contents: [{ role: '', parts: [{ text: 'Hi.' }] }],
      generationConfig: { responseModalities: ['AUDIO'], speechConfig: { languageCode: 'en-US' } },
    };
    expect(canonical(post(GENERATE, language)).body).toEqual({
      ...body('Hi.', VENDOR_J_DEFAULT_VOICE),
      generationConfig: {
        responseModalities: ['AUDIO'],
        speechConfig: {
          languageCode: 'en-US',
          voiceConfig: { prebuiltVoiceConfig: { voiceName: VENDOR_J_DEFAULT_VOICE } },
        },
      },
    });
  });

  it('keys proto field names and null fields as the vendor reads them: the JSON names, left out', () => {
    const spelled = canonical(post(STREAM, body('Hi.', VENDOR_J_DEFAULT_VOICE), 'alt=sse'));
    const proto = {
      contents: [{ role: null, parts: [{ text: 'Hi.' }] }],
      generation_config: {
        response_modalities: ['AUDIO'],
        speech_config: { voice_config: { prebuilt_voice_config: { voice_name: VENDOR_J_DEFAULT_VOICE } } },
      },
    };
    expect(canonical(post(STREAM, proto, 'alt=sse'))).toEqual(spelled);
    const nulls = {
      contents: [{ parts: [{ text: 'Hi.' }] }],
      generationConfig: {
        responseModalities: ['AUDIO'],
        speechConfig: { voiceConfig: null, multiSpeakerVoiceConfig: null, languageCode: null },
      },
    };
    expect(canonical(post(STREAM, nulls, 'alt=sse'))).toEqual(spelled);
    expect(
      canonical(
        post(
          STREAM,
          { ...nulls, generationConfig: { responseModalities: ['AUDIO'], speechConfig: null } },
          'alt=sse',
        ),
      ),
    ).toEqual(spelled);
  });

  it('fills no voice beside two speakers', () => {
    const speakers = {
      contents: [{ role: 'user', parts: [{ text: 'Ann: Hi.' }] }],
      generationConfig: { responseModalities: ['AUDIO'], speechConfig: twoSpeakers },
    };
    expect(canonical(post(GENERATE, speakers)).body).toEqual(speakers);
  });

  it('keys a generate call under v1 as the same call under v1beta, the streaming one as SSE only there too', () => {
    const v1 = (path: string) => path.replace('/v1beta/', '/v1/');
    expect(canonical(post(v1(GENERATE), body('Hi.')))).toEqual(canonical(post(GENERATE, body('Hi.'))));
    expect(canonical(post(v1(STREAM), body('Hi.'), 'alt=sse'))).toEqual(
      canonical(post(STREAM, body('Hi.'), 'alt=sse')),
    );
    // Left out under v1 as under v1beta: the role, the voice, alt on generateContent.
    expect(
      canonical(
        post(
          v1(GENERATE),
          { contents: [{ parts: [{ text: 'Hi.' }] }], generationConfig: { responseModalities: ['AUDIO'] } },
          'alt=json',
        ),
      ),
    ).toEqual(canonical(post(GENERATE, body('Hi.', VENDOR_J_DEFAULT_VOICE))));
    expect(vendorJRequestKeying(post(v1(STREAM), body('Hi.'))).cacheable).toBe(false);
    expect(canonical(post(v1(GENERATE), body('Hi.')))).not.toEqual(
      canonical(post(v1(STREAM), body('Hi.'), 'alt=sse')),
    );
  });

  it('keeps the text, the voice, the model, unknown fields and a field under both names apart', () => {
    const base = canonical(post(GENERATE, body('Hi.')));
    const differing: DropInRequest[] = [
      post(GENERATE, body('Hi. ')),
      post(GENERATE, body('hi.')),
      post(GENERATE, body('Hi.', 'Briar')),
      post('/v1beta/models/j_model_3:generateContent', body('Hi.')),
      post(GENERATE, { ...body('Hi.'), systemInstruction: { parts: [{ text: 'Be calm.' }] } }),
      post(GENERATE, {
        ...body('Hi.'),
        generationConfig: { ...(body('Hi.')['generationConfig'] as object), temperature: 0.5 },
      }),
      post(GENERATE, { ...body('Hi.'), contents: [{ role: 'model', parts: [{ text: 'Hi.' }] }] }),
      post(GENERATE, { ...body('Hi.'), generation_config: body('Hi.')['generationConfig'] }),
      post(GENERATE, body('Hi.'), 'alt=sse'),
      post(GENERATE, body('Hi.'), 'prettyPrint=false'),
    ];
    for (const req of differing) expect(canonical(req)).not.toEqual(base);
  });
});

/** Reads `body` as the vendor's answer to `req`, in `parts` chunks, and gives its verdict and stored form. */
function read(req: DropInRequest, contentType: string, body: string, parts = 3) {
  const reading = vendorJDropIn.readAnswer(req, { status: 200, headers: { 'content-type': contentType } });
  const bytes = Buffer.from(body);
  const size = Math.ceil(bytes.length / parts);
  for (let at = 0; at < bytes.length; at += size) reading.push(bytes.subarray(at, at + size));
  const verdict = reading.end();
  return { verdict, stored: () => reading.stored(bytes).toString('utf8') };
}

const pcm = (bytes: number[]) => ({ mimeType: VENDOR_J_PCM_MIME, data: Buffer.from(bytes) });
const usage = vendorJUsage('Hi there.', 1000);
const events = [
  vendorJResponse('j_model_2', 'r-1', pcm([1, 0, 2, 0])),
  vendorJResponse('j_model_2', 'r-1', pcm([3, 0, 4, 0]), usage),
];
const sse = (responses: unknown[]) => responses.map(vendorJSseEvent).join('');
const SSE = 'text/event-stream';
const JSON_TYPE = 'application/json; charset=UTF-8';
const streamed = post(STREAM, body('Hi there.'), 'alt=sse');
const generated = post(GENERATE, body('Hi there.'));

describe('vendor_j answers', () => {
  it('is whole once an SSE answer ends with STOP after audio, however it is chunked', () => {
    for (const parts of [1, 2, 7, 64])
      expect(read(streamed, SSE, sse(events), parts).verdict).toEqual({ complete: true });
  });

  it('is not whole with an error event after the 200, without STOP, cut inside an event, or STOP with no audio', () => {
    const error = vendorJErrorBody({ code: 503, status: 'UNAVAILABLE', message: 'busy' });
    const noFinal = sse(events.slice(0, 1));
    expect(read(streamed, SSE, sse([events[0], error])).verdict).toEqual({
      complete: false,
      reason: NOT_WHOLE.error,
    });
    expect(read(streamed, SSE, sse([events[0], error, events[1]])).verdict).toMatchObject({
      complete: false,
    });
    expect(read(streamed, SSE, noFinal).verdict).toEqual({ complete: false, reason: NOT_WHOLE.noFinal });
    const cut = `${noFinal}${vendorJSseEvent(events[1]).slice(0, 40)}`;
    expect(read(streamed, SSE, cut).verdict).toEqual({ complete: false, reason: NOT_WHOLE.cut });
    const silent = { candidates: [{ finishReason: 'STOP', index: 0 }], modelVersion: 'j_model_2' };
    expect(read(streamed, SSE, sse([silent])).verdict).toMatchObject({ complete: false });
    const other = { candidates: [{ finishReason: 'OTHER', index: 0 }] };
    expect(read(streamed, SSE, sse([events[0], other])).verdict).toMatchObject({ complete: false });
    expect(read(streamed, SSE, `${noFinal}data: not json\r\n\r\n${sse([events[1]])}`).verdict).toMatchObject({
      complete: false,
    });
  });

  it('stores SSE events as a reply from the cache carries them: no responseId, zero usage, audio only, CRLF', () => {
    const withText = vendorJResponse('j_model_2', 'r-1', pcm([5, 0]));
    const candidate = (withText['candidates'] as Array<{ content: { parts: unknown[] } }>)[0];
    candidate?.content.parts.unshift({ text: 'a note' });
    const textOnly = { candidates: [{ content: { role: 'model', parts: [{ text: 'more' }] }, index: 0 }] };
    const { verdict, stored } = read(streamed, SSE, sse([events[0], textOnly, withText, events[1]]));
    expect(verdict).toEqual({ complete: true });
    const expected = (response: Record<string, unknown>, final = false): string => {
      const { responseId: _id, ...rest } = response;
      return `data: ${JSON.stringify({
        ...rest,
        ...(final
          ? {
              usageMetadata: {
                promptTokenCount: 0,
                candidatesTokenCount: 0,
                totalTokenCount: 0,
                promptTokensDetails: [{ modality: 'TEXT', tokenCount: 0 }],
                candidatesTokensDetails: [{ modality: 'AUDIO', tokenCount: 0 }],
              },
            }
          : {}),
      })}\r\n\r\n`;
    };
    expect(stored()).toBe(
      [
        expected(events[0]),
        expected(vendorJResponse('j_model_2', 'r-1', pcm([5, 0]))),
        expected(events[1], true),
      ].join(''),
    );
  });

  it('is whole when a generateContent answer is one response with STOP and audio, a WAV file too', () => {
    const wav = vendorJResponse(
      'j_model_3',
      'r-2',
      { mimeType: VENDOR_J_WAV_MIME, data: Buffer.from('RIFF') },
      usage,
    );
    expect(read(generated, JSON_TYPE, JSON.stringify(wav)).verdict).toEqual({ complete: true });
    const cut = JSON.stringify(wav).slice(0, 60);
    expect(read(generated, JSON_TYPE, cut).verdict).toEqual({ complete: false, reason: NOT_WHOLE.notJson });
    const error = vendorJErrorBody({ code: 500, status: 'INTERNAL', message: 'failed' });
    expect(read(generated, JSON_TYPE, JSON.stringify(error)).verdict).toMatchObject({ complete: false });
    const unfinished = vendorJResponse('j_model_3', 'r-2', pcm([1, 0]));
    expect(read(generated, JSON_TYPE, JSON.stringify(unfinished)).verdict).toMatchObject({ complete: false });
  });

  it('stores a generateContent answer without responseId, its usage zero, its audio untouched', () => {
    const whole = vendorJResponse('j_model_1', 'r-3', pcm([7, 0, 8, 0]), usage);
    const { responseId: _id, ...rest } = whole;
    const stored = JSON.parse(read(generated, JSON_TYPE, JSON.stringify(whole)).stored()) as Record<
      string,
      unknown
    >;
    expect(stored).toEqual({ ...rest, usageMetadata: expect.any(Object) });
    expect(Object.keys(stored)).toEqual(Object.keys(rest));
    expect(JSON.stringify(stored['usageMetadata'])).not.toMatch(/[1-9]/);
  });

  it('reads an SSE generateContent answer by its content type', () => {
    expect(read(generated, SSE, sse(events.slice(0, 1))).verdict).toMatchObject({ complete: false });
    expect(read(generated, SSE, sse(events)).verdict).toEqual({ complete: true });
  });

  it('reads the lists as whole bodies', () => {
    const list = read(request('GET', '/v1beta/voices'), JSON_TYPE, '{"voices":[');
    expect(list.verdict).toEqual({ complete: true });
    expect(list.stored()).toBe('{"voices":[');
  });
});

describe('vendor_j drop-in wire', () => {
  it('has the endpoints the spec lists, and no other', () => {
    const serves = (method: string, path: string) =>
      vendorJDropIn.endpoints.some((e) => e.method === method && e.path.test(path));
    for (const version of ['v1beta', 'v1']) {
      for (const [method, path] of [
        ['POST', `/${version}/models/j_model_2:generateContent`],
        ['POST', `/${version}/models/j_model_2:streamGenerateContent`],
        ['GET', `/${version}/voices`],
        ['GET', `/${version}/models`],
        ['GET', `/${version}/models/j_model_1`],
      ] as const) {
        expect([method, path, serves(method, path)]).toEqual([method, path, true]);
      }
    }
    for (const [method, path] of [
      ['POST', '/v1beta/models/j_model_1:countTokens'],
      ['POST', '/v1/models/j_model_1:countTokens'],
      ['GET', GENERATE],
      ['POST', '/v1beta/voices'],
      ['POST', '/v1alpha/models/j_model_1:generateContent'],
      ['POST', '/v2/models/j_model_1:generateContent'],
      ['POST', '/v1/projects/p1/locations/l1/publishers/p2/models/j_model_1:generateContent'],
      ['GET', '/v1beta/models/j_model_1/x'],
    ] as const) {
      expect([method, path, serves(method, path)]).toEqual([method, path, false]);
    }
  });

  it("refuses a body it will not walk with the vendor's INVALID_ARGUMENT, naming the field", () => {
    const reply = vendorJDropIn.invalidBody({
      field: 'contents',
      message: 'contents nests deeper than 32 levels',
    });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: expect.stringContaining('contents nests deeper than 32 levels'),
      },
    });
  });
});

describe('vendor_j request labels', () => {
  const labels = (req: DropInRequest) => requestLabels(vendorJDropIn, vendorJDropIn.keying(req));

  it("names the path's model and the prebuilt voice, the vendor's default where left out", () => {
    expect(labels(post(GENERATE, body('Hello.')))).toEqual({ model: 'j_model_2', voice: 'Anselm' });
    expect(labels(post(STREAM, body('Hello.', ''), 'alt=sse'))).toEqual({
      model: 'j_model_2',
      voice: VENDOR_J_DEFAULT_VOICE,
    });
  });

  it("names each speaker's voice of a multi-speaker request", () => {
    const two = body('Ann: Hi. Ben: Hello.', '');
    (two['generationConfig'] as Record<string, unknown>)['speechConfig'] = twoSpeakers;
    expect(labels(post(GENERATE, two))).toEqual({ model: 'j_model_2', voice: 'Anselm, Briar' });
  });
});
