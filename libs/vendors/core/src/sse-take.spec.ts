import type { UpstreamBody } from './upstream-http';
import { readSseTake } from './upstream-http';

function body(parts: string[], failAfter = false): UpstreamBody {
  return {
    chunks: () => {
      throw new Error('not read as bytes');
    },
    textChunks: () =>
      (async function* () {
        yield* parts;
        if (failAfter) throw new Error('connection reset');
      })(),
    text: () => Promise.resolve(parts.join('')),
  };
}

const step = ({ data }: { data: string }) =>
  data === 'end' ? { complete: true } : { events: [{ kind: 'audio' as const, data: Buffer.from(data) }] };

async function read(b: UpstreamBody): Promise<{ audio: string; error?: unknown }> {
  let audio = '';
  try {
    for await (const e of readSseTake('vendor_b', b, step, 'its end'))
      if (e.kind === 'audio') audio += e.data.toString();
  } catch (error) {
    return { audio, error };
  }
  return { audio };
}

describe('readSseTake', () => {
  it('passes each event on as it comes and ends at the step that completes the take', async () => {
    expect(await read(body(['data: a\n\n', 'data: b\n\n', 'data: end\n\n', 'data: after\n\n']))).toEqual({
      audio: 'ab',
    });
  });

  it('fails as a lost connection when the stream ends before the take is complete', async () => {
    const { audio, error } = await read(body(['data: a\n\n']));
    expect(audio).toBe('a');
    expect(error).toMatchObject({ code: 'provider_unavailable' });
  });

  it('loses nothing when the connection goes after the take completed', async () => {
    expect(await read(body(['data: a\n\n', 'data: end\n\n'], true))).toEqual({ audio: 'a' });
  });
});
