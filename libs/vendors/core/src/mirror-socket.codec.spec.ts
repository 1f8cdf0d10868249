import { JSON_MAX_DEPTH } from '@router/contracts';
import {
  fieldKind,
  type JsonMessage,
  JsonSocketConnection,
  type MessageProblem,
  readJsonMessage,
  refuseBadQuery,
  refuseJson,
  sendJson,
  SOCKET_CLOSE,
  SocketContexts,
} from './mirror-socket.codec';
import { handshakeOf } from './mirror-socket.fixtures';
import type { SocketCommand, SocketContextRenderer } from './mirror-socket.types';

const text = (value: string) => Buffer.from(value);
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('readJsonMessage', () => {
  it('reads a JSON object', () => {
    expect(readJsonMessage(text('{"type":"text","text":"Hi."}'), false)).toEqual({
      ok: true,
      message: { type: 'text', text: 'Hi.' },
    });
  });

  it.each([
    { what: 'a binary frame', frame: text('{"type":"text"}'), binary: true, reason: 'binary' },
    { what: 'text that is not JSON', frame: text('hello'), binary: false, reason: 'not-json' },
    { what: 'an empty message', frame: text(''), binary: false, reason: 'not-json' },
    { what: 'an array', frame: text('[{"type":"text"}]'), binary: false, reason: 'not-object' },
    { what: 'null', frame: text('null'), binary: false, reason: 'not-object' },
    { what: 'a string', frame: text('"text"'), binary: false, reason: 'not-object' },
    { what: 'a number past a double', frame: text('1e400'), binary: false, reason: 'not-object' },
  ])('refuses $what as $reason', ({ frame, binary, reason }) => {
    const read = readJsonMessage(frame, binary);
    expect(read).toMatchObject({ ok: false, problem: { reason } });
  });

  it('refuses an object past the client-JSON rule, naming the field and never its value', () => {
    const deep = readJsonMessage(text(`{"text":"Secret words.","x":${nested(JSON_MAX_DEPTH)}}`), false);
    expect(deep).toMatchObject({ ok: false, problem: { reason: 'json-limit' } });
    if (deep.ok) return;
    expect(deep.problem.message).toContain('x nests');
    expect(deep.problem.message).not.toContain('Secret');
    // 20,000 levels: measured without recursion, refused the same way.
    const deeper = readJsonMessage(text(`{"x":${nested(20_000)}}`), false);
    expect(deeper).toMatchObject({ ok: false, problem: { reason: 'json-limit' } });
    const huge = readJsonMessage(text('{"speed":1e400}'), false);
    expect(huge).toMatchObject({ ok: false, problem: { reason: 'json-limit' } });
    expect(readJsonMessage(text(`{"x":${nested(JSON_MAX_DEPTH - 1)}}`), false).ok).toBe(true);
  });
});

describe('fieldKind', () => {
  const kinds = ['text', 'flush'] as const;

  it("reads a message's kind from the field that names it, when it is one the vendor has", () => {
    expect(fieldKind({ type: 'flush' }, 'type', kinds)).toBe('flush');
    expect(fieldKind({ type: 'other' }, 'type', kinds)).toBeUndefined();
    expect(fieldKind({ type: ['text'] }, 'type', kinds)).toBeUndefined();
    expect(fieldKind({}, 'type', kinds)).toBeUndefined();
  });
});

type ToyKind = 'text' | 'ping';

/** A made-up vendor: `{type: "text", text}` and `{type: "ping"}`; refusals `{error}` closing with 1008. */
class ToyConnection extends JsonSocketConnection<ToyKind> {
  readonly handled: Array<{ kind: ToyKind; message: JsonMessage }> = [];

  context(): SocketContextRenderer {
    throw new Error('not rendered here');
  }

  protected kindOf(message: JsonMessage): ToyKind | undefined {
    return fieldKind(message, 'type', ['text', 'ping'] as const);
  }

