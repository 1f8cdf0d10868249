import type { JsonValue } from './catalogue.types';
import {
  type BodyFields,
  canonicalQuery,
  canonicalRequest,
  jsonObjectBody,
  numberFromString,
  numberQueryValue,
  optionFieldRule,
  type RequestShape,
  sameSpellings,
} from './drop-in.keying';
import type { DropInRequest } from './drop-in.types';
import { testVendor } from './test-vendor.fixture';
import type { VendorDefinition } from './vendor-definition.types';

/** A request as the mirror receives it, its body the JSON text given (so `1.0` stays as written). */
function request(body: string, query = ''): DropInRequest {
  return { method: 'POST', path: '/v1/speech', query, headers: {}, body: Buffer.from(body) };
}

/** The canonical request of a body given as JSON text, by `shape`. */
function keyed(shape: RequestShape, body: string, query = '') {
  const sent = request(body, query);
  const object = jsonObjectBody(sent);
  if (!object) throw new Error('expected a JSON object body');
  return canonicalRequest(sent, shape, object);
}

/** The canonical form written with keys sorted at every depth, as the cache key's canonical JSON sees it. */
function text(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, item]) => [k, sorted(item)]),
    );
  };
  return JSON.stringify(sorted(value));
}

/** A speech body with the defaults such a vendor fills: format, speed, stream framing. */
const SPEECH: RequestShape = {
  body: {
    response_format: { default: 'mp3' },
    speed: { default: 1 },
    stream_format: { default: 'audio' },
    instructions: { nullIsAbsent: true },
  },
};

describe('the whole-request key: defaults', () => {
  it('keys a request with its defaults left out as the same request with them spelled out (filled)', () => {
    const bare = keyed(SPEECH, '{"model":"m","voice":"v","input":"Hi."}');
    expect(bare.body).toEqual({
      model: 'm',
      voice: 'v',
      input: 'Hi.',
      response_format: 'mp3',
      speed: 1,
      stream_format: 'audio',
    });
    const spelled = keyed(
      SPEECH,
      '{"stream_format":"audio","speed":1.0,"instructions":null,"input":"Hi.","response_format":"mp3","voice":"v","model":"m"}',
    );
    expect(text(spelled)).toBe(text(bare));
  });

  it('keys a default spelled out as left out where the wire says so (omitted), for a default added later', () => {
    const shape: RequestShape = {
      query: { latency: { default: '0', keyDefault: 'omitted', read: numberQueryValue } },
      body: { seed: { default: 0, keyDefault: 'omitted' } },
    };
    const bare = keyed(shape, '{"text":"Hi."}', 'a=1');
    expect(bare.query).toEqual({ a: ['1'] });
    expect(bare.body).toEqual({ text: 'Hi.' });
    expect(keyed(shape, '{"text":"Hi.","seed":0}', 'a=1&latency=00')).toEqual(bare);
    expect(keyed(shape, '{"text":"Hi.","seed":1}', 'a=1&latency=1')).toEqual({
      ...bare,
      query: { a: ['1'], latency: ['1'] },
      body: { text: 'Hi.', seed: 1 },
    });
  });

  it('fills a query default and reads a null the vendor reads as left out as its default', () => {
    const shape: RequestShape = {
      query: { output_format: { default: 'mp3_44100_128' } },
      body: { model_id: { default: 'm1', nullIsAbsent: true } },
    };
    const bare = keyed(shape, '{"text":"Hi."}');
    expect(bare.query).toEqual({ output_format: ['mp3_44100_128'] });
    expect(keyed(shape, '{"text":"Hi.","model_id":null}', 'output_format=mp3_44100_128')).toEqual(bare);
  });
});

