import type { SynthSettings } from '@router/contracts';
import { resolveSettings, type ClientSettings } from '@router/vendors-core';
import { vendorC } from '../vendor-c.definition';
import { parseDialogueRequest, parseOutputQuery, parseTtsRequest } from './vendor-c.requests';
import {
  dialogueSettingsSource,
  socketSettingsSource,
  ttsSettingsSource,
  vendorCRequest,
  vendorCSynthSettings,
} from './vendor-c.settings';
import { parseSocketQuery, parseStreamInputMessage } from './vendor-c.socket';

const noVoiceProblem = (): undefined => undefined;

/** Settings as /v1/stream resolves them from a native client's settings message (libs/native stream-messages). */
function nativeSettings(client: Partial<ClientSettings>): SynthSettings {
  return resolveSettings(vendorC, { model: 'c_model_3', voice: 'voice_1', options: {}, ...client }, 'stream');
}

/** The request the adapter sends for `settings`, read back as the simulator and the mirror read it. */
function readBack(settings: SynthSettings): ReturnType<typeof vendorCSynthSettings> {
  const built = vendorCRequest(settings, 'Hello there.');
  const url = new URL(built.path, 'http://vendor.invalid');
  const output = parseOutputQuery(url.searchParams);
  if (!output.ok) throw new Error(`output query refused: ${JSON.stringify(output)}`);
  const dialogue = url.pathname.startsWith('/v1/text-to-dialogue');
  if (dialogue) {
    const request = parseDialogueRequest(built.body, noVoiceProblem);
    if (!request.ok) throw new Error(`dialogue body refused: ${JSON.stringify(request)}`);
    return vendorCSynthSettings(dialogueSettingsSource(output.value, request.value, url.searchParams));
  }
  const voiceId = decodeURIComponent(url.pathname.split('/')[3] ?? '');
  const request = parseTtsRequest(built.body, voiceId, noVoiceProblem);
  if (!request.ok) throw new Error(`body refused: ${JSON.stringify(request)}`);
  return vendorCSynthSettings(ttsSettingsSource(output.value, request.value, url.searchParams));
}

const CASES: readonly { name: string; client: Partial<ClientSettings> }[] = [
  { name: 'every default', client: {} },
  { name: 'a voice id that needs escaping', client: { voice: 'voice/1' } },
  { name: 'a language', client: { language: 'de' } },
  { name: 'pcm at 16000 Hz', client: { format: 'pcm', sampleRate: 16000 } },
  { name: 'wav at 48000 Hz', client: { format: 'wav', sampleRate: 48000 } },
  { name: 'mulaw', client: { format: 'mulaw' } },
  { name: 'alaw', client: { format: 'alaw' } },
  { name: 'mp3 at 22050 Hz', client: { format: 'mp3', sampleRate: 22050 } },
  { name: 'mp3 at 64 kbps', client: { format: 'mp3', sampleRate: 44100, options: { bitrate: '64k' } } },
  {
    name: 'voice settings',
    client: { options: { voice_settings: { stability: 0.4, similarity_boost: 0.8, speed: 1.1 } } },
  },
  {
    name: 'logging off, SSML on, normalization off',
    client: {
      options: { enable_logging: false, enable_ssml_parsing: true, apply_text_normalization: 'off' },
    },
  },
  {
    name: 'dictionaries and Japanese normalization',
    client: {
      language: 'ja',
      options: {
        pronunciation_dictionary_locators: [
          { pronunciation_dictionary_id: 'dict_1', version_id: 'v3' },
          { pronunciation_dictionary_id: 'dict_2' },
        ],
        apply_language_text_normalization: true,
      },
    },
  },
  { name: 'a dialogue model', client: { model: 'c_model_8' } },
  {
    name: 'a dialogue model with its stability',
    client: { model: 'c_model_9', options: { voice_settings: { stability: 0.5 } } },
  },
];

