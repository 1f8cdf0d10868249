import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { RouterClient } from '@router/client';
import type { Breakdowns, RequestPage, RequestRow } from '@router/dashboard-types';
import {
  call,
  createOrgWithMember,
  eventually,
  everySurface,
  launchChromium,
  readE2eStack,
  signIn,
  type SurfaceKind,
  type SurfaceOrg,
} from '@router/testing';
import { axeScan, chartText, LONG_MS, SHOTS, TEST_MS, WIDTHS } from './page-checks';

const stack = readE2eStack();
const gw = stack.gatewayUrl;
const run = Date.now().toString(36);
/** One sentence per surface, each its own (the speech one said twice: the second is a hit). */
const SAID: Record<SurfaceKind, string> = {
  native: `The amber kettle sings at dawn ${run}.`,
  stream: `A violet heron waits by the weir ${run}.`,
  'mirror-http': `Seven copper bells rang over the quay ${run}.`,
  'mirror-socket': `The lighthouse keeper counts gulls ${run}.`,
};

type Session = Awaited<ReturnType<typeof signIn>>;

/**
 * The request log and its breakdowns through the gateway: one sentence said on each surface of vendor_a (the
 * native one twice), then the rows, their filters, pages and CSV export, and the sums per day, vendor, key,
 * model and voice. A member of the org reads the same; another org sees none of it; no answer holds a text.
 */
