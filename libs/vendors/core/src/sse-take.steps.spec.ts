import { RouterError } from '@router/contracts';
import { jsonSseTake, streamEventStep } from './sse-take.steps';
import type { UpstreamBody } from './upstream-http';
import type { SynthesisEvent } from './vendor-adapter';

function body(text: string): UpstreamBody {
  return {
    chunks: () => {
      throw new Error('not read as bytes');
    },
    textChunks: () =>
      (async function* () {
        yield text;
      })(),
    text: () => Promise.resolve(text),
  };
}

async function take(events: AsyncIterable<SynthesisEvent>): Promise<string[]> {
  const seen: string[] = [];
  for await (const event of events) seen.push(event.kind === 'audio' ? event.data.toString() : event.kind);
  return seen;
}

describe('jsonSseTake', () => {
  it("gives each event's name and JSON object to the step, and ends where a step completes the take", async () => {
    const steps: [string, Record<string, unknown>][] = [];
    const read = jsonSseTake('vendor_b', 'its done event', (event, data) => {
      steps.push([event, data]);
      return event === 'done' ? { complete: true } : { events: [{ kind: 'audio', data: Buffer.from('a') }] };
    });
    const stream = 'event: chunk\ndata: {"n":1}\n\nevent: done\ndata: {}\n\nevent: chunk\ndata: {"n":2}\n\n';
    expect(await take(read(body(stream), {}))).toEqual(['a']);
    expect(steps).toEqual([
      ['chunk', { n: 1 }],
      ['done', {}],
    ]);
  });

  it('refuses data that is not JSON as the vendor sending an event that is not a JSON object', async () => {
    const read = jsonSseTake('vendor_h', 'its done event', () => ({ complete: true }));
    await expect(take(read(body('data: {cut\n\n'), {}))).rejects.toMatchObject({
      code: 'provider_unavailable',
      message: 'vendor_h sent an event that is not a JSON object',
    });
  });

  it('fails as a cut, naming the end marker, when the stream ends before the take is complete', async () => {
    const read = jsonSseTake('vendor_i', 'its done event', () => ({}));
    await expect(take(read(body('data: {}\n\n'), {}))).rejects.toMatchObject({
      code: 'provider_unavailable',
      cause: expect.objectContaining({
        message: expect.stringContaining('its done event') as unknown,
      }) as unknown,
    });
  });
});

describe('streamEventStep', () => {
  it('passes audio on, and nothing for an empty part', () => {
    expect(streamEventStep('vendor_b', { kind: 'audio', audio: Buffer.from('ab') })).toEqual({
      events: [{ kind: 'audio', data: Buffer.from('ab') }],
    });
    expect(streamEventStep('vendor_b', { kind: 'audio', audio: Buffer.alloc(0) })).toEqual({ events: [] });
  });

  it("throws an error event as the vendor's failure, with its status and code", () => {
    const thrown = catchError(() =>
      streamEventStep('vendor_i', { kind: 'error', status: 429, message: 'slow down', code: 'rate_limited' }),
    );
    expect(thrown).toBeInstanceOf(RouterError);
    expect(thrown).toMatchObject({ providerStatus: 429, providerCode: 'rate_limited' });
    expect((thrown as RouterError).message).toContain('slow down');
  });

  it('takes an error event without a status as a 502', () => {
    const thrown = catchError(() =>
      streamEventStep('vendor_b', { kind: 'error', status: undefined, message: 'x' }),
    );
    expect(thrown).toMatchObject({ providerStatus: 502 });
  });

  it('throws a malformed event as named, or as an event without audio', () => {
    expect(
      catchError(() => streamEventStep('vendor_b', { kind: 'malformed', what: 'a chunk without audio' })),
    ).toMatchObject({
      code: 'provider_unavailable',
      message: 'vendor_b sent a chunk without audio',
    });
    expect(catchError(() => streamEventStep('vendor_h', { kind: 'malformed' }))).toMatchObject({
      message: 'vendor_h sent an event without audio',
    });
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing thrown');
}
