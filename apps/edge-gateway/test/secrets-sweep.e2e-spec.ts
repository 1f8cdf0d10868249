import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { createBlobStore } from '@router/blob-store';
import { VENDOR_IDS } from '@router/vendors';
import {
  createOrgClient,
  createScratchDatabase,
  everySurface,
  migrateScratchDatabase,
  REPO_ROOT,
  type RunningStack,
  type ScratchDatabase,
  servicesEnv,
  startStack,
  type SurfaceOrg,
  type SurfaceOutcome,
  waitFor,
} from '@router/testing';
import { SimControl } from '@router/vendor-sim';

/**
 * The secrets sweep: sentence text, router keys and vendor keys go to the vendor and nowhere else. A stack of
 * its own logging at `debug` (the most any operator would turn on) takes traffic with text, a router key and
 * a vendor key unique to this run through every surface of every vendor (native HTTP, `/v1/stream`, each
 * mirror's REST, SSE and socket), cleanly and with the vendor refusing, plus requests the router itself
 * refuses (a wrong voice, a malformed body, a revoked key). Then none of them may appear in any line any router
 * app logged, any metric (labels included) any app serves, any row of any table, any object name in the bucket,
 * or any answer a client got (error bodies and messages included; audio aside).
 */
let db: ScratchDatabase;
let stack: RunningStack;
let logDir: string;
const BUCKET = `router-sweep-${randomBytes(4).toString('hex')}`;

/** Each text carries a random word of its own: a leak of part of a text is found by that word. */
const texts: string[] = [];
function sentence(): string {
  const word = randomBytes(6).toString('hex');
  const text = `The sweep sentence ${word} travels every surface.`;
  texts.push(text);
  return text;
}

beforeAll(async () => {
  logDir = join(REPO_ROOT, 'tmp', 'e2e', 'secrets-sweep');
  rmSync(logDir, { recursive: true, force: true }); // the apps append: only this run's lines
  mkdirSync(logDir, { recursive: true });
  const services = servicesEnv();
  db = await createScratchDatabase('sweep');
  await migrateScratchDatabase(db);
  stack = await startStack({
    databaseUrl: db.url,
    natsUrl: services.natsUrl,
    s3: { ...services.s3, bucket: BUCKET },
    logDir,
    workers: 1,
    env: { LOG_LEVEL: 'debug' },
  });
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await db?.drop();
}, 60_000);

/** Where `secret` is found in `haystacks` (name to text), by name. */
function leaks(secrets: readonly string[], haystacks: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [where, text] of haystacks) {
    for (const secret of secrets) if (text.includes(secret)) found.push(`${where}: ${secret.slice(0, 12)}…`);
  }
  return found;
}

