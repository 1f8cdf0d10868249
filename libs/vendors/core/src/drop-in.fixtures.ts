import type { AnswerReading, AnswerVerdict } from './drop-in.types';

/**
 * What a reading makes of `body` pushed in chunks of `size` bytes (so events and frames are cut across chunks),
 * for the wires' drop-in tests: its verdict at the end.
 */
export function readInChunks(reading: AnswerReading, body: string, size = 7): AnswerVerdict {
  const bytes = Buffer.from(body, 'utf8');
  for (let at = 0; at < bytes.length; at += size) reading.push(bytes.subarray(at, at + size));
  return reading.end();
}
