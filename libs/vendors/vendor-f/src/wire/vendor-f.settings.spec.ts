import { type ClientSettings, resolveSettings } from '@router/vendors-core';
import { vendorF } from '../vendor-f.definition';
import { VENDOR_F_CODECS } from './vendor-f.formats';
import { parseVendorFSettings, querySettings, restSettings, vendorFBody } from './vendor-f.requests';
import { vendorFSocketSettings, vendorFSynthSettings } from './vendor-f.settings';

const anyVoice = (id: string) => ({ voice_id: id.toLowerCase() });

function socketSettings(query: string) {
  const settings = vendorFSocketSettings(new URLSearchParams(query));
  if (!settings.ok) throw new Error(settings.message);
  return settings.settings;
}

describe('vendor_f settings for the mirror', () => {
  it('gives a socket the SynthSettings a /v1/stream client with equal settings gets', () => {
    const native = (client: Partial<ClientSettings>) =>
      resolveSettings(vendorF, { model: 'f_model_1', voice: 'coral', options: {}, ...client }, 'stream');
    expect(socketSettings('voice=coral&codec=pcm&sample_rate=16000')).toEqual(
      native({ format: 'pcm', sampleRate: 16000 }),
    );
    // The vendor's defaults (mp3 at 24 kHz and 128 kbps) are the native ones, and a language is kept.
    expect(socketSettings('voice=coral&language=de')).toEqual(native({ language: 'de' }));
    expect(
      socketSettings(
        'voice=coral&codec=mp3&sample_rate=44100&bit_rate=64000&speed=1.2&optimize_streaming_latency=2' +
          '&text_normalization=true',
      ),
    ).toEqual(
      native({
        format: 'mp3',
        sampleRate: 44100,
        speed: 1.2,
        options: { bit_rate: 64000, optimize_streaming_latency: 2, text_normalization: true },
      }),
    );
  });

  it('reads what the vendor fills when left out as left out, and a voice in any case as the same voice', () => {
    const bare = socketSettings('codec=pcm&sample_rate=16000');
    expect(bare).toMatchObject({ voice: 'aster', language: null, speed: 1, options: {} });
    for (const same of [
      'voice=Aster&codec=pcm&sample_rate=16000',
      'codec=pcm&sample_rate=16000&language=auto&speed=1.0&optimize_streaming_latency=0&text_normalization=false',
      // Any spelling of a boolean, as every mirror reads one.
      'codec=pcm&sample_rate=16000&text_normalization=False',
      'codec=pcm&sample_rate=16000&text_normalization=0',
      // `with_timestamps` changes the frames, not the audio; an unknown parameter the vendor ignores.
      'codec=pcm&sample_rate=16000&with_timestamps=true&unknown=1',
    ]) {
      expect([same, socketSettings(same)]).toEqual([same, bare]);
    }
  });

  it('refuses what the vendor refuses at the upgrade, in its words', () => {
    for (const [query, message] of [
      ['codec=opus', 'codec must be one of mp3, wav, pcm, mulaw, alaw'],
      ['codec=pcm&sample_rate=32000', 'sample_rate must be one of'],
      ['codec=wav&bit_rate=64000', 'bit_rate is only supported for mp3'],
      ['speed=2', 'speed must be between 0.7 and 1.5'],
      ['optimize_streaming_latency=3', 'optimize_streaming_latency must be 0, 1 or 2'],
      ['text_normalization=yes', 'text_normalization must be a boolean'],
      ['language=xx', 'unsupported language'],
      ['voice=', 'voice_id must be a non-empty string'],
    ] as const) {
      const settings = vendorFSocketSettings(new URLSearchParams(query));
      expect([query, settings.ok]).toEqual([query, false]);
      if (!settings.ok) expect(settings.message).toContain(message);
    }
  });

  it.each(VENDOR_F_CODECS)(
    'round-trips %s: the body the adapter builds from a socket’s settings is the vendor reading them',
    (codec) => {
      const query = new URLSearchParams({ voice: 'birch', codec, sample_rate: '22050', speed: '0.8' });
      const parsed = parseVendorFSettings(querySettings(query), anyVoice);
      if (!parsed.ok) throw new Error(parsed.problem.message);
      const body = JSON.parse(
        JSON.stringify(vendorFBody(vendorFSynthSettings(parsed.settings), 'Hi.')),
      ) as Record<string, unknown>;
      const raw = restSettings(body);
      if (typeof raw === 'string') throw new Error(raw);
      expect(parseVendorFSettings(raw, anyVoice)).toEqual(parsed);
    },
  );
});