describe('vendor_c settings → vendor request → settings', () => {
  it.each(CASES)('$name: the request read back is the same SynthSettings', ({ client }) => {
    const settings = nativeSettings(client);
    expect(readBack(settings)).toEqual({ settings });
  });

  it('keeps the fields that change the audio but no setting carries as options of their own, sent on', () => {
    const url = new URLSearchParams({ output_format: 'pcm_24000' });
    const output = parseOutputQuery(url);
    const request = parseTtsRequest({ text: 'Hi.', seed: 7, previous_text: 'Before.' }, 'v', noVoiceProblem);
    if (!output.ok || !request.ok) throw new Error('refused');
    const { settings } = vendorCSynthSettings(ttsSettingsSource(output.value, request.value, url));
    expect(settings.options).toMatchObject({ seed: 7, previous_text: 'Before.' });
    expect(vendorCRequest(settings, 'Hi.').body).toMatchObject({ seed: 7, previous_text: 'Before.' });
    expect(readBack(settings)).toEqual({ settings });
  });

  it('reads opus, which no native client can ask for, as format opus with its bitrate, and back', () => {
    const url = new URLSearchParams({ output_format: 'opus_48000_64' });
    const output = parseOutputQuery(url);
    const request = parseTtsRequest({ text: 'Hi.' }, 'voice_1', noVoiceProblem);
    if (!output.ok || !request.ok) throw new Error('refused');
    const { settings } = vendorCSynthSettings(ttsSettingsSource(output.value, request.value, url));
    expect(settings).toEqual({
      ...nativeSettings({ format: 'pcm', sampleRate: 48000 }),
      format: 'opus',
      options: { ...nativeSettings({ format: 'pcm', sampleRate: 48000 }).options, bitrate: '64k' },
    });
    expect(readBack(settings)).toEqual({ settings });
  });

  it('keeps a voice-settings field the router does not know, as the vendor reads it, and sends it on', () => {
    const url = new URLSearchParams();
    const output = parseOutputQuery(url);
    const request = parseTtsRequest({ text: 'Hi.', voice_settings: { loudness: 2 } }, 'v', noVoiceProblem);
    if (!output.ok || !request.ok) throw new Error('refused');
    const { settings } = vendorCSynthSettings(ttsSettingsSource(output.value, request.value, url));
    expect(settings.options['voice_settings']).toEqual({ loudness: 2 });
    expect(vendorCRequest(settings, 'Hi.').body['voice_settings']).toEqual({ loudness: 2 });
  });
});