describe('the whole-request key: spellings the vendor reads alike', () => {
  it('reads 1 and 1.0 alike (one JSON number), and a number sent as a string where the vendor reads both', () => {
    const shape: RequestShape = { body: { sample_rate: { default: 24000, read: numberFromString } } };
    const bare = keyed(shape, '{"text":"Hi."}');
    for (const spelled of ['24000', '24000.0', '"24000"', '"24000.0"', '2.4e4']) {
      expect(keyed(shape, `{"text":"Hi.","sample_rate":${spelled}}`)).toEqual(bare);
    }
    expect(keyed(shape, '{"text":"Hi.","speed":1}').body).toEqual(
      keyed(shape, '{"text":"Hi.","speed":1.0}').body,
    );
  });

  it('keeps a string the vendor does not read as a number, and a number where no rule says so', () => {
    const shape: RequestShape = { body: { sample_rate: { read: numberFromString } } };
    for (const unread of ['" 24000"', '"24000Hz"', '"0x10"', '""', '"Infinity"', '"1e400"']) {
      const body = keyed(shape, `{"sample_rate":${unread}}`).body as Record<string, JsonValue>;
      expect(body['sample_rate']).toBe(JSON.parse(unread));
    }
    const plain = keyed({}, '{"sample_rate":"24000"}').body;
    expect(plain).not.toEqual(keyed({}, '{"sample_rate":24000}').body);
  });

  it("reads a query value as the vendor does: a flag's spellings, a number's", () => {
    const shape: RequestShape = {
      query: {
        enable_logging: {
          default: 'true',
          read: sameSpellings({ true: ['1'], false: ['0'] }, { ignoreCase: true }),
        },
        latency: { read: numberQueryValue },
      },
    };
    const bare = canonicalQuery('', shape.query ?? {});
    expect(bare).toEqual({ enable_logging: ['true'] });
    for (const flag of ['true', 'TRUE', 'True', '1']) {
      expect(canonicalQuery(`enable_logging=${flag}`, shape.query ?? {})).toEqual(bare);
    }
    expect(canonicalQuery('enable_logging=0', shape.query ?? {})).toEqual({ enable_logging: ['false'] });
    expect(canonicalQuery('enable_logging=yes', shape.query ?? {})).toEqual({ enable_logging: ['yes'] });
    expect(canonicalQuery('latency=01', shape.query ?? {})).toEqual(
      canonicalQuery('latency=1.0', shape.query ?? {}),
    );
    expect(canonicalQuery('latency=1.50', shape.query ?? {})).toEqual({
      enable_logging: ['true'],
      latency: ['1.5'],
    });
    expect(canonicalQuery('latency=%2B1', shape.query ?? {})).toEqual({
      enable_logging: ['true'],
      latency: ['+1'],
    });
  });

  it('reads field and parameter names in any case where the vendor does, exactly otherwise', () => {
    const anyCase: RequestShape = {
      names: 'any-case',
      query: { model: {} },
      body: { voice_id: { default: 'v' } },
    };
    expect(keyed(anyCase, '{"Voice_ID":"w","text":"Hi."}', 'MODEL=x')).toEqual(
      keyed(anyCase, '{"voice_id":"w","text":"Hi."}', 'model=x'),
    );
    const exact: RequestShape = { ...anyCase, names: 'exact' };
    expect(keyed(exact, '{"Voice_ID":"w","text":"Hi."}').body).toEqual({
      Voice_ID: 'w',
      voice_id: 'v',
      text: 'Hi.',
    });
  });

  it('reads a field under its other names (aliases), nested objects and array items by their own rules', () => {
    const voiceName: BodyFields = {
      prebuiltVoiceConfig: {
        aliases: ['prebuilt_voice_config'],
        fields: { voiceName: { aliases: ['voice_name'] } },
      },
    };
    const shape: RequestShape = {
      body: {
        contents: { items: { fields: { role: { default: 'user' } } } },
        generationConfig: {
          aliases: ['generation_config'],
          fields: {
            responseModalities: { aliases: ['response_modalities'] },
            speechConfig: {
              aliases: ['speech_config'],
              fields: { voiceConfig: { aliases: ['voice_config'], fields: voiceName } },
            },
          },
        },
      },
    };
    const camel = keyed(
      shape,
      JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'Hi.' }] }],
        generationConfig: {
          responseModalities: ['AUDIO'],
          speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } },
        },
      }),
    );
    const snake = keyed(
      shape,
      JSON.stringify({
        generation_config: {
          speech_config: { voice_config: { prebuilt_voice_config: { voice_name: 'Kore' } } },
          response_modalities: ['AUDIO'],
        },
        contents: [{ parts: [{ text: 'Hi.' }] }],
      }),
    );
    expect(text(snake)).toBe(text(camel));
    const otherVoice = JSON.stringify({
      contents: [{ parts: [{ text: 'Hi.' }] }],
      generationConfig: {
        responseModalities: ['AUDIO'],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Puck' } } },
      },
    });
    expect(text(keyed(shape, otherVoice))).not.toBe(text(camel));
  });

  it('keeps a field or parameter sent under two of its names, or a parameter sent twice, as sent', () => {
    const shape: RequestShape = {
      query: { model: { default: 'm', aliases: ['model_id'] } },
      body: { voice: { default: 'v', aliases: ['voice_id'] } },
    };
    const both = keyed(shape, '{"voice":"a","voice_id":"b"}', 'model=x&model_id=y');
    expect(both.body).toEqual({ voice: 'a', voice_id: 'b' });
    expect(both.query).toEqual({ model: ['x'], model_id: ['y'] });
    expect(keyed(shape, '{}', 'model=x&model=y').query).toEqual({ model: ['x', 'y'] });
    expect(keyed(shape, '{}', 'x=b&x=a').query).toEqual({ x: ['b', 'a'], model: ['m'] });
  });

  it('is the same whatever the order of fields and parameters', () => {
    const a = keyed(SPEECH, '{"input":"Hi.","model":"m","voice":"v","speed":1.2}', 'a=1&b=2');
    const b = keyed(SPEECH, '{"speed":1.2,"voice":"v","model":"m","input":"Hi."}', 'b=2&a=1');
    expect(text(a)).toBe(text(b));
  });
});

