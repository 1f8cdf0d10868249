import type { IncomingMessage } from 'node:http';
import { keyHeader } from '@router/vendors-core';
import type { HttpExchange } from './http/http-exchange';
import { acceptParsed, authorizedKey } from './sim-keys';

const KEY = [keyHeader('x-api-key')];

/** Only what reading a key takes of an exchange: its headers and query. */
const exchange = (headers: Record<string, string>): HttpExchange =>
  ({ req: { headers } as unknown as IncomingMessage, query: new URLSearchParams() }) as HttpExchange;

describe('authorizedKey', () => {
  it('gives the key the simulator takes, refusing nothing', () => {
    const refused: string[] = [];
    expect(authorizedKey(exchange({ 'x-api-key': 'sk-1' }), KEY, (check) => refused.push(check))).toBe(
      'sk-1',
    );
    expect(refused).toEqual([]);
  });

  it('refuses a missing or an invalid key, telling which, and gives none', () => {
    const refused: string[] = [];
    expect(authorizedKey(exchange({}), KEY, (check) => refused.push(check))).toBeUndefined();
    expect(
      authorizedKey(exchange({ 'x-api-key': 'bad-1' }), KEY, (check) => refused.push(check)),
    ).toBeUndefined();
    expect(refused).toEqual(['missing', 'invalid']);
  });
});

describe('acceptParsed', () => {
  it('parses only a keyed request, and refuses what the parser refuses', () => {
    const parsed: string[] = [];
    const refused: string[] = [];
    const parse = (ok: boolean) => () => {
      parsed.push(String(ok));
      return ok ? { ok: true as const, request: 'req' } : { ok: false as const, problem: 'bad body' };
    };
    const refuse = (problem: string) => refused.push(problem);
    expect(acceptParsed(undefined, parse(true), refuse)).toBeUndefined();
    expect(parsed).toEqual([]);
    expect(acceptParsed('sk-1', parse(true), refuse)).toEqual({ key: 'sk-1', request: 'req' });
    expect(acceptParsed('sk-1', parse(false), refuse)).toBeUndefined();
    expect([parsed, refused]).toEqual([['true', 'false'], ['bad body']]);
  });
});
