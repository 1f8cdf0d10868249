import {
  AUDIO_NOT_WHOLE,
  type DropInRequest,
  dropInServes,
  jsonDropInRequest,
  cacheableKeying,
  requestLabels,
} from '@router/vendors-core';
import { VENDOR_F_MODEL } from '../vendor-f.definition';
import { vendorFDropIn, vendorFRequestKeying } from './vendor-f.drop-in';
import { parseVendorFSettings, restSettings, VENDOR_F_DEFAULTS } from './vendor-f.requests';

const TTS = '/v1/tts';
const VOICES = '/v1/tts/voices';

const request = jsonDropInRequest;

const keyed = (req: DropInRequest) => cacheableKeying(vendorFRequestKeying, req);

/** The settings the vendor reads from a body (the wire's parser, any voice known, in lower case). */
function vendorReads(body: Record<string, unknown>): unknown {
  const raw = restSettings(body);
  if (typeof raw === 'string') return raw;
  const parsed = parseVendorFSettings(raw, (id) => ({ voice_id: id.toLowerCase() }));
  return parsed.ok ? parsed.settings : parsed.problem;
}

const BARE = { text: 'Hello there, how are you?' };
const SPELLED = {
  text: BARE.text,
  voice_id: VENDOR_F_DEFAULTS.voice,
  language: 'auto',
  output_format: { codec: 'mp3', sample_rate: 24000, bit_rate: 128000 },
  speed: 1,
  optimize_streaming_latency: 0,
  text_normalization: false,
};

describe('vendor_f request keying', () => {
  it('keys a bare body with every default the vendor fills spelled out', () => {
    const bare = keyed(request(TTS, BARE));
    expect(bare.canonical).toEqual({ method: 'POST', path: TTS, query: {}, body: SPELLED });
    expect(bare.stored).toEqual([]);
    expect(bare.chars).toBe(BARE.text.length);
  });

  it('keys settings left out, null, partial or spelled out alike, as the vendor reads them alike', () => {
    const bare = keyed(request(TTS, BARE)).canonical;
    const same = [
      SPELLED,
      { ...BARE, voice_id: 'ASTER', speed: 1.0, output_format: {} },
      { ...BARE, voice_id: null, language: null, speed: null, optimize_streaming_latency: null },
      { ...BARE, text_normalization: null, output_format: { codec: null, sample_rate: null } },
      { ...BARE, output_format: { sample_rate: 24000 } },
      { ...BARE, output_format: { codec: 'mp3', bit_rate: 128000 } },
    ];
    for (const body of same) {
      expect(keyed(request(TTS, body)).canonical).toEqual(bare);
      // The equalities are the vendor's: it reads each of these as the bare body.
      expect(vendorReads(body)).toEqual(vendorReads(BARE));
    }
  });

  it('fills the mp3 bit rate only for mp3, whose rate the other codecs refuse', () => {
    const pcm = keyed(request(TTS, { ...BARE, output_format: { codec: 'pcm', sample_rate: 16000 } }));
    expect(pcm.canonical.body).toMatchObject({ output_format: { codec: 'pcm', sample_rate: 16000 } });
    expect(JSON.stringify(pcm.canonical.body)).not.toContain('bit_rate');
    const wav = keyed(request(TTS, { ...BARE, output_format: { codec: 'wav' } }));
    expect(wav.canonical.body).toMatchObject({ output_format: { codec: 'wav', sample_rate: 24000 } });
  });

  it('keeps the text, every other value, what the vendor refuses and unknown fields as sent', () => {
    const base = keyed(request(TTS, BARE)).canonical;
    const variants = [
      { ...BARE, text: 'Hello there,  how are you?' },
      { ...BARE, voice_id: 'birch' },
      { ...BARE, language: 'en' },
      { ...BARE, output_format: { codec: 'pcm' } },
      { ...BARE, output_format: { sample_rate: 44100 } },
      { ...BARE, output_format: { bit_rate: 64000 } },
      // The vendor refuses a null output_format or bit_rate, and a number spelled as a string.
      { ...BARE, output_format: null },
      { ...BARE, output_format: { bit_rate: null } },
      { ...BARE, speed: '1' },
      { ...BARE, speed: 1.2 },
      { ...BARE, optimize_streaming_latency: 2 },
      { ...BARE, text_normalization: true },
      { ...BARE, future_field: true },
    ];
    for (const body of variants) {
      expect([body, keyed(request(TTS, body)).canonical]).not.toEqual([body, base]);
    }
    expect(keyed(request(TTS, BARE, 'POST', 'x=1')).canonical).not.toEqual(base);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(keyed(request(TTS, { text: 'Grüße 🙂' })).chars).toBe([...'Grüße 🙂'].length);
  });

  it('never caches the voice list, another path or a body the vendor refuses for its shape', () => {
    for (const req of [
      request(VOICES, '', 'GET'),
      request(TTS, BARE, 'GET'),
      request('/v1/tts/other', BARE),
      request(TTS, '[1]'),
      request(TTS, 'not json'),
      request(TTS, { voice_id: 'aster' }),
      request(TTS, { text: 5 }),
    ]) {
      expect(vendorFRequestKeying(req)).toEqual({ cacheable: false });
    }
  });

  it('serves synthesis and the voice list, and nothing else', () => {
    expect(dropInServes(vendorFDropIn, 'POST', TTS)).toBe(true);
    expect(dropInServes(vendorFDropIn, 'GET', VOICES)).toBe(true);
    for (const [method, path] of [
      ['GET', TTS],
      ['POST', VOICES],
      ['POST', `${TTS}/`],
      ['POST', '/v1/ttsx'],
      ['GET', '/v1/tts/voices/aster'],
      ['POST', '/v2/tts'],
    ] as const) {
      expect([method, path, dropInServes(vendorFDropIn, method, path)]).toEqual([method, path, false]);
    }
  });
});

