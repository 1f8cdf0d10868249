import { performance } from 'node:perf_hooks';
import type { IncomingHttpHeaders } from 'node:http';
import { KEY_HASH_HEADER } from '@router/auth';
import type { SynthSettings } from '@router/contracts';
import type { Sql } from '@router/db';
import type { Logger } from '@router/observability';
import { Counter, type Registry } from 'prom-client';

/** The surfaces a request log row names. */
export const REQUEST_LOG_SURFACES = ['speech', 'stream', 'mirror_rest', 'mirror_socket'] as const;
export type RequestLogSurface = (typeof REQUEST_LOG_SURFACES)[number];

/** One request or socket session as the request log keeps it: counts, names and timings, never the text. */
export interface RequestLogRow {
  orgId: string;
  /** When it began, in ms since the epoch (a number: the reply path builds no Date for the log). */
  startedAtMs: number;
  keyHash: string | null;
  surface: RequestLogSurface;
  vendor: string;
  model: string;
  voice: string;
  chars: number;
  cachedChars: number;
  sentences: number;
  cachedSentences: number;
  firstAudioMs: number | null;
  durationMs: number;
  status: 'ok' | 'error';
  httpStatus: number | null;
  errorCode: string | null;
}

export interface RequestLogSettings {
  /** false: `record` keeps nothing (no queue, no timer, no write): the log is off (REQUEST_LOG_ENABLED). */
  enabled: boolean;
  /** Rows waiting at most; a row past this is dropped and counted (`router_request_log_dropped_total`). */
  maxQueued: number;
  /** Rows per INSERT. */
  batchSize: number;
  /** How often waiting rows are written. 0: only by `flush()`. */
  flushMs: number;
}

export const DEFAULT_REQUEST_LOG_SETTINGS: Readonly<RequestLogSettings> = Object.freeze({
  enabled: true,
  maxQueued: 10_000,
  batchSize: 500,
  flushMs: 1000,
});

const DROPPED = 'router_request_log_dropped_total';
const WRITTEN = 'router_request_log_written_total';

/** Why a row never reached the table: the queue was full, or its batch's write failed (PostgreSQL down). */
export type RequestLogDropReason = 'queue_full' | 'write_failed';

/** A column of `request_log` as the batch INSERT sends it: one array parameter of `type` per batch. */
interface LogColumn {
  name: string;
  type: 'uuid' | 'text' | 'int4' | 'int8';
  value: (row: RequestLogRow) => string | number | null;
  /** What is inserted, from the unnested value `r.<name>`; the value itself when left out. */
  select?: string;
}

/** The row's columns in the table, in the order of INSERT_ROWS's parameters. */
const LOG_COLUMNS: readonly LogColumn[] = [
  { name: 'org_id', type: 'uuid', value: (r) => r.orgId },
  {
    name: 'started_at',
    type: 'int8',
    value: (r) => r.startedAtMs,
    select: "timestamptz 'epoch' + r.started_at * interval '1 millisecond'",
  },
  { name: 'key_hash', type: 'text', value: (r) => r.keyHash },
  { name: 'surface', type: 'text', value: (r) => r.surface },
  { name: 'vendor', type: 'text', value: (r) => r.vendor },
  { name: 'model', type: 'text', value: (r) => r.model },
  { name: 'voice', type: 'text', value: (r) => r.voice },
  { name: 'chars', type: 'int4', value: (r) => r.chars },
  { name: 'cached_chars', type: 'int4', value: (r) => r.cachedChars },
  { name: 'sentences', type: 'int4', value: (r) => r.sentences },
  { name: 'cached_sentences', type: 'int4', value: (r) => r.cachedSentences },
  { name: 'first_audio_ms', type: 'int4', value: (r) => r.firstAudioMs },
  { name: 'duration_ms', type: 'int4', value: (r) => r.durationMs },
  { name: 'status', type: 'text', value: (r) => r.status },
  { name: 'http_status', type: 'int4', value: (r) => r.httpStatus },
  { name: 'error_code', type: 'text', value: (r) => r.errorCode },
];

/**
 * One statement per batch whatever its size, the rows as one array per column: a fixed text, so `Sql` prepares
 * it once per connection, with 16 parameters. The id is made here: Prisma's `@default(uuid())` is the client's,
 * so the table has no default for it.
 */
const INSERT_ROWS = `INSERT INTO request_log (id, ${LOG_COLUMNS.map((c) => c.name).join(', ')})
  SELECT gen_random_uuid(), ${LOG_COLUMNS.map((c) => c.select ?? `r.${c.name}`).join(', ')}
  FROM unnest(${LOG_COLUMNS.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ')})
    AS r(${LOG_COLUMNS.map((c) => c.name).join(', ')})`;

/** A batch's parameters for INSERT_ROWS: its values column by column. */
function insertParams(batch: readonly RequestLogRow[]): Array<Array<string | number | null>> {
  return LOG_COLUMNS.map(({ value }) => batch.map(value));
}

/**
 * The request log's writer in an app that plays replies: `record` only appends to a bounded queue (no I/O, never
 * a throw), and a timer writes the queue in batches, each one INSERT over the driver (`Sql`: no Prisma query
 * compiled, no row object per row copied into a query). A reply never waits for the log and never fails
 * because of it: a full queue drops the row, a failed write drops its batch, both counted by reason. Rows are
 * not retried: a log that PostgreSQL could not take is not worth memory that replies need.
 */
