import { RouterError } from '@router/contracts';
import type { Logger } from '@router/observability';
import type { PieceResolver, ReplyPlanner, RequestLogRow, RequestLogWriter } from '@router/pipeline';
import type { SocketPeer } from '@router/service-kit';
import { StreamSession, type StreamSessionDeps } from './stream-session';

const KEY_HASH = 'c'.repeat(64);

/** A session whose planner refuses every settings message, with the rows it leaves and the frames it sends. */
function session(): { session: StreamSession; rows: RequestLogRow[]; sent: string[] } {
  const rows: RequestLogRow[] = [];
  const sent: string[] = [];
  const peer: SocketPeer = {
    send: (data) => {
      sent.push(String(data));
      return Promise.resolve();
    },
    close: () => undefined,
  };
  const deps: StreamSessionDeps = {
    resolver: {} as PieceResolver,
    planner: {
      plan: () => Promise.reject(RouterError.badRequest('voice not found')),
    } as unknown as ReplyPlanner,
    lookAhead: 1,
    logger: { error: () => undefined } as unknown as Logger,
    replanAfterMs: 60_000,
    now: () => 0,
    requestLog: { record: (row: RequestLogRow) => rows.push(row) } as unknown as RequestLogWriter,
  };
  return { session: new StreamSession('org-1', peer, deps, 'session-1', KEY_HASH), rows, sent };
}

async function settled(sent: string[], count: number): Promise<void> {
  for (let tries = 0; tries < 100 && sent.length < count; tries += 1) await Promise.resolve();
}

describe('StreamSession request log row', () => {
  // /v1/stream has no default vendor, model or voice (a settings message must name its model and voice), so a
  // session that never had settings accepted has none to name: its row says so rather than guessing.
  it('names no vendor, model or voice for a session closed before any settings', () => {
    const { session: stream, rows } = session();
    stream.disconnected();
    stream.disconnected();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      orgId: 'org-1',
      keyHash: KEY_HASH,
      surface: 'stream',
      vendor: '',
      model: '',
      voice: '',
      sentences: 0,
      chars: 0,
      status: 'ok',
      httpStatus: null,
    });
  });

  it('names nothing from settings the planner refused: they were never the session’s', async () => {
    const { session: stream, rows, sent } = session();
    const settings = { type: 'settings', model: 'vendor_a/a_model_1', voice: 'nobody' };
    stream.receive(Buffer.from(JSON.stringify(settings)), false);
    await settled(sent, 1);
    expect(JSON.parse(sent[0] ?? '{}')).toMatchObject({ type: 'error', error: { code: 'bad_request' } });
    stream.disconnected();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ vendor: '', model: '', voice: '', sentences: 0 });
  });
});
