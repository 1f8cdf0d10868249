import type { SentenceEnd, SocketCommand, SocketConnection } from './mirror-socket.types';

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