export class RequestLogWriter {
  private queue: RequestLogRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly settings: RequestLogSettings;
  private readonly dropped: Counter<'reason'>;
  private readonly written: Counter;

  constructor(
    private readonly sql: Sql,
    private readonly logger: Logger | undefined,
    metrics: Registry | undefined,
    settings: Partial<RequestLogSettings> = {},
  ) {
    this.settings = { ...DEFAULT_REQUEST_LOG_SETTINGS, ...settings };
    // Apps composed in one process (standalone) share one registry, and so one counter.
    this.dropped =
      (metrics?.getSingleMetric(DROPPED) as Counter<'reason'> | undefined) ??
      new Counter({
        name: DROPPED,
        help: 'Request log rows never written, by reason (queue_full: more waiting than REQUEST_LOG_MAX_QUEUED; write_failed: PostgreSQL refused or was down)',
        labelNames: ['reason'],
        registers: metrics ? [metrics] : [],
      });
    this.written =
      (metrics?.getSingleMetric(WRITTEN) as Counter | undefined) ??
      new Counter({
        name: WRITTEN,
        help: 'Request log rows written',
        registers: metrics ? [metrics] : [],
      });
    if (this.settings.enabled && this.settings.flushMs > 0) {
      this.timer = setInterval(() => {
        if (this.queue.length > 0) void this.flush();
      }, this.settings.flushMs);
      this.timer.unref();
    }
  }

  /**
   * Queues the row, or drops it (counted) when the queue is full; keeps nothing when the log is off. Never
   * throws, never waits.
   */
  record(row: RequestLogRow): void {
    if (!this.settings.enabled) return;
    if (this.queue.length >= this.settings.maxQueued) {
      this.dropped.inc({ reason: 'queue_full' });
      return;
    }
    this.queue.push(row);
  }

  /** Rows waiting to be written. */
  get pending(): number {
    return this.queue.length;
  }

  /** Writes every row waiting now, in batches; flushes run one after another. Never rejects. */
  flush(): Promise<void> {
    const run = this.chain.then(() => this.flushOnce());
    this.chain = run;
    return run;
  }

  /** Stops the timer and writes what waits. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async flushOnce(): Promise<void> {
    const rows = this.queue;
    this.queue = [];
    for (let start = 0; start < rows.length; start += this.settings.batchSize) {
      const batch = rows.slice(start, start + this.settings.batchSize);
      try {
        await this.sql.query(INSERT_ROWS, insertParams(batch));
        this.written.inc(batch.length);
      } catch (error) {
        this.dropped.inc({ reason: 'write_failed' }, batch.length);
        this.logger?.warn({ err: error, rows: batch.length }, 'request log rows not written; dropped');
      }
    }
  }
}

/**
 * What one request or socket session did, tallied as it plays: the surfaces feed it from their sinks and hand
 * it to `RequestLogWriter.record` once when they finish. Holds counts only: a sentence's length, never its text.
 */
export class RequestTally {
  readonly startedAtMs = Date.now();
  private readonly started = performance.now();
  vendor = '';
  model = '';
  voice = '';
  chars = 0;
  cachedChars = 0;
  sentences = 0;
  cachedSentences = 0;
  firstAudioMs: number | null = null;
  errorCode: string | null = null;

  /** The settings in force (a session that changes them keeps the last). */
  settings(settings: Pick<SynthSettings, 'vendor' | 'model' | 'voice'>): void {
    this.vendor = settings.vendor;
    this.model = settings.model;
    this.voice = settings.voice;
  }

  /** A sentence (or a whole request) whose audio started, from the cache or not. */
  sentence(chars: number, cached: boolean): void {
    this.sentences += 1;
    this.chars += chars;
    if (cached) {
      this.cachedSentences += 1;
      this.cachedChars += chars;
    }
  }

  /** Audio reached the client: the first call sets the time to first audio. */
  audio(): void {
    this.firstAudioMs ??= Math.round(performance.now() - this.started);
  }

  /** A failure: the first one's code is the row's. */
  failed(code: string): void {
    this.errorCode ??= code;
  }

  /** The row for this tally, timed now. */
  row(
    orgId: string,
    keyHash: string | null,
    surface: RequestLogSurface,
    httpStatus: number | null,
  ): RequestLogRow {
    const failed = this.errorCode !== null || (httpStatus !== null && httpStatus >= 400);
    return {
      orgId,
      startedAtMs: this.startedAtMs,
      keyHash,
      surface,
      vendor: this.vendor,
      model: this.model,
      voice: this.voice,
      chars: this.chars,
      cachedChars: this.cachedChars,
      sentences: this.sentences,
      cachedSentences: this.cachedSentences,
      firstAudioMs: this.firstAudioMs,
      durationMs: Math.round(performance.now() - this.started),
      status: failed ? 'error' : 'ok',
      httpStatus,
      errorCode: this.errorCode ?? (failed && httpStatus !== null ? `http_${httpStatus}` : null),
    };
  }
}

const KEY_HASH = /^[0-9a-f]{64}$/;

/** The API key's hash the gateway forwarded (KEY_HASH_HEADER), or null when none came or it is not one. */
export function keyHashOf(headers: IncomingHttpHeaders): string | null {
  const value = headers[KEY_HASH_HEADER];
  return typeof value === 'string' && KEY_HASH.test(value) ? value : null;
}