describe('vendor_f drop-in answers', () => {
  /** `count` MPEG-2 layer III frames at 24000 Hz, 48 kb/s (the vendor's default codec and rate): 24 ms each. */
  const mp3Frames = (count: number): Buffer => {
    const frame = Buffer.alloc(144);
    frame.set([0xff, 0xf3, 0x64, 0xc4]);
    return Buffer.concat(Array.from({ length: count }, () => frame));
  };

  it('takes the audio as whole once its frames are whole and long enough, stored byte for byte', () => {
    const read = (audio: Buffer) => {
      const reading = vendorFDropIn.readAnswer(request(TTS, BARE), {
        status: 200,
        headers: { 'content-type': 'audio/mpeg' },
      });
      // Chunks split anywhere, frames too.
      for (let at = 0; at < audio.length; at += 1000) reading.push(audio.subarray(at, at + 1000));
      return { verdict: reading.end(), stored: reading.stored(audio) };
    };
    const whole = mp3Frames(42);
    expect(read(whole).verdict).toEqual({ complete: true });
    expect(read(whole).stored.equals(whole)).toBe(true);
    // Ended early but cleanly: inside a frame, or at a frame's end with less audio than the text needs.
    expect(read(whole.subarray(0, 1000)).verdict).toEqual({
      complete: false,
      reason: AUDIO_NOT_WHOLE.partialFrame,
    });
    expect(read(mp3Frames(5)).verdict).toEqual({ complete: false, reason: AUDIO_NOT_WHOLE.tooShort });
  });

  it('takes a WAV answer as whole only once it holds the samples its header gives', () => {
    const header = Buffer.alloc(44);
    header.write('RIFF', 0, 'latin1');
    header.writeUInt32LE(36 + 100, 4);
    header.write('WAVEfmt ', 8, 'latin1');
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(16000, 24);
    header.writeUInt32LE(32000, 28);
    header.writeUInt16LE(2, 32);
    header.writeUInt16LE(16, 34);
    header.write('data', 36, 'latin1');
    header.writeUInt32LE(100, 40);
    const read = (samples: number) => {
      const reading = vendorFDropIn.readAnswer(request(TTS, { ...BARE, output_format: { codec: 'wav' } }), {
        status: 200,
        headers: { 'content-type': 'audio/wav' },
      });
      reading.push(header);
      reading.push(Buffer.alloc(samples));
      return reading.end();
    };
    // 100 bytes at 16 kHz are 3 ms, far short of the text: only the header's size is checked here.
    expect(read(100)).toMatchObject({ complete: false, reason: AUDIO_NOT_WHOLE.tooShort });
    expect(read(60)).toEqual({ complete: false, reason: AUDIO_NOT_WHOLE.wavShort });
  });

  it("passes the content type and a refusal's Retry-After, and replays only the content type", () => {
    const { keyed: keyedHeaders, passed, liveOnly } = vendorFDropIn.headers;
    expect(keyedHeaders).toEqual([]);
    expect(passed).toEqual(['content-type', 'retry-after']);
    expect(passed.filter((name) => !liveOnly.includes(name))).toEqual(['content-type']);
  });

  it("refuses a body it will not walk with the vendor gateway's 400", () => {
    const reply = vendorFDropIn.invalidBody({ field: 'text', message: 'text nests past 32 levels' });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body.toString())).toEqual({
      code: 'Bad Request',
      error: 'text nests past 32 levels',
    });
  });
});

describe('vendor_f request labels', () => {
  const labels = (req: DropInRequest) => requestLabels(vendorFDropIn, vendorFDropIn.keying(req));

  it("names the vendor's one model and the body's voice_id as the vendor reads it, its default where left out", () => {
    expect(labels(request(TTS, { ...BARE, voice_id: 'Brook' }))).toEqual({
      model: VENDOR_F_MODEL,
      voice: 'brook',
    });
    expect(labels(request(TTS, BARE))).toEqual({ model: VENDOR_F_MODEL, voice: VENDOR_F_DEFAULTS.voice });
  });

  it('names nothing of the voice list', () => {
    expect(labels(request(VOICES, '', 'GET'))).toEqual({ model: '', voice: '' });
  });
});
