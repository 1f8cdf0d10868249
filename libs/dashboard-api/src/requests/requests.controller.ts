import { Controller, Get, Inject, Query, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiProperty,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { SessionGuard, type SessionRequest } from '@router/admin';
import { RouterError } from '@router/contracts';
import type { Prisma, PrismaClient } from '@router/db';
import { Anonymous } from '@router/service-kit';
import type { Response } from 'express';
import { signedIn } from '../session/session.controller';
import { PRISMA_CLIENT } from '../tokens';
import { type KeyNames, keyNamesOf } from './key-names';
import { parseFilters, type RequestFilterQuery, single, SURFACES, whereOf } from './request-filters';
import type { RequestKey, RequestPage, RequestRow } from '@router/dashboard-types';

export const REQUEST_PAGE_MAX = 200;
/** The most rows one CSV export holds (the newest first); narrow the filters for more. */
export const REQUEST_EXPORT_MAX = 100_000;
const EXPORT_BATCH = 5000;

export class RequestKeyDto implements RequestKey {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'The first characters, to tell keys apart' }) prefix!: string;
  @ApiProperty({ description: 'What the org calls the key; empty for one issued without a name' })
  name!: string;
}

export class RequestRowDto implements RequestRow {
  @ApiProperty() id!: string;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ type: RequestKeyDto, nullable: true, description: 'null: a key since deleted, or none' })
  key!: RequestKeyDto | null;
  @ApiProperty({ enum: SURFACES }) surface!: string;
  @ApiProperty({ example: 'vendor_a' }) vendor!: string;
  @ApiProperty({ description: 'Empty where the surface does not name it (a mirror REST request)' })
  model!: string;
  @ApiProperty({ description: 'Empty where the surface does not name it (a mirror REST request)' })
  voice!: string;
  @ApiProperty() chars!: number;
  @ApiProperty() cached_chars!: number;
  @ApiProperty() sentences!: number;
  @ApiProperty() cached_sentences!: number;
  @ApiProperty({ nullable: true, type: Number }) first_audio_ms!: number | null;
  @ApiProperty() duration_ms!: number;
  @ApiProperty({ enum: ['ok', 'error'] }) status!: string;
  @ApiProperty({ nullable: true, type: Number, description: 'REST surfaces; null for a socket session' })
  http_status!: number | null;
  @ApiProperty({ nullable: true, type: String }) error_code!: string | null;
}

export class RequestPageDto implements RequestPage {
  @ApiProperty({ type: [RequestRowDto] }) rows!: RequestRowDto[];
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for the next (older) page' })
  next_cursor!: string | null;
}

const FILTER_DOCS = [
  { name: 'from', description: 'A UTC day (included) or a date-time' },
  { name: 'to', description: 'A UTC day (included) or a date-time (excluded)' },
  { name: 'key', description: "An API key's id" },
  { name: 'vendor', description: 'A vendor token' },
  { name: 'surface', description: SURFACES.join(', ') },
  { name: 'status', description: 'ok or error' },
  { name: 'cached', description: 'true: some sentence from the cache; false: none' },
];

function FilterQueries(): MethodDecorator {
  return (target, key, descriptor) => {
    for (const doc of FILTER_DOCS) ApiQuery({ ...doc, required: false })(target, key, descriptor);
  };
}

type Row = Prisma.RequestLogEntryGetPayload<object>;

/**
 * The request log: one row per request and per socket session, newest first, with filters, pages and a CSV
 * export. Every member of the org reads it; no row holds a sentence's text (none was ever written).
 */
@ApiTags('dashboard')
@ApiCookieAuth('session')
@Controller('api/requests')
@Anonymous()
@UseGuards(SessionGuard)
export class RequestsController {
  constructor(@Inject(PRISMA_CLIENT) private readonly prisma: PrismaClient) {}

  @Get()
  @ApiOperation({ summary: "The org's request log, newest first; `cursor` pages back" })
  @FilterQueries()
  @ApiQuery({ name: 'limit', required: false, description: `1 to ${REQUEST_PAGE_MAX}, default 50` })
  @ApiQuery({ name: 'cursor', required: false, description: "The previous page's next_cursor" })
  @ApiOkResponse({ type: RequestPageDto })
  async list(
    @Req() req: SessionRequest,
    @Query() query: RequestFilterQuery & { limit?: unknown; cursor?: unknown },
  ): Promise<RequestPageDto> {
    const { orgId } = signedIn(req);
    const limitText = single('limit', query.limit);
    const limit = limitText === undefined ? 50 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > REQUEST_PAGE_MAX) {
      throw RouterError.badRequest(`limit must be a whole number from 1 to ${REQUEST_PAGE_MAX}`);
    }
    const cursorText = single('cursor', query.cursor);
    const after = cursorText === undefined ? undefined : parseCursor(cursorText);
    const filters = parseFilters(query);
    const keys = await keyNamesOf(this.prisma, orgId);
    const where = whereOf(orgId, filters, filters.keyId ? keys.hashOf(filters.keyId) : undefined);
    const rows = await this.prisma.requestLogEntry.findMany({
      where: after ? { AND: [where, olderThan(after)] } : where,
      orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      rows: page.map((row) => view(row, keys)),
      next_cursor: rows.length > limit && last ? cursorOf(last) : null,
    };
  }

