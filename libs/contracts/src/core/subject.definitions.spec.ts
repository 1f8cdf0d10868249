import { jsonCodec } from './json.codec';
import { PayloadCheckError } from './payload-check.error';
import { check } from './payload.checkers';
import { addressedTo, checkPayload, defineEvent, defineRequest, defineStream } from './subject.definitions';

describe('subject definitions', () => {
  it('accepts versioned lower-case subjects only', () => {
    expect(defineEvent({ subject: 'cache.entry_deleted.v2', payload: check.empty() }).subject).toBe(
      'cache.entry_deleted.v2',
    );
    for (const subject of [
      'cache.lookup',
      'Cache.lookup.v1',
      'cache..lookup.v1',
      'cache.lookup.v0',
      'cache.*.v1',
      'v1',
    ]) {
      expect(() => defineRequest({ subject, request: check.empty(), reply: check.empty() })).toThrow(
        /must be lower-case/,
      );
    }
  });

  it('keeps the kind and checkers of each definition', () => {
    const stream = defineStream({
      subject: 'synth.take.v1',
      request: check.empty(),
      header: check.object({ contentType: check.string() }),
      trailer: check.none(),
    });
    expect(stream.kind).toBe('stream');
    expect(Object.isFrozen(stream)).toBe(true);
    expect(stream.header({ contentType: 'audio/mpeg' }, '')).toEqual({ contentType: 'audio/mpeg' });
  });

  it('checkPayload reports subject, part and field as a PayloadCheckError', () => {
    const def = defineRequest({
      subject: 'health.cache.v1',
      request: check.empty(),
      reply: check.object({ uptimeMs: check.number() }),
    });
    let caught: unknown;
    try {
      checkPayload(def.subject, 'reply', def.reply, { uptimeMs: '5' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(PayloadCheckError);
    expect(caught).toMatchObject({
      code: 'invalid_payload',
      message: 'invalid reply on health.cache.v1: field "uptimeMs" must be a number (got string)',
      details: { subject: 'health.cache.v1', part: 'reply', field: 'uptimeMs' },
    });
    expect(() => checkPayload(def.subject, 'reply', def.reply, null)).toThrow(
      'invalid reply on health.cache.v1: reply must be an object (got null)',
    );
  });
});

describe('jsonCodec', () => {
  it('round-trips JSON and carries undefined as zero bytes', () => {
    const value = { a: [1, 'é', null], b: true };
    expect(jsonCodec.decode(jsonCodec.encode(value), 's.v1', 'request')).toEqual(value);
    expect(jsonCodec.encode(undefined).length).toBe(0);
    expect(jsonCodec.decode(new Uint8Array(0), 's.v1', 'trailer')).toBeUndefined();
  });

  it('refuses bytes that are not JSON with a PayloadCheckError', () => {
    expect(() => jsonCodec.decode(Buffer.from('{oops'), 's.v1', 'event')).toThrow(
      'invalid event on s.v1: event must be JSON (got unparseable bytes)',
    );
  });
});

describe('addressedTo', () => {
  const def = defineRequest({ subject: 'x.ping.v1', request: check.empty(), reply: check.empty() });

  it('appends the instance to the subject and keeps the checkers', () => {
    const addressed = addressedTo(def, 'w1abc');
    expect(addressed.subject).toBe('x.ping.v1.w1abc');
    expect(addressed.request).toBe(def.request);
    expect(def.subject).toBe('x.ping.v1');
  });

  it('takes a vendor token as the instance', () => {
    expect(addressedTo(def, 'vendor_a').subject).toBe('x.ping.v1.vendor_a');
  });

  it('refuses an instance that would change the subject structure', () => {
    expect(() => addressedTo(def, 'a.b')).toThrow('instance');
    expect(() => addressedTo(def, '*')).toThrow('instance');
    expect(() => addressedTo(def, '>')).toThrow('instance');
    expect(() => addressedTo(def, 'Vendor_A')).toThrow('instance');
    expect(() => addressedTo(def, '')).toThrow('instance');
  });
});