describe('dashboard request log (e2e)', () => {
  const a = createOrgWithMember(stack.adminUrl, 'requests-a');
  const b = createOrgWithMember(stack.adminUrl, 'requests-b');
  let owner: Session;
  let member: Session;
  let other: Session;
  let keyId = '';
  let rows: RequestRow[] = [];
  const ask = (who: Session, path: string) =>
    call(gw, 'GET', path, { headers: { cookie: who.cookie, 'x-csrf-token': who.csrf } });
  const list = async (who: Session, query = ''): Promise<RequestRow[]> => {
    const answer = await ask(who, `/api/requests${query}`);
    expect(answer.status).toBe(200);
    return (answer.body as RequestPage).rows;
  };
  const noText = (text: string): void => {
    for (const sentence of Object.values(SAID)) expect(text).not.toContain(sentence);
  };

  beforeAll(async () => {
    owner = await signIn(gw, a.email, a.code);
    other = await signIn(gw, b.email, b.code);
    const headers = { cookie: owner.cookie, 'x-csrf-token': owner.csrf };
    const invited = await call(gw, 'POST', '/api/members', {
      headers,
      body: { email: `requests-member-${run}@example.com`, role: 'member' },
    });
    member = await signIn(gw, invited.body.member.email, invited.body.code);
    const vendorKey = `requests-vendor-a-${randomUUID()}`;
    await call(gw, 'PUT', '/v1/provider-keys/vendor_a', { headers, body: { api_key: vendorKey } });
    const issued = await call(gw, 'POST', '/api/keys', { headers, body: { name: 'voice bot' } });
    keyId = issued.body.id;
    const org: SurfaceOrg = {
      key: issued.body.key,
      vendorKey,
      client: new RouterClient({ baseUrl: gw, apiKey: issued.body.key }),
    };
    const surfaces = everySurface(stack).filter((s) => s.vendor === 'vendor_a');
    for (const kind of Object.keys(SAID) as SurfaceKind[]) {
      const surface = surfaces.find((s) => s.kind === kind);
      if (!surface) throw new Error(`vendor_a has no ${kind} surface`);
      expect({ kind, end: (await surface.say(org, SAID[kind])).end }).toEqual({ kind, end: 'clean' });
      if (kind === 'native') {
        await eventually(
          'the speech sentence cached',
          async () => (await ask(owner, '/api/cache')).body.entries >= 1,
          LONG_MS,
        );
        expect((await surface.say(org, SAID.native)).end).toBe('clean');
      }
    }
    // Written by each app in batches, about a second after each reply.
    await eventually('a row per request and session', async () => (await list(owner)).length >= 5, LONG_MS);
    rows = await list(owner);
  }, TEST_MS);

  it('keeps one row per request and socket session, with its key, surface, model, voice, counts and timings', () => {
    expect(rows.map((r) => r.surface).sort()).toEqual(
      ['mirror_rest', 'mirror_socket', 'speech', 'speech', 'stream'].sort(),
    );
    for (const row of rows) {
      expect(row).toMatchObject({ vendor: 'vendor_a', status: 'ok', error_code: null, sentences: 1 });
      expect(row.key).toEqual({ id: keyId, prefix: expect.any(String), name: 'voice bot' });
      expect(row.first_audio_ms).toEqual(expect.any(Number));
      expect(row.duration_ms).toBeGreaterThanOrEqual(row.first_audio_ms ?? 0);
    }
    // Every surface spoke with vendor_a's a_model_1 and the voice aarila, each row names them where its request
    // carried them: the mirror's REST request left the model out, so its row names the vendor's default.
    expect(rows.map(({ surface, model, voice }) => ({ surface, model, voice }))).toEqual(
      rows.map(({ surface }) => ({ surface, model: 'a_model_1', voice: 'aarila' })),
    );
    const speech = rows.filter((r) => r.surface === 'speech');
    // Newest first: the repeat came from the cache, the first was synthesized.
    expect(speech.map((r) => r.cached_sentences)).toEqual([1, 0]);
    expect(speech.map((r) => r.cached_chars)).toEqual([SAID.native.length, 0]);
    for (const row of speech) expect(row).toMatchObject({ http_status: 200, chars: SAID.native.length });
    const stream = rows.find((r) => r.surface === 'stream');
    expect(stream).toMatchObject({ http_status: null, chars: SAID.stream.length });
    expect(rows.find((r) => r.surface === 'mirror_rest')).toMatchObject({ http_status: 200 });
    expect(rows.find((r) => r.surface === 'mirror_socket')).toMatchObject({ http_status: null });
  });

  it('filters by date range, key, vendor, surface, status and cached', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const count = async (query: string) => (await list(owner, query)).length;
    expect(await count(`?from=${today}&to=${today}`)).toBe(5);
    expect(await count(`?from=${tomorrow}`)).toBe(0);
    expect(await count(`?key=${keyId}`)).toBe(5);
    expect(await count(`?key=${randomUUID()}`)).toBe(0);
    expect(await count('?vendor=vendor_a')).toBe(5);
    expect(await count('?vendor=vendor_b')).toBe(0);
    expect(await count('?surface=stream')).toBe(1);
    expect(await count('?surface=mirror_socket')).toBe(1);
    expect(await count('?status=ok')).toBe(5);
    expect(await count('?status=error')).toBe(0);
    expect((await list(owner, '?cached=true')).map((r) => r.surface)).toEqual(['speech']);
    expect(await count('?cached=false')).toBe(4);
    expect(await count('?surface=speech&cached=false')).toBe(1);
    for (const [query, named] of [
      ['?surface=ftp', 'surface'],
      ['?status=maybe', 'status'],
      ['?cached=yes', 'cached'],
      ['?vendor=acme', 'vendor'],
      ['?vendor=vendor_a&vendor=vendor_b', 'vendor'],
      ['?from=yesterday', 'from'],
      ['?limit=0', 'limit'],
      ['?cursor=nonsense', 'cursor'],
      [`?from=${tomorrow}&to=${today}`, 'from'],
    ] as const) {
      const answer = await ask(owner, `/api/requests${query}`);
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      expect(answer.body.error.message).toContain(named);
    }
  });

  it('pages back with a cursor, each row once', async () => {
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const answer = await ask(owner, `/api/requests?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer.status).toBe(200);
      expect(answer.body.rows.length).toBeLessThanOrEqual(2);
      seen.push(...(answer.body as RequestPage).rows.map((r) => r.id));
      cursor = answer.body.next_cursor as string | null;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(rows.map((r) => r.id));
  });

  it('exports the filtered rows as CSV', async () => {
    const res = await fetch(`${gw}/api/requests/export?surface=speech`, {
      headers: { cookie: owner.cookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toContain('request-log.csv');
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'started_at,key_prefix,key_name,surface,vendor,model,voice,chars,cached_chars,sentences,cached_sentences,' +
        'first_audio_ms,duration_ms,status,http_status,error_code',
    );
    expect(lines).toHaveLength(3);
    for (const line of lines.slice(1)) expect(line).toMatch(/,voice bot,speech,vendor_a,/);
    const all = await (
      await fetch(`${gw}/api/requests/export`, { headers: { cookie: owner.cookie } })
    ).text();
    expect(all.trimEnd().split('\r\n')).toHaveLength(6);
    noText(all);
  });

  it('sums the rows per day and vendor, per key, per model and per voice', async () => {
    const answer = await ask(owner, '/api/breakdowns');
    expect(answer.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const body = answer.body as Breakdowns;
    expect(body.days).toHaveLength(30);
    expect(body.to).toBe(today);
    const total = SAID.native.length * 2 + SAID.stream.length + SAID['mirror-socket'].length;
    const vendor = body.vendors.find((v) => v.vendor === 'vendor_a')!;
    expect(vendor).toMatchObject({
      requests: 5,
      errors: 0,
      sentences: 5,
      cached_sentences: 1,
      cache_share: 0.2,
    });
    expect(vendor.cached_chars).toBe(SAID.native.length);
    // A mirror REST request counts the characters its vendor would bill, which need not be its text's.
    expect(vendor.chars).toBeGreaterThanOrEqual(total);
    expect(vendor.synthesized_chars).toBe(vendor.chars - vendor.cached_chars);
    expect(vendor.first_audio_p50_ms).toEqual(expect.any(Number));
    expect(vendor.first_audio_p95_ms).toBeGreaterThanOrEqual(vendor.first_audio_p50_ms!);
    expect(body.by_day).toEqual([expect.objectContaining({ day: today, vendor: 'vendor_a', requests: 5 })]);
    expect(body.keys).toEqual([
      expect.objectContaining({
        key: { id: keyId, prefix: expect.any(String), name: 'voice bot' },
        requests: 5,
      }),
    ]);
    // Every row names one model and one voice, the mirrors' too: each sums all five requests.
    expect(body.models).toEqual([
      expect.objectContaining({ vendor: 'vendor_a', model: 'a_model_1', requests: 5 }),
    ]);
    expect(body.voices).toEqual([
      expect.objectContaining({ vendor: 'vendor_a', voice: 'aarila', requests: 5 }),
    ]);
    for (const [query, named] of [
      ['?from=2026-13-01', 'from'],
      ['?from=2020-01-01&to=2026-01-01', 'days'],
      [`?from=${today}&to=2020-01-01`, 'from'],
    ] as const) {
      const refused = await ask(owner, `/api/breakdowns${query}`);
      expect({ query, status: refused.status }).toEqual({ query, status: 400 });
      expect(refused.body.error.message).toContain(named);
    }
    noText(JSON.stringify(body));
  });

  it("shows a member the org's rows and another org none of them", async () => {
    expect((await list(member)).map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(await list(other)).toEqual([]);
    expect(await list(other, `?key=${keyId}`)).toEqual([]);
    const sums = await ask(other, '/api/breakdowns');
    expect(sums.body).toMatchObject({ vendors: [], by_day: [], keys: [], models: [], voices: [] });
    const csv = await (
      await fetch(`${gw}/api/requests/export`, { headers: { cookie: other.cookie } })
    ).text();
    expect(csv.trimEnd().split('\r\n')).toHaveLength(1);
    expect((await fetch(`${gw}/api/requests`)).status).toBe(401);
  });

  it('holds no sentence text in any answer', async () => {
    noText(JSON.stringify(await ask(owner, '/api/requests?limit=200')));
    noText(JSON.stringify(await ask(member, '/api/breakdowns')));
  });

  describe('pages (Chromium)', () => {
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: WIDTHS.desktop, bypassCSP: true });
      const [name, value] = member.cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: gw }]);
      page = await context.newPage();
    }, TEST_MS);
    afterAll(async () => {
      await browser?.close();
    });

    const open = async (path: string, title: string): Promise<void> => {
      await page.goto(`${gw}/dashboard${path}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.locator('.loading').waitFor({ state: 'detached' });
    };
    /** At each width: no sideways scrolling, a screenshot, no accessibility violation, no sentence's text. */
    const checkWidths = async (name: string): Promise<void> => {
      for (const [width, viewport] of Object.entries(WIDTHS)) {
        await page.setViewportSize(viewport);
        const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
        expect({ width, overflow }).toEqual({ width, overflow: 0 });
        await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
        expect({ width, violations: await axeScan(page) }).toEqual({ width, violations: [] });
        noText(await page.content());
      }
      await page.setViewportSize(WIDTHS.desktop);
    };

    it(
      'lists the request log with its filters, pages and export, at both widths',
      async () => {
        await open('/requests', 'Request log');
        const body = page.locator('tbody tr');
        expect(await body.count()).toBe(5);
        const first = body.first();
        expect(await first.locator('td[data-label="API key"]').textContent()).toContain('voice bot');
        expect(await page.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
        expect(await page.getByRole('button', { name: 'Newer' }).isDisabled()).toBe(true);
        await checkWidths('requests');

        await page.getByLabel('Surface').selectOption('stream');
        await page.getByRole('button', { name: 'Apply filters' }).click();
        await eventually('one stream row', async () => (await body.count()) === 1, LONG_MS);
        expect(await body.first().locator('td[data-label="Surface"]').textContent()).toBe(
          'Stream (/v1/stream)',
        );
        expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
          '/api/requests/export?surface=stream',
        );
        await page.getByLabel('Surface').selectOption('');
        await page.getByLabel('From the cache').selectOption('true');
        await page.getByRole('button', { name: 'Apply filters' }).click();
        // The stream filter's page had one row too: wait for the cached one.
        const sentencesCell = body.first().locator('td[data-label="Sentences (from cache)"]');
        await eventually(
          'the cached row',
          async () => (await sentencesCell.textContent()) === '1 (1)',
          LONG_MS,
        );
        expect(await body.count()).toBe(1);
        await page.getByLabel('From the cache').selectOption('');
        await page.getByLabel('Vendor').selectOption('vendor_b');
        await page.getByRole('button', { name: 'Apply filters' }).click();
        await page.getByText('No requests match these filters.').waitFor();
      },
      TEST_MS,
    );

    it(
      'shows the breakdowns with a date range, undistorted charts with axes, and a table for each',
      async () => {
        await open('/breakdowns', 'Breakdowns');
        const today = new Date().toISOString().slice(0, 10);
        expect(await page.getByLabel('To (UTC day, included)').inputValue()).toBe(today);
        await page.getByRole('heading', { level: 2, name: 'vendor_a' }).waitFor();
        // Four charts for the vendor, each drawn at its box's width with 0 and round steps on its value axis.
        expect(await page.locator('figure.chart svg').count()).toBe(4);
        for (const [width, viewport] of Object.entries(WIDTHS)) {
          await page.setViewportSize(viewport);
          await eventually(
            'the charts are drawn at the new width',
            async () =>
              (await page.locator('figure.chart svg').first().getAttribute('width')) ===
              String(
                await page
                  .locator('.chart-box')
                  .first()
                  .evaluate((box) => Math.floor(box.getBoundingClientRect().width)),
              ),
            LONG_MS,
          );
          const drawn = await chartText(page);
          expect({ width, stretched: drawn.stretched }).toEqual({ width, stretched: [] });
          expect(new Set(drawn.scales)).toEqual(new Set([1]));
          expect({ width, overlapping: drawn.overlapping }).toEqual({ width, overlapping: [] });
          expect(drawn.texts).toContain('0');
          expect(drawn.texts.filter((t) => /^\d{4}-\d\d-\d\d$/.test(t)).length).toBeGreaterThanOrEqual(8);
        }
        await page.setViewportSize(WIDTHS.desktop);
        const perKey = page.locator('table', { hasText: 'Each API key over the period' });
        expect(await perKey.locator('td[data-label="API key"]').textContent()).toContain('voice bot');
        expect(await perKey.locator('td[data-label="Requests"]').textContent()).toBe('5');
        const perDay = page.locator('table', { hasText: 'vendor_a per day' });
        expect(await perDay.locator('td[data-label="Day"]').textContent()).toBe(today);
        expect(await perDay.locator('td[data-label="Sentences from cache"]').textContent()).toBe('20.0 %');
        await page.locator('table', { hasText: 'Each model over the period' }).waitFor();
        await page.locator('table', { hasText: 'Each voice over the period' }).waitFor();
        await checkWidths('breakdowns');

        await page.getByLabel('From (UTC day)').fill('2020-01-01');
        await page.getByRole('button', { name: 'Show this range' }).click();
        await page.locator('.field-error', { hasText: '366 days' }).waitFor();
        const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
        await page.getByLabel('From (UTC day)').fill(tomorrow);
        await page.getByLabel('To (UTC day, included)').fill(tomorrow);
        await page.getByRole('button', { name: 'Show this range' }).click();
        await page.getByText('No requests in this period.').waitFor();
      },
      TEST_MS,
    );
  });
});
