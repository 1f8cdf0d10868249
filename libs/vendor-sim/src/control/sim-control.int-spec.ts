import { readTakeId } from '../kit/audio/read-take-id';
import { simKeyId } from '../kit/sim-keys';
import { joinAudio, openProbe, readTimed, sendJson, useTestSim } from '../test/sim-harness';
import { BASE_VOICES } from '../vendor-c/vendor-c.voices';

const VOICE_C = BASE_VOICES[0]?.voice_id ?? '';

describe('vendor-sim control, pacing and faults', () => {
  const t = useTestSim();
  const vendorA = (path: string, body: Record<string, unknown>, key = 'a-key', signal?: AbortSignal) =>
    sendJson(`${t.base('vendor_a')}${path}`, {
      body: { target_language_code: 'hi-IN', ...body },
      headers: { 'api-subscription-key': key },
      ...(signal ? { signal } : {}),
    });
  const vendorB = (path: string, text: string, key = 'b-key', signal?: AbortSignal) =>
    sendJson(`${t.base('vendor_b')}${path}`, {
      body: { text, voice_id: 'b_voice_hi_f1' },
      headers: { 'x-api-key': key },
      ...(signal ? { signal } : {}),
    });
  const vendorC = (path: string, text: string, query = '?output_format=pcm_8000', key = 'c-key') =>
    sendJson(`${t.base('vendor_c')}/v1/text-to-speech/${VOICE_C}${path}${query}`, {
      body: { text },
      headers: { 'vendor_c-api-key': key },
    });

  it('serves health, readiness and metrics on the same port', async () => {
    expect(await (await fetch(`${t.sim.url}/healthz`)).json()).toEqual({
      status: 'ok',
      service: 'vendor-sim-test',
    });
    expect((await fetch(`${t.sim.url}/readyz`)).status).toBe(200);
    await vendorB('/v1/text-to-speech', 'Hello.');
    const metrics = await (await fetch(`${t.sim.url}/metrics`)).text();
    expect(metrics).toMatch(/vendor_sim_calls_total\{[^}]*vendor="vendor_b"[^}]*\} 1/);
  });

  it('answers unknown vendors and paths with 404', async () => {
    expect((await fetch(`${t.sim.url}/vendor_z/v1/voices`)).status).toBe(404);
    expect((await fetch(`${t.base('vendor_c')}/v1/nothing`)).status).toBe(404);
    expect((await fetch(`${t.base('vendor_c')}/v1/voices`, { method: 'DELETE' })).status).toBe(405);
  });

  describe('call counters', () => {
    it('counts calls per vendor, key and endpoint, and never returns text', async () => {
      await vendorB('/v1/text-to-speech', 'One.', 'key-1');
      await vendorB('/v1/text-to-speech', 'Two two.', 'key-1');
      await (await vendorB('/v1/text-to-speech/stream', 'Three.', 'key-2')).text();
      await vendorA('/text-to-speech', { text: 'Four.' }, 'key-1');
      expect(await t.control.callCount('vendor_b', { key: 'key-1' })).toBe(2);
      expect(await t.control.callCount('vendor_b', { key: 'key-2', endpoint: 'sse' })).toBe(1);
      expect(await t.control.callCount('vendor_b', { key: 'key-2', endpoint: 'rest' })).toBe(0);
      expect(await t.control.callCount('vendor_b')).toBe(3);
      expect(await t.control.callCount('vendor_a', { key: 'key-1' })).toBe(1);
      expect(await t.control.callCounts()).toEqual({
        vendor_b: { [simKeyId('key-1')]: { rest: 2 }, [simKeyId('key-2')]: { sse: 1 } },
        vendor_a: { [simKeyId('key-1')]: { rest: 1 } },
      });
      const calls = await t.control.calls('vendor_b', { key: 'key-1' });
      expect(calls.map((c) => c.chars)).toEqual([4, 8]);
      expect(Object.keys(calls[0] ?? {}).sort()).toEqual([
        'at',
        'chars',
        'endpoint',
        'fault',
        'keyId',
        'seq',
        'takeId',
        'vendor',
      ]);
      expect(JSON.stringify(calls)).not.toContain('One.');
      expect(JSON.stringify(calls)).not.toContain('key-1');
    });
  });

  describe('pacing', () => {
    it('holds the first audio for ttfaMs, per vendor', async () => {
      await t.control.setPacing('vendor_b', { ttfaMs: 150 });
      expect((await t.control.pacing())['vendor_b']).toMatchObject({ ttfaMs: 150, factor: 0 });
      const started = Date.now();
      const { firstByteMs } = await readTimed(await vendorB('/v1/text-to-speech/stream', 'Paced.'), started);
      expect(firstByteMs).toBeGreaterThanOrEqual(140);
    });

    it('delivers audio no faster than playback at factor 1', async () => {
      await t.control.setPacing('all', { factor: 1, ttfaMs: 0 });
      const text = 'Five.'; // 300 ms of audio
      const restStart = Date.now();
      await (await vendorC('', text)).arrayBuffer();
      expect(Date.now() - restStart).toBeGreaterThanOrEqual(290);
      const streamStart = Date.now();
      await readTimed(await vendorC('/stream', text), streamStart);
      // The last 100 ms piece leaves when playback reaches it.
      expect(Date.now() - streamStart).toBeGreaterThanOrEqual(190);
    });

    it('is restored by reset', async () => {
      await t.control.setPacing('all', { ttfaMs: 999 });
      await t.control.reset();
      expect((await t.control.pacing())['all']).toMatchObject({ ttfaMs: 5, factor: 0 });
    });
  });

  describe('faults', () => {
    it('answers an error fault in the vendor shape, once by default', async () => {
      const fault = await t.control.injectFault({ vendor: 'vendor_a', kind: 'error', status: 503 });
      const failed = await vendorA('/text-to-speech', { text: 'Hello.' });
      expect(failed.status).toBe(503);
      expect(((await failed.json()) as { error: { code: string } }).error.code).toBe(
        'rate_limit_exceeded_error',
      );
      expect((await vendorA('/text-to-speech', { text: 'Hello.' })).status).toBe(200);
      expect(await t.control.faults()).toEqual([
        expect.objectContaining({ id: fault.id, fired: 1, matched: 2 }),
      ]);
      expect((await t.control.calls('vendor_a')).map((c) => c.fault)).toEqual(['error', null]);
    });

    it('takes a code override and matches on key, endpoint and text', async () => {
      await t.control.injectFault({
        vendor: 'vendor_c',
        kind: 'error',
        status: 429,
        code: 'system_busy',
        key: 'c-busy',
        textIncludes: 'busy',
        times: 'always',
      });
      const hit = await vendorC('', 'I am busy.', undefined, 'c-busy');
      expect(hit.status).toBe(429);
      expect(((await hit.json()) as { detail: { status: string } }).detail.status).toBe('system_busy');
      expect((await vendorC('', 'I am busy.', undefined, 'c-other')).status).toBe(200);
      expect((await vendorC('', 'I am free.', undefined, 'c-busy')).status).toBe(200);
      expect((await vendorC('', 'Still busy.', undefined, 'c-busy')).status).toBe(429);
      await t.control.clearFaults();
      expect((await vendorC('', 'Still busy.', undefined, 'c-busy')).status).toBe(200);
    });

    it('fires on the nth matching call only', async () => {
      await t.control.injectFault({ vendor: 'vendor_b', endpoint: 'rest', kind: 'error', nth: 2 });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await vendorB('/v1/text-to-speech', 'Hi.')).status);
      expect(statuses).toEqual([200, 500, 200]);
    });

    it('sends an SSE error event after some audio, with no done', async () => {
      await t.control.injectFault({ vendor: 'vendor_b', kind: 'error', afterBytes: 4000, status: 500 });
      const response = await vendorB(
        '/v1/text-to-speech/stream',
        'A sentence long enough for several chunks.',
      );
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain('event: chunk');
      expect(text).toMatch(/event: error\ndata: \{"type":"error","done":true,"status_code":500,/);
      expect(text).not.toContain('event: done');
    });

    it('stalls before the first audio for stallMs', async () => {
      await t.control.injectFault({ vendor: 'vendor_b', kind: 'stall', stallMs: 200 });
      const started = Date.now();
      const response = await vendorB('/v1/text-to-speech', 'Slow.');
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    });

    it('stalls forever until the client gives up, and the simulator carries on', async () => {
      await t.control.injectFault({ vendor: 'vendor_a', kind: 'stall' });
      const abort = AbortSignal.timeout(150);
      await expect(vendorA('/text-to-speech/stream', { text: 'Never.' }, 'a-key', abort)).rejects.toThrow();
      expect((await vendorA('/text-to-speech/stream', { text: 'Now.' })).status).toBe(200);
    });

    it('stalls mid-stream after afterBytes', async () => {
      await t.control.injectFault({ vendor: 'vendor_c', kind: 'stall', stallMs: 200, afterBytes: 1000 });
      const started = Date.now();
      const { bytes, firstByteMs } = await readTimed(
        await vendorC('/stream', 'Stalled in the middle.'),
        started,
      );
      expect(firstByteMs).toBeLessThan(Date.now() - started - 190);
      expect(bytes.length).toBe(22 * 60 * 8 * 2);
    });

    it('cuts a raw audio stream after afterBytes (the client sees a broken body)', async () => {
      await t.control.injectFault({ vendor: 'vendor_a', kind: 'cut', afterBytes: 2000 });
      const response = await vendorA('/text-to-speech/stream', {
        text: 'This stream is cut short.',
        output_audio_codec: 'linear16',
      });
      expect(response.status).toBe(200);
      await expect(response.arrayBuffer()).rejects.toThrow();
    });

    it('cuts a one-shot response after afterBytes of its body', async () => {
      await t.control.injectFault({ vendor: 'vendor_b', kind: 'cut', afterBytes: 100 });
      const response = await vendorB('/v1/text-to-speech', 'Cut body.');
      await expect(response.arrayBuffer()).rejects.toThrow();
    });

    it('cuts before any response when afterBytes is 0', async () => {
      await t.control.injectFault({ vendor: 'vendor_b', kind: 'cut' });
      await expect(vendorB('/v1/text-to-speech', 'Gone.')).rejects.toThrow();
    });

    it('reports a socket error on vendor_a and keeps the socket open', async () => {
      await t.control.injectFault({ vendor: 'vendor_a', endpoint: 'ws', kind: 'error', status: 500 });
      const probe = await openProbe(
        `${t.wsBase('vendor_a')}/text-to-speech/ws?model=a_model_1&send_completion_event=true`,
        {
          headers: { 'api-subscription-key': 'a-key' },
        },
      );
      probe.send({ type: 'config', data: { target_language_code: 'hi-IN' } });
      probe.send({ type: 'text', data: { text: 'Fails.' } });
      probe.send({ type: 'flush' });
      probe.send({ type: 'text', data: { text: 'Works.' } });
      probe.send({ type: 'flush' });
      await probe.waitFor(() => probe.messages.filter((m) => m['type'] === 'event').length === 2);
      expect(probe.messages[0]).toMatchObject({
        type: 'error',
        data: { code: 'internal_server_error', request_id: expect.any(String) },
      });
      expect(probe.messages.filter((m) => m['type'] === 'audio').length).toBeGreaterThan(0);
      probe.close();
    });

    it('closes a vendor_c socket with 1011 after a server error, and drops it on a cut', async () => {
      await t.control.injectFault({ vendor: 'vendor_c', kind: 'error', status: 500, afterBytes: 500 });
      const failing = await openProbe(
        `${t.wsBase('vendor_c')}/v1/text-to-speech/${VOICE_C}/stream-input?output_format=pcm_8000`,
        {
          headers: { 'vendor_c-api-key': 'c-key' },
        },
      );
      failing.send({ text: ' ' });
      failing.send({ text: 'This one fails after a little audio. ', flush: true });
      expect((await failing.closed).code).toBe(1011);
      expect(failing.messages.at(-1)).toMatchObject({ error: 'internal_server_error', code: 1011 });
      expect(joinAudio(failing.messages, (m) => m['audio'] as string | undefined).length).toBe(500);

      await t.control.injectFault({ vendor: 'vendor_c', kind: 'cut', afterBytes: 500 });
      const cut = await openProbe(
        `${t.wsBase('vendor_c')}/v1/text-to-speech/${VOICE_C}/stream-input?output_format=pcm_8000`,
        {
          headers: { 'vendor_c-api-key': 'c-key' },
        },
      );
      cut.send({ text: ' ' });
      cut.send({ text: 'This one is cut. ', flush: true });
      expect((await cut.closed).code).toBe(1006);
      expect(cut.messages.some((m) => m['isFinal'] === true)).toBe(false);
    });

    it('keeps a take id readable up to a cut, and fresh takes differ', async () => {
      await t.control.injectFault({ vendor: 'vendor_b', kind: 'error', afterBytes: 2000 });
      const partial = await (await vendorB('/v1/text-to-speech/stream', 'Partial take here.')).text();
      const first = partial.split('\n').find((l) => l.startsWith('data: {"type":"chunk"'));
      const audio = Buffer.from((JSON.parse(first?.slice(6) ?? '{}') as { data: string }).data, 'base64');
      const [call] = await t.control.calls('vendor_b');
      expect(readTakeId(audio, 'pcm')).toBe(call?.takeId);
    });

    it('validates fault specs', async () => {
      await expect(t.control.injectFault({ vendor: 'vendor_z', kind: 'error' })).rejects.toThrow(/400/);
      await expect(t.control.injectFault({ vendor: 'vendor_a', kind: 'explode' as never })).rejects.toThrow(
        /400/,
      );
      await expect(t.control.injectFault({ vendor: 'vendor_a', kind: 'error', status: 200 })).rejects.toThrow(
        /400/,
      );
    });
  });

  describe('reads and vendor controls', () => {
    it('counts public reads apart, and clears read counts on reset', async () => {
      await fetch(`${t.base('vendor_e')}/v1/models`);
      await fetch(`${t.base('vendor_e')}/v2/models`, { headers: { authorization: 'Token e-key' } });
      expect(await t.control.readCount('vendor_e', { public: true })).toBe(1);
      expect(await t.control.readCount('vendor_e', { key: 'e-key', what: 'models' })).toBe(1);
      expect(await t.control.readCount('vendor_e')).toBe(2);
      await t.control.reset();
      expect(await t.control.readCount('vendor_e')).toBe(0);
    });

    it("routes /__sim/<vendor> to that vendor's controls and refuses a body without key_id", async () => {
      const res = await fetch(`${t.sim.url}/__sim/vendor_c/dictionaries/d1/versions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({}),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'key_id must be a non-empty string' });
      await expect(t.control.addVendorCDictionaryVersion('c-key', 'unknown-1')).rejects.toThrow(/404/);
      await expect(t.control.setVendorCVoiceSettings('c-key', VOICE_C, { stability: 2 })).rejects.toThrow(
        /400/,
      );
      await expect(t.control.setVendorADictionary('a-key', 'bad-dict', [])).rejects.toThrow(/404/);
    });
  });
});
