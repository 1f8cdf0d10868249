import { RouterError } from '@router/contracts';
import { handshakeOf, type SocketCommand, type SocketFrame } from '@router/vendors-core';
import {
  VendorEV1Connection,
  VendorEV2Connection,
  vendorEMirrorSettings,
  vendorESocketRoutes,
} from './vendor-e.mirror-socket';

const message = (value: object): Buffer => Buffer.from(JSON.stringify(value));
const read = (frames: SocketFrame[]): unknown[] =>
  frames.map((f) => (typeof f === 'string' ? JSON.parse(f) : { audio: f.length }));
const sent = (commands: SocketCommand[]): unknown[] =>
  commands.flatMap((c) => (c.kind === 'send' || c.kind === 'refuse' ? [JSON.parse(c.frame)] : []));
const end = (sentence: number, text: string, cached: boolean, durationMs: number) => ({
  sentence,
  text,
  cached,
  bytes: durationMs * 48,
  durationMs,
  words: null,
  chars: null,
});

describe('vendor_e mirror sockets', () => {
  it('reads the handshake query as the router settings /v1/stream gives an equal native client', () => {
    const read = vendorEMirrorSettings(
      'v1',
      new URLSearchParams('model=e_model_2-marisol-es&encoding=mulaw'),
    );
    if (!read.ok) throw new Error(read.message);
    expect(read.settings.at(1.2)).toEqual({
      vendor: 'vendor_e',
      model: 'e_model_2',
      voice: 'marisol-es',
      language: null,
      speed: 1.2,
      sampleRate: 24000,
      format: 'mulaw',
      options: { mip_opt_out: false },
    });
    for (const [flag, optOut] of [
      ['True', true],
      ['1', true],
      ['FALSE', false],
    ] as const) {
      const opted = vendorEMirrorSettings('v1', new URLSearchParams(`mip_opt_out=${flag}`));
      expect([flag, opted.ok && opted.settings.at(1).options]).toEqual([flag, { mip_opt_out: optOut }]);
    }
    expect(vendorEMirrorSettings('v1', new URLSearchParams('mip_opt_out=yes'))).toEqual({
      ok: false,
      message: 'mip_opt_out must be true or false',
    });
    expect(vendorEMirrorSettings('v2', new URLSearchParams('model=e_model_1-orla-en'))).toEqual({
      ok: false,
      message: 'Model e_model_1-orla-en is not available on /v2/speak',
    });
    expect(vendorEMirrorSettings('v1', new URLSearchParams('model=e_model_0-vesper-en'))).toMatchObject({
      ok: false,
    });
  });

  it("refuses a bad query at the upgrade with the vendor's 400", () => {
    const [v1] = vendorESocketRoutes;
    const reply = v1?.refuse?.(handshakeOf({ sample_rate: '44100' }));
    expect(reply?.status).toBe(400);
    expect(JSON.parse(String(reply?.body))).toEqual({
      err_code: 'INVALID_QUERY_PARAMETER',
      err_msg: 'sample_rate must be one of 8000, 16000, 24000, 32000, 48000',
      request_id: expect.any(String),
    });
    expect(v1?.refuse?.(handshakeOf())).toBeUndefined();
  });

  it('declares a second-generation model as how clients open /v2/speak, which it accepts; v1 opens bare', () => {
    const [v1, v2] = vendorESocketRoutes;
    expect(v1?.openings).toBeUndefined();
    expect(v2?.refuse?.(handshakeOf())?.status).toBe(400);
    expect(v2?.openings).toEqual([{ query: [['model', 'e_model_3-orla-en']] }]);
    const [opening] = v2?.openings ?? [];
    expect(v2?.refuse?.(handshakeOf(Object.fromEntries(opening?.query ?? [])))).toBeUndefined();
  });

  describe('/v1/speak', () => {
    it('numbers flushes and clears with one rising sequence_id, and refuses what it cannot read with 1008', () => {
      const c = new VendorEV1Connection(handshakeOf());
      expect(sent(c.opened())).toEqual([
        expect.objectContaining({
          type: 'Metadata',
          model_name: 'e_model_1-orla-en',
          model_version: 'unknown',
        }),
      ]);
      expect(c.parse(message({ type: 'Speak', text: 'Hi.' }), false).map((x) => x.kind)).toEqual([
        'configure',
        'text',
      ]);
      expect(c.parse(message({ type: 'Flush' }), false)).toEqual([
        { kind: 'flush', context: 'speech', tag: '0' },
      ]);
      expect(c.parse(message({ type: 'Clear' }), false)).toEqual([{ kind: 'cancel', context: 'speech' }]);
      const render = c.context();
      expect(read(render.flushed('0'))).toEqual([{ type: 'Flushed', sequence_id: 0 }]);
      expect(
        read(render.finished({ kind: 'cancel', stopped: true, spoken: [], remaining: [], unanswered: [] })),
      ).toEqual([{ type: 'Cleared', sequence_id: 1 }]);
      const [refused] = c.parse(Buffer.from('nope'), false);
      expect(refused).toEqual({
        kind: 'refuse',
        frame: JSON.stringify({ type: 'Error', code: 'DATA-0000', description: 'Messages must be JSON' }),
        close: { code: 1008, reason: 'DATA-0000' },
      });
      const big = c.parse(message({ type: 'Speak', text: 'x'.repeat(2001) }), false)[0];
      expect(big).toMatchObject({ kind: 'refuse', close: { code: 1009, reason: 'BIG-0000' } });
    });
  });

  it("closes a failed sentence with 1011, but one failed for the org's missing vendor_e key with 1008, naming it", () => {
    for (const c of [new VendorEV1Connection(handshakeOf()), new VendorEV2Connection(handshakeOf())]) {
      const render = c.context();
      const failed = render.failed(new RouterError('provider_unavailable', 'The vendor failed.'), {
        sentence: 0,
      });
      expect(failed.close).toEqual({ code: 1011, reason: 'NET-0000' });
      const keyless = render.failed(
        new RouterError('provider_key_missing', 'No vendor_e key is stored for this org.'),
        { sentence: 0 },
      );
      expect(read(keyless.frames)).toEqual([
        { type: 'Error', code: 'NET-0000', description: 'No vendor_e key is stored for this org.' },
      ]);
      expect(keyless.close).toEqual({ code: 1008, reason: 'NET-0000' });
    }
  });

  describe('/v2/speak', () => {
    function v2() {
      let n = 0;
      const c = new VendorEV2Connection(handshakeOf({ model: 'e_model_3-orla-en' }), () => `s-${++n}`);
      c.opened();
      return c;
    }

    it('renders a turn: SpeechStarted before its audio, then Flushed and SpeechMetadata billing only what the vendor said', () => {
      const c = v2();
      c.parse(message({ type: 'Speak', text: 'One. Two.' }), false);
      expect(c.parse(message({ type: 'Flush' }), false)).toEqual([
        { kind: 'flush', context: 'speech', tag: 's-1' },
      ]);
      const r = c.context();
      expect(read(r.audio(Buffer.alloc(96), { sentence: 0, first: true, cached: true }))).toEqual([
        { type: 'SpeechStarted', speech_id: 's-1' },
        { audio: 96 },
      ]);
      r.sentenceEnd(end(0, 'One.', true, 2));
      r.audio(Buffer.alloc(48), { sentence: 1, first: true, cached: false });
      r.sentenceEnd(end(1, 'Two.', false, 1));
      expect(read(r.flushed('s-1'))).toEqual([
        { type: 'Flushed', speech_id: 's-1' },
        {
          type: 'SpeechMetadata',
          speech_id: 's-1',
          audio_duration_ms: 3,
          input_character_count: 9,
          billable_character_count: 4,
          controls_applied: { pronunciations_applied: 0, pronunciation_warnings: 0 },
        },
      ]);
      expect(read(c.closing())).toEqual([
        {
          type: 'SessionMetadata',
          total_audio_duration_ms: 3,
          total_input_character_count: 9,
          total_billable_character_count: 4,
        },
      ]);
      const empty = [{ type: 'Warning', code: 'EMPTY_TURN', description: 'Flush with no text' }];
      expect(sent(c.parse(message({ type: 'Flush' }), false))).toEqual(empty);
      // White space alone is no turn either: nothing is left to interrupt.
      c.parse(message({ type: 'Speak', text: '  ' }), false);
      expect(sent(c.parse(message({ type: 'Flush' }), false))).toEqual(empty);
      expect(sent(c.parse(message({ type: 'Interrupt' }), false))).toEqual([
        expect.objectContaining({ code: 'NO_ACTIVE_SPEECH' }),
      ]);
    });

    it("counts an Interrupt's playback_offset from the start of the turn playing, and splits its text there", () => {
      const c = v2();
      c.parse(message({ type: 'Speak', text: 'Before.' }), false);
      c.parse(message({ type: 'Flush' }), false);
      const r = c.context();
      r.audio(Buffer.alloc(48), { sentence: 0, first: true, cached: false });
      r.sentenceEnd(end(0, 'Before.', false, 500));
      r.flushed('s-1');
      c.parse(message({ type: 'Speak', text: 'One. Two. Three' }), false);
      r.audio(Buffer.alloc(48), { sentence: 1, first: true, cached: false });
      r.sentenceEnd(end(1, 'One.', false, 300));
      expect(c.parse(message({ type: 'Interrupt', playback_offset: 350 }), false)).toEqual([
        { kind: 'cancel', context: 'speech', playedMs: 850 },
      ]);
      const spoken = [
        { sentence: 0, text: 'Before.' },
        { sentence: 1, text: 'One.' },
        { sentence: 2, text: 'Two.' },
      ];
      expect(
        read(r.finished({ kind: 'cancel', stopped: true, spoken, remaining: ['Three'], unanswered: [] })),
      ).toEqual([
        {
          type: 'SpeechInterrupted',
          speech_id: 's-2',
          audio_played_ms: 350,
          text_spoken: 'One. Two.',
          text_remaining: 'Three',
        },
      ]);
      // The next turn needs the settings again (the interrupted context ended), and nothing plays now.
      expect(sent(c.parse(message({ type: 'Interrupt' }), false))).toEqual([
        { type: 'Warning', code: 'NO_ACTIVE_SPEECH', description: 'Nothing to interrupt' },
      ]);
      expect(c.parse(message({ type: 'Speak', text: 'Next.' }), false).map((x) => x.kind)).toEqual([
        'configure',
        'text',
      ]);
      expect(c.parse(message({ type: 'Interrupt', playback_offset: 'soon' }), false)[0]).toMatchObject({
        kind: 'refuse',
        close: { code: 1008, reason: 'DATA-0000' },
      });
    });

    it("reports only the interrupted turn's own rest, and drops the turns sent after it unreported", () => {
      const c = v2();
      c.parse(message({ type: 'Speak', text: 'One. Two. Three.' }), false);
      c.parse(message({ type: 'Flush' }), false);
      c.parse(message({ type: 'Speak', text: 'A later turn. Already' }), false);
      expect(c.parse(message({ type: 'Flush' }), false)).toEqual([
        { kind: 'flush', context: 'speech', tag: 's-2' },
      ]);
      c.parse(message({ type: 'Speak', text: 'One still being written' }), false);
      const r = c.context();
      r.audio(Buffer.alloc(48), { sentence: 0, first: true, cached: false });
      r.sentenceEnd(end(0, 'One.', false, 300));
      r.audio(Buffer.alloc(48), { sentence: 1, first: true, cached: false });
      expect(c.parse(message({ type: 'Interrupt', playback_offset: 100 }), false)).toEqual([
        { kind: 'cancel', context: 'speech', playedMs: 100 },
      ]);
      const cut = {
        kind: 'cancel',
        stopped: true,
        spoken: [{ sentence: 0, text: 'One.' }],
        remaining: ['Two.', 'Three.', 'A later turn.', 'Already', 'One still being written'],
        unanswered: [
          { tag: 's-1', through: 2 },
          { tag: 's-2', through: 4 },
        ],
      } as const;
      expect(read(r.finished(cut))).toEqual([
        {
          type: 'SpeechInterrupted',
          speech_id: 's-1',
          audio_played_ms: 100,
          text_spoken: 'One.',
          text_remaining: 'Two. Three.',
        },
      ]);
      // The later turns went with the interrupt: nothing is left to interrupt, and none counts in the session.
      expect(sent(c.parse(message({ type: 'Interrupt' }), false))).toEqual([
        { type: 'Warning', code: 'NO_ACTIVE_SPEECH', description: 'Nothing to interrupt' },
      ]);
      expect(read(c.closing())).toEqual([
        {
          type: 'SessionMetadata',
          total_audio_duration_ms: 0,
          total_input_character_count: 0,
          total_billable_character_count: 0,
        },
      ]);
    });

    it('applies Configure to the sentences that follow and acknowledges it; a refused one is not fatal', () => {
      const c = v2();
      c.parse(message({ type: 'Speak', text: 'Hi.' }), false);
      const [ack, configure] = c.parse(message({ type: 'Configure', speed: 0.9 }), false);
      expect(sent(ack ? [ack] : [])).toEqual([{ type: 'ConfigureSuccess', applied: { speed: 0.9 } }]);
      expect(configure).toMatchObject({ kind: 'configure', settings: { speed: 0.9, model: 'e_model_3' } });
      expect(sent(c.parse(message({ type: 'Configure', speed: 2 }), false))).toEqual([
        expect.objectContaining({ type: 'ConfigureFailure', field: 'speed', value: 2 }),
      ]);
    });
  });
});
