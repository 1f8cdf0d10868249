import { CheckFailure, PayloadCheckError, type PayloadPart } from './payload-check.error';
import type { Checker } from './payload.checkers';

/** Versioned dot-separated names: lower-case tokens, ending in `.v<N>` (`cache.commit.v1`). */
const SUBJECT_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*\.v[1-9][0-9]*$/;

/** One request, one reply (JSON). */
export interface RequestDef<Req, Res> {
  readonly kind: 'request';
  readonly subject: string;
  readonly request: Checker<Req>;
  readonly reply: Checker<Res>;
}

/** One request (JSON), then a JSON header, binary chunks, and a JSON trailer (or an error). */
export interface StreamDef<Req, Header, Trailer> {
  readonly kind: 'stream';
  readonly subject: string;
  readonly request: Checker<Req>;
  readonly header: Checker<Header>;
  readonly trailer: Checker<Trailer>;
}

/** A broadcast: every subscriber gets each event (JSON). */
export interface EventDef<E> {
  readonly kind: 'event';
  readonly subject: string;
  readonly payload: Checker<E>;
}

/** What every definition has in common, for listing and checking them all. */
export interface SubjectDefinition {
  readonly kind: 'request' | 'stream' | 'event';
  readonly subject: string;
}

function assertSubject(subject: string): void {
  if (!SUBJECT_PATTERN.test(subject)) {
    throw new Error(`subject "${subject}" must be lower-case dot-separated tokens ending in .v<N>`);
  }
}

export function defineRequest<Req, Res>(def: {
  subject: string;
  request: Checker<Req>;
  reply: Checker<Res>;
}): RequestDef<Req, Res> {
  assertSubject(def.subject);
  return Object.freeze({ kind: 'request', subject: def.subject, request: def.request, reply: def.reply });
}

export function defineStream<Req, Header, Trailer>(def: {
  subject: string;
  request: Checker<Req>;
  header: Checker<Header>;
  trailer: Checker<Trailer>;
}): StreamDef<Req, Header, Trailer> {
  assertSubject(def.subject);
  return Object.freeze({
    kind: 'stream',
    subject: def.subject,
    request: def.request,
    header: def.header,
    trailer: def.trailer,
  });
}

export function defineEvent<E>(def: { subject: string; payload: Checker<E> }): EventDef<E> {
  assertSubject(def.subject);
  return Object.freeze({ kind: 'event', subject: def.subject, payload: def.payload });
}

/**
 * Runs one part's checker and turns a failure into a PayloadCheckError naming the subject, part and field.
 * The bus calls this at both ends: before sending and after receiving.
 */
export function checkPayload<T>(subject: string, part: PayloadPart, checker: Checker<T>, value: unknown): T {
  try {
    return checker(value, '');
  } catch (err) {
    if (err instanceof CheckFailure) throw new PayloadCheckError(subject, part, err);
    throw err;
  }
}

/** One subject token, as NATS reads it: no `.` (another token) and no `*` or `>` (wildcards). */
const INSTANCE_PATTERN = /^[a-z0-9_]{1,32}$/;

/**
 * The same contract addressed to one instance (`synth.take.v1.<id>`): for work that must meet on one
 * process, such as identical takes coalescing on one worker, or events only some processes want, such as a
 * vendor's commits (`cache.committed.v2.vendor_a`). The instance serves (or subscribes) and is asked (or
 * published to) on this form.
 */
export function addressedTo<
  D extends RequestDef<unknown, unknown> | StreamDef<unknown, unknown, unknown> | EventDef<unknown>,
>(def: D, instance: string): D {
  if (!INSTANCE_PATTERN.test(instance))
    throw new Error(`instance "${instance}" must be 1-32 lower-case letters, digits or underscores`);
  return Object.freeze(
    Object.assign(Object.create(null), def, { subject: `${def.subject}.${instance}` }),
  ) as D;
}