describe('the whole-request key: what tells requests apart', () => {
  it('keeps everything else verbatim, so two requests that differ in anything the vendor reads differ', () => {
    const base = keyed(SPEECH, '{"model":"m","voice":"v","input":"Hi there."}');
    const variants: [string, string][] = [
      ['{"model":"m","voice":"v","input":"Hi  there."}', ''],
      ['{"model":"m","voice":"v","input":"hi there."}', ''],
      ['{"model":"m","voice":"v","input":"Hi there.","response_format":"wav"}', ''],
      ['{"model":"m","voice":"v","input":"Hi there.","speed":"1"}', ''],
      ['{"model":"m","voice":"v","input":"Hi there.","speed":null}', ''],
      ['{"model":"m","voice":"v","input":"Hi there.","instructions":""}', ''],
      ['{"model":"m","voice":"v","input":"Hi there.","future":null}', ''],
      ['{"model":"m","voice":{"id":"v"},"input":"Hi there."}', ''],
      ['{"model":"m","voice":"v","input":"Hi there."}', 'x=1'],
      ['{"model":"m","voice":"v","input":"Hi there."}', 'x='],
    ];
    for (const [body, query] of variants) {
      expect([body, query, text(keyed(SPEECH, body, query)) === text(base)]).toEqual([body, query, false]);
    }
  });

  it('reads an object left empty as left out only where the vendor does, and never an array item', () => {
    const shape: RequestShape = {
      body: {
        settings: { nullIsAbsent: true, emptyIsAbsent: true, fields: { a: { nullIsAbsent: true } } },
        list: { items: { fields: { v: { nullIsAbsent: true } } } },
      },
    };
    const bare = keyed(shape, '{"text":"Hi."}');
    for (const settings of ['{}', 'null', '{"a":null}']) {
      expect(keyed(shape, `{"text":"Hi.","settings":${settings}}`)).toEqual(bare);
    }
    expect(keyed(shape, '{"text":"Hi.","settings":{"b":null}}').body).toEqual({
      text: 'Hi.',
      settings: { b: null },
    });
    expect(keyed(shape, '{"list":[{"id":"d","v":null},{}]}').body).toEqual({ list: [{ id: 'd' }, {}] });
    expect(keyed({ body: { settings: {} } }, '{"settings":{}}').body).toEqual({ settings: {} });
  });

  it('keeps a __proto__ field as a field', () => {
    const body = keyed(SPEECH, '{"input":"Hi.","__proto__":{"x":1}}').body as object;
    expect(Object.keys(body)).toContain('__proto__');
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
  });

  it('reads only a JSON object body', () => {
    expect(jsonObjectBody(request('{"a":1}'))).toEqual({ a: 1 });
    for (const body of ['not json', '[1]', '"text"', 'null', ''])
      expect(jsonObjectBody(request(body))).toBeUndefined();
  });
});

describe('optionFieldRule: a body field that is a router option, from the definition', () => {
  const def = testVendor();

  it('takes the default, null as left out where nullable, and item fields', () => {
    expect(optionFieldRule(def, 'bitrate')).toEqual({ default: '128k', nullIsAbsent: true });
    expect(optionFieldRule(def, 'tempo')).toEqual({ default: 1 });
    expect(optionFieldRule(def, 'locators')).toEqual({ nullIsAbsent: true, items: { fields: { id: {} } } });
    expect(() => optionFieldRule(def, 'nothing')).toThrow('vendor_c has no option nothing');
  });

  it("reads an object the vendor fills: each field's null left out, empty as the option left out", () => {
    const filled: VendorDefinition = {
      ...def,
      catalogue: {
        ...def.catalogue,
        options: [
          ...def.catalogue.options,
          { ...def.catalogue.options[0], name: 'settings', type: 'object', default: null, values: null },
        ],
      },
      optionRules: {
        ...def.optionRules,
        settings: {
          vendorFillsFields: true,
          fields: [
            { name: 'stability', type: 'number', required: true, nullable: false },
            { name: 'style', type: 'number', required: false, nullable: false },
          ],
        },
      },
    };
    expect(optionFieldRule(filled, 'settings')).toEqual({
      nullIsAbsent: true,
      fields: { stability: { nullIsAbsent: true }, style: { nullIsAbsent: true } },
      emptyIsAbsent: true,
    });
  });
});
