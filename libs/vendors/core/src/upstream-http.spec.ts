import { RouterError } from '@router/contracts';
import { audioPassThrough, upstreamFailure, type UpstreamBody } from './upstream-http';

function bodyOf(parts: Buffer[]): UpstreamBody {
  return {
    chunks: async function* () {
      for (const part of parts) yield part;
    },
    textChunks: () => {
      throw new Error('not read as text here');
    },
    text: () => Promise.reject(new Error('not read whole here')),
  };
}

describe('upstreamFailure', () => {
  it('ends an aborted call with its signal reason, whatever the error', () => {
    const abort = new AbortController();
    const reason = new Error('interrupted');
    abort.abort(reason);
    expect(upstreamFailure('vendor_a', new RouterError('provider_rejected', 'no'), abort.signal)).toBe(
      reason,
    );
  });

  it('passes a router error through', () => {
    const refusal = new RouterError('provider_rejected', 'no');
    expect(upstreamFailure('vendor_a', refusal, new AbortController().signal)).toBe(refusal);
  });

  it('maps anything else to provider_unavailable, keeping the cause', () => {
    const cut = new Error('other side closed');
    const failure = upstreamFailure('vendor_b', cut, new AbortController().signal);
    expect(failure).toBeInstanceOf(RouterError);
    expect(failure).toMatchObject({ code: 'provider_unavailable', cause: cut });
    expect((failure as RouterError).message).toContain('vendor_b');
  });
});

describe('audioPassThrough', () => {
  it('yields each non-empty chunk untouched, in order', async () => {
    const parts = [Buffer.from([1, 2]), Buffer.alloc(0), Buffer.from([3])];
    const out: Buffer[] = [];
    for await (const event of audioPassThrough(bodyOf(parts))) {
      if (event.kind === 'audio') out.push(event.data);
    }
    expect(out).toEqual([parts[0], parts[2]]);
    expect(out[0]).toBe(parts[0]);
  });
});