describe('the secrets sweep (e2e, a stack of its own at debug)', () => {
  it('finds no text, router key or vendor key in logs, metrics, rows, object names or answers', async () => {
    const named = createOrgClient(stack, `sweep-${randomUUID().slice(0, 8)}`);
    const vendorKey = `vk-sweep-${randomBytes(16).toString('hex')}`;
    for (const vendor of VENDOR_IDS) await named.client.providerKeys.put(vendor, vendorKey);
    const org: SurfaceOrg = { key: named.key, vendorKey, client: named.client };
    const sim = new SimControl(stack.simUrl);

    // Every surface: a clean answer, then the same surface with the vendor refusing (its error body or
    // message is what the client reads).
    const answers: Array<{ where: string; outcome: SurfaceOutcome }> = [];
    for (const surface of everySurface(stack)) {
      const where = `${surface.vendor} ${surface.name}`;
      answers.push({ where, outcome: await surface.say(org, sentence()) });
      const refused = sentence();
      const fault = await sim.injectFault({
        vendor: surface.vendor,
        key: vendorKey,
        textIncludes: refused.split(' ')[3] ?? refused,
        kind: 'error',
        status: 400,
      });
      answers.push({ where: `${where} (vendor 400)`, outcome: await surface.say(org, refused) });
      await sim.removeFault(fault.id);
    }
    const clean = answers.filter((a) => a.outcome.end === 'clean' && a.outcome.audio.length > 0);
    // Most answers are audio: the sweep below would prove little if the traffic had not gone through.
    expect(clean.length).toBeGreaterThanOrEqual(everySurface(stack).length);

    // Answers the router gives of its own: a voice the vendor lacks, a body it will not read, a revoked key.
    const bodies = new Map<string, string>();
    const post = async (where: string, path: string, key: string, body: unknown): Promise<void> => {
      const answer = await fetch(`${stack.gatewayUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      bodies.set(`${where} (${answer.status})`, await answer.text());
    };
    await post('unknown voice', '/v1/audio/speech', org.key, {
      model: 'vendor_a/a_model_1',
      // The refusal names the voice it was given (the field's value is the client's own, not a secret).
      voice: `no-such-voice-${randomBytes(4).toString('hex')}`,
      input: sentence(),
    });
    await post('malformed body', '/v1/audio/speech', org.key, `{"input": "${sentence()}", "model": `);
    await post('wrong field type', '/v1/audio/speech', org.key, {
      model: 7,
      voice: 'aarila',
      input: sentence(),
    });
    await post('a key that is no key', '/v1/audio/speech', `rtr_${randomBytes(24).toString('base64url')}`, {
      model: 'vendor_a/a_model_1',
      voice: 'aarila',
      input: sentence(),
    });
    for (const { where, outcome } of answers) {
      if (outcome.message !== undefined) bodies.set(`${where} message`, outcome.message);
      // A mirror's REST or SSE answer is its whole body: text unless it is audio.
      if (outcome.end !== 'clean') bodies.set(`${where} body`, outcome.audio.toString('utf8'));
    }
    const unknownKey = [...bodies.keys()].find((k) => k.startsWith('a key that is no key'));
    expect(unknownKey).toMatch(/\(401\)$/);

    const secrets = [...texts, ...texts.map((t) => t.split(' ')[3] ?? t), org.key, vendorKey];

    // Every log line of every router app (the simulated vendors are not the router: they get the vendor key).
    // The apps write asynchronously: read once the logs have stopped growing.
    const routerLogs = (): Map<string, string> =>
      new Map(
        readdirSync(logDir)
          .filter((file) => file.endsWith('.log') && file !== 'vendor-sim.log')
          .map((file) => [file, readFileSync(join(logDir, file), 'utf8')]),
      );
    let lastSize = -1;
    await waitFor(
      'the logs to stop growing',
      async () => {
        const size = [...routerLogs().values()].reduce((sum, text) => sum + text.length, 0);
        const settled = size === lastSize;
        lastSize = size;
        return settled;
      },
      30_000,
      500,
    );
    const logs = routerLogs();
    expect(logs.size).toBeGreaterThan(10);
    expect([...logs.values()].join('').split('\n').length).toBeGreaterThan(100);

    // Every metric of every app, labels included.
    const metrics = new Map<string, string>();
    const ports = Object.entries(stack.ports).filter(([app]) => app !== 'vendor-sim');
    for (const [app, port] of ports) {
      const answer = await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => undefined);
      if (answer?.ok) metrics.set(app, await answer.text());
    }
    metrics.set('edge-gateway (internal)', await (await fetch(`${stack.gatewayInternalUrl}/metrics`)).text());
    expect(metrics.size).toBeGreaterThanOrEqual(ports.length - 1); // a second worker is not started

    // Every row of every table, as text.
    const rows = new Map<string, string>();
    const pg = new PgClient({ connectionString: db.url });
    await pg.connect();
    try {
      const tables = await pg.query<{ name: string }>(
        "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
      );
      for (const { name } of tables.rows) {
        const dump = await pg.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`);
        rows.set(name, dump.rows.map((r) => r.row).join('\n'));
      }
    } finally {
      await pg.end();
    }
    expect(rows.get('cache_entries')?.split('\n').length).toBeGreaterThanOrEqual(clean.length / 2);

    // Every object name in the bucket.
    const blobs = createBlobStore({ kind: 's3', ...servicesEnv().s3, bucket: BUCKET });
    const names: string[] = [];
    try {
      for await (const item of blobs.list('')) names.push(item.name);
    } finally {
      await blobs.close();
    }
    expect(names.length).toBeGreaterThan(0);

    expect(leaks(secrets, logs)).toEqual([]);
    expect(leaks(secrets, metrics)).toEqual([]);
    expect(leaks(secrets, rows)).toEqual([]);
    expect(leaks(secrets, new Map([['object names', names.join('\n')]]))).toEqual([]);
    expect(leaks(secrets, bodies)).toEqual([]);
  }, 600_000);
});