  protected message(kind: ToyKind, message: JsonMessage): SocketCommand[] {
    this.handled.push({ kind, message });
    return kind === 'ping' ? [sendJson({ type: 'pong' })] : [];
  }

  protected refuse(problem: MessageProblem): SocketCommand[] {
    return [
      refuseJson(
        { error: problem.reason, message: problem.message },
        { code: SOCKET_CLOSE.policy, reason: problem.reason },
      ),
    ];
  }
}

describe('refuseBadQuery', () => {
  const refuse = refuseBadQuery(
    (query) =>
      query.get('rate') === '8000' ? { ok: true } : { ok: false, message: `bad rate ${query.get('rate')}` },
    (message) => ({ error: message }),
  );

  it("accepts a handshake whose query the settings read, and refuses another with the vendor's 400", () => {
    expect(refuse(handshakeOf('rate=8000'))).toBeUndefined();
    const refused = refuse(handshakeOf({ rate: '7' }));
    expect(refused?.status).toBe(400);
    expect(JSON.parse(String(refused?.body))).toEqual({ error: 'bad rate 7' });
  });
});

describe('JsonSocketConnection', () => {
  it("hands each message of a known kind to the vendor's handler", () => {
    const connection = new ToyConnection();
    expect(connection.opened()).toEqual([]);
    expect(connection.parse(text('{"type":"ping"}'), false)).toEqual([
      { kind: 'send', frame: '{"type":"pong"}' },
    ]);
    connection.parse(text('{"type":"text","text":"Hi."}'), false);
    expect(connection.handled).toEqual([
      { kind: 'ping', message: { type: 'ping' } },
      { kind: 'text', message: { type: 'text', text: 'Hi.' } },
    ]);
  });

  it.each([
    { what: 'binary', frame: text('{"type":"ping"}'), binary: true, reason: 'binary' },
    { what: 'not JSON', frame: text('{"type":'), binary: false, reason: 'not-json' },
    { what: 'not an object', frame: text('["ping"]'), binary: false, reason: 'not-object' },
    {
      what: 'too deep',
      frame: text(`{"type":"ping","x":${nested(40)}}`),
      binary: false,
      reason: 'json-limit',
    },
    { what: 'of an unknown kind', frame: text('{"type":"pong"}'), binary: false, reason: 'unknown-kind' },
  ])(
    "refuses a message $what in the vendor's shape, its handlers never called",
    ({ frame, binary, reason }) => {
      const connection = new ToyConnection();
      const [refusal, ...rest] = connection.parse(frame, binary);
      expect(rest).toEqual([]);
      expect(refusal).toMatchObject({ kind: 'refuse', close: { code: 1008, reason } });
      const body = JSON.parse((refusal as { frame: string }).frame) as Record<string, unknown>;
      expect(body).toEqual({ error: reason, message: expect.any(String) });
      expect(connection.handled).toEqual([]);
    },
  );
});

describe('SocketContexts', () => {
  it('opens contexts up to the limit, and one more once another has closed', () => {
    const contexts = new SocketContexts<string>(2);
    expect(contexts.set('a', 'first')).toBe(true);
    expect(contexts.set('b', 'second')).toBe(true);
    expect(contexts.canOpen('c')).toBe(false);
    expect(contexts.set('c', 'third')).toBe(false);
    expect(contexts.has('c')).toBe(false);
    expect(contexts.canOpen('a')).toBe(true);
    // A context already open takes new state at the limit.
    expect(contexts.set('a', 'changed')).toBe(true);
    expect(contexts.get('a')).toBe('changed');
    expect(contexts.delete('b')).toBe(true);
    expect(contexts.set('c', 'third')).toBe(true);
    expect([...contexts.entries()]).toEqual([
      ['a', 'changed'],
      ['c', 'third'],
    ]);
    expect(contexts.size).toBe(2);
  });
});