  @Get('export')
  @ApiOperation({
    summary: `The request log as CSV with the same filters, newest first, at most ${REQUEST_EXPORT_MAX} rows`,
  })
  @FilterQueries()
  @ApiProduces('text/csv')
  async export(
    @Req() req: SessionRequest,
    @Query() query: RequestFilterQuery,
    @Res() res: Response,
  ): Promise<void> {
    const { orgId } = signedIn(req);
    const filters = parseFilters(query);
    const keys = await keyNamesOf(this.prisma, orgId);
    const where = whereOf(orgId, filters, filters.keyId ? keys.hashOf(filters.keyId) : undefined);
    res.status(200);
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', 'attachment; filename="request-log.csv"');
    res.setHeader('cache-control', 'no-store');
    res.write(`${CSV_COLUMNS.join(',')}\r\n`);
    let after: Cursor | undefined;
    for (let written = 0; written < REQUEST_EXPORT_MAX;) {
      const rows = await this.prisma.requestLogEntry.findMany({
        where: after ? { AND: [where, olderThan(after)] } : where,
        orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
        take: Math.min(EXPORT_BATCH, REQUEST_EXPORT_MAX - written),
      });
      if (rows.length === 0) break;
      res.write(rows.map((row) => csvLine(view(row, keys))).join(''));
      written += rows.length;
      const last = rows.at(-1);
      if (!last || rows.length < EXPORT_BATCH) break;
      after = { startedAt: last.startedAt, id: last.id };
    }
    res.end();
  }
}

interface Cursor {
  startedAt: Date;
  id: string;
}

function cursorOf(row: Row): string {
  return Buffer.from(`${row.startedAt.toISOString()}|${row.id}`).toString('base64url');
}

function parseCursor(text: string): Cursor {
  const [at = '', id = ''] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  const startedAt = new Date(at);
  if (Number.isNaN(startedAt.getTime()) || !/^[0-9a-f-]{36}$/.test(id)) {
    throw RouterError.badRequest("cursor must be a page's next_cursor, as given");
  }
  return { startedAt, id };
}

function olderThan(cursor: Cursor): Prisma.RequestLogEntryWhereInput {
  return {
    OR: [{ startedAt: { lt: cursor.startedAt } }, { startedAt: cursor.startedAt, id: { lt: cursor.id } }],
  };
}

function view(row: Row, keys: KeyNames): RequestRowDto {
  return {
    id: row.id,
    started_at: row.startedAt.toISOString(),
    key: row.keyHash ? keys.byHash(row.keyHash) : null,
    surface: row.surface,
    vendor: row.vendor,
    model: row.model,
    voice: row.voice,
    chars: row.chars,
    cached_chars: row.cachedChars,
    sentences: row.sentences,
    cached_sentences: row.cachedSentences,
    first_audio_ms: row.firstAudioMs,
    duration_ms: row.durationMs,
    status: row.status,
    http_status: row.httpStatus,
    error_code: row.errorCode,
  };
}

const CSV_COLUMNS = [
  'started_at',
  'key_prefix',
  'key_name',
  'surface',
  'vendor',
  'model',
  'voice',
  'chars',
  'cached_chars',
  'sentences',
  'cached_sentences',
  'first_audio_ms',
  'duration_ms',
  'status',
  'http_status',
  'error_code',
] as const;

function csvLine(row: RequestRowDto): string {
  const values: Array<string | number | null> = [
    row.started_at,
    row.key?.prefix ?? '',
    row.key?.name ?? '',
    row.surface,
    row.vendor,
    row.model,
    row.voice,
    row.chars,
    row.cached_chars,
    row.sentences,
    row.cached_sentences,
    row.first_audio_ms,
    row.duration_ms,
    row.status,
    row.http_status,
    row.error_code,
  ];
  return `${values.map(csvField).join(',')}\r\n`;
}

/**
 * RFC 4180 quoting; a text starting with `=`, `+`, `-`, `@` (a key's name is the org's own text) gets a leading
 * apostrophe, so a spreadsheet opening the export never runs it as a formula.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