describe('a stream-input socket and /v1/stream with equal settings', () => {
  /** What a vendor_c client opens and says first, read as the mirror reads it. */
  function socketSettings(query: Record<string, string>, init: Record<string, unknown>): SynthSettings {
    const parsed = parseSocketQuery(new URLSearchParams(query));
    if (!parsed.ok) throw new Error(parsed.message);
    return vendorCSynthSettings(
      socketSettingsSource('voice_1', parsed.value, parseStreamInputMessage({ text: ' ', ...init })),
    ).settings;
  }

  it("the vendor's defaults are the router's mp3 at 44100 Hz (not its 24000 Hz default)", () => {
    expect(socketSettings({}, {})).toEqual(nativeSettings({ format: 'mp3', sampleRate: 44100 }));
    expect(socketSettings({}, {})).not.toEqual(nativeSettings({}));
  });

  it('model, language, pcm and voice settings', () => {
    const voiceSettings = { stability: 0.3, similarity_boost: 0.7, style: 0.2, use_speaker_boost: true };
    expect(
      socketSettings(
        { model_id: 'c_model_5', language_code: 'fr', output_format: 'pcm_24000' },
        { voice_settings: voiceSettings, vendor_c_api_key: 'key' },
      ),
    ).toEqual(
      nativeSettings({
        model: 'c_model_5',
        language: 'fr',
        format: 'pcm',
        sampleRate: 24000,
        options: { voice_settings: voiceSettings },
      }),
    );
  });

  it('logging off, SSML on, text normalization on, mp3 at 192 kbps', () => {
    expect(
      socketSettings(
        {
          output_format: 'mp3_44100_192',
          enable_logging: 'false',
          enable_ssml_parsing: 'true',
          apply_text_normalization: 'on',
        },
        {},
      ),
    ).toEqual(
      nativeSettings({
        format: 'mp3',
        sampleRate: 44100,
        options: {
          bitrate: '192k',
          enable_logging: false,
          enable_ssml_parsing: true,
          apply_text_normalization: 'on',
        },
      }),
    );
  });

  it("reads {} (or fields all null) as the voice's stored settings, as if left out", () => {
    expect(socketSettings({}, { voice_settings: {} })).toEqual(socketSettings({}, {}));
    expect(socketSettings({}, { voice_settings: { stability: null, speed: null } })).toEqual(
      socketSettings({}, {}),
    );
  });

  it("refuses what the vendor refuses, in the vendor's words", () => {
    /** The settings of a context whose opening message sent these, read as the socket codecs pass them on. */
    const opened =
      (init: Record<string, unknown>, query: Record<string, string> = {}) =>
      () => {
        const parsed = parseSocketQuery(new URLSearchParams(query));
        if (!parsed.ok) throw new Error(parsed.message);
        const source = socketSettingsSource('voice_1', parsed.value, {
          voiceSettings: init['voice_settings'] as Record<string, unknown> | undefined,
          pronunciationDictionaryLocators: init['pronunciation_dictionary_locators'],
        });
        return vendorCSynthSettings(source);
      };
    const refusal = (message: string) => expect.objectContaining({ code: 'bad_request', message });
    expect(opened({ voice_settings: { speed: 1.3 } })).toThrow(
      refusal('voice_settings.speed: ensure this value is less than or equal to 1.2'),
    );
    expect(opened({ voice_settings: { stability: 'high' } })).toThrow(
      refusal('voice_settings.stability: value is not a valid float'),
    );
    expect(
      opened({
        pronunciation_dictionary_locators: ['a', 'b', 'c', 'd'].map((id) => ({
          pronunciation_dictionary_id: id,
        })),
      }),
    ).toThrow(refusal('pronunciation_dictionary_locators: ensure this value has at most 3 items'));
    expect(opened({ pronunciation_dictionary_locators: [{ version_id: 'v1' }] })).toThrow(
      refusal('pronunciation_dictionary_locators.0.pronunciation_dictionary_id: field required'),
    );
    expect(
      opened({ voice_settings: { stability: 0.5, similarity_boost: 0.5 } }, { model_id: 'c_model_8' }),
    ).toThrow(refusal('voice_settings.similarity_boost: extra fields not permitted'));
  });

  it('keeps a seed the socket query sends as an option of its own, which reaches the vendor and the key', () => {
    const seeded = socketSettings({ seed: '42' }, {});
    expect(seeded).toEqual({
      ...socketSettings({}, {}),
      options: { ...socketSettings({}, {}).options, seed: 42 },
    });
    expect(vendorCRequest(seeded, 'Hi.').body['seed']).toBe(42);
  });

  it('keeps partial voice settings as sent (checked by the same field rules), each apart from the others', () => {
    const faster = socketSettings({}, { voice_settings: { speed: 1.1 } });
    expect(faster).toEqual({
      ...socketSettings({}, {}),
      options: { ...faster.options, voice_settings: { speed: 1.1 } },
    });
    expect(socketSettings({}, { voice_settings: { speed: 1.1, similarity_boost: null } })).toEqual(faster);
    expect(socketSettings({}, { voice_settings: { speed: 1.2 } })).not.toEqual(faster);
    expect(socketSettings({}, { voice_settings: { style: 0.3 } }).options['voice_settings']).toEqual({
      style: 0.3,
    });
    expect(
      socketSettings({}, { voice_settings: { loudness: 2, speed: 1.1 } }).options['voice_settings'],
    ).toEqual({
      speed: 1.1,
      loudness: 2,
    });
    expect(
      socketSettings({ model_id: 'c_model_8' }, { voice_settings: {} }).options['voice_settings'],
    ).toBeUndefined();
  });

  it('the socket and the REST request for the same settings agree', () => {
    const settings = nativeSettings({ format: 'wav', sampleRate: 22050 });
    expect(socketSettings({ output_format: 'wav_22050' }, {})).toEqual(readBack(settings).settings);
  });
});
