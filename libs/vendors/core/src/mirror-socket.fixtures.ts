import type { SentenceEnd, SocketCommand, SocketConnection, SocketHandshake } from './mirror-socket.types';

/**
 * A handshake as a wire's socket route is opened or refused with, for the wires' socket tests: its `query` (a
 * query string or its parameters), and no path parameters or headers unless `over` gives them.
 */
export function handshakeOf(
  query: string | Readonly<Record<string, string>> = '',
  over: Partial<Omit<SocketHandshake, 'query'>> = {},
): SocketHandshake {
  return { params: [], query: new URLSearchParams(query), headers: {}, ...over };
}

/** What a mirror socket's connection makes of one client text message (`message` as JSON, a string as it is). */
export function sayOnSocket(connection: Pick<SocketConnection, 'parse'>, message: unknown): SocketCommand[] {
  return connection.parse(
    Buffer.from(typeof message === 'string' ? message : JSON.stringify(message)),
    false,
  );
}

/**
 * A sentence end as a wire's renderer is told it, for the wires' socket tests: the first sentence, not cached,
 * untimed, with no warning, unless `over` says otherwise.
 */
export function sentenceEndOf(over: Partial<SentenceEnd> = {}): SentenceEnd {
  return {
    sentence: 0,
    text: '',
    cached: false,
    bytes: 0,
    durationMs: null,
    words: null,
    chars: null,
    ...over,
  };
}

/** A `send` or `refuse` command at a glance, for the wires' socket tests: its frame's JSON, a refusal's close. */
export function framedCommand(command: Extract<SocketCommand, { kind: 'send' | 'refuse' }>): unknown {
  return {
    [command.kind]: JSON.parse(command.frame) as unknown,
    ...(command.kind === 'refuse' ? { close: command.close } : {}),
  };
}

/**
 * Commands at a glance, for the wires' socket tests: each its kind and context (a connection-wide command its
 * kind alone), a text's text and a flush's tag after them, a `send` or `refuse` as `framedCommand` gives it.
 */
export function commandsAtAGlance(commands: readonly SocketCommand[]): unknown[] {
  return commands.map((c) => {
    switch (c.kind) {
      case 'text':
        return `text ${c.context} ${c.text}`;
      case 'flush':
        return `flush ${c.context} ${c.tag ?? ''}`.trimEnd();
      case 'send':
      case 'refuse':
        return framedCommand(c);
      default:
        return 'context' in c ? `${c.kind} ${c.context}` : c.kind;
    }
  });
}
