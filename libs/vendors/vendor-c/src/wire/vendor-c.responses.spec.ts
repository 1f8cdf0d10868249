import { readTimestampedLine, timestampedErrorLine, timestampedLine } from './vendor-c.responses';

describe('vendor_c /stream/with-timestamps lines, both ways', () => {
  const chars = [...'Hi'].map((char, i) => ({ char, startMs: i * 100, endMs: (i + 1) * 100 }));

  it('reads back the chunk a line carries', () => {
    const chunk = readTimestampedLine(timestampedLine(Buffer.from('audio'), chars).trimEnd());
    expect(Buffer.from(chunk.audio_base64 as string, 'base64').toString()).toBe('audio');
    expect(chunk.alignment).toMatchObject({ characters: ['H', 'i'] });
  });

  it("fails the take on the vendor's error line, with its message", () => {
    const line = timestampedErrorLine({
      status: 500,
      code: 'internal_server_error',
      type: 'server_error',
      message: 'The take failed.',
    });
    expect(() => readTimestampedLine(line.trimEnd())).toThrow(
      expect.objectContaining({
        code: 'provider_unavailable',
        message: expect.stringContaining('The take failed.'),
      }),
    );
  });

  it('takes a line that is not JSON as a malformed answer', () => {
    expect(() => readTimestampedLine('{"audio_base64":"QU')).toThrow(
      expect.objectContaining({ code: 'provider_unavailable' }),
    );
  });
});
