import { hashSecret } from '@router/auth';
import { createDatabase, type Database } from '@router/db';
import { createScratchDatabase, type ScratchDatabase } from '@router/testing';
import { MembersService } from './members.service';

const HOUR = 3_600_000;

describe('MembersService (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: Database;
  let now: number;
  let members: MembersService;
  let orgA: string;
  let orgB: string;

  beforeAll(async () => {
    db = await createDatabase({ url: (scratch = await createScratchDatabase('members')).url });
    await db.migrate();
    orgA = (await db.prisma.org.create({ data: { name: 'a' } })).id;
    orgB = (await db.prisma.org.create({ data: { name: 'b' } })).id;
  }, 60_000);

  afterAll(async () => {
    await db.close();
    await scratch.drop();
  });

  beforeEach(() => {
    now = Date.parse('2026-11-26T10:00:00Z');
    members = new MembersService(db.prisma, { sessionTtlMs: 12 * HOUR, signInCodeTtlMs: HOUR }, () => now);
  });

  let serial = 0;
  const address = (): string => `Member${++serial}@Example.com`;

  it("signs a member in once with their code, into their own org's session", async () => {
    const email = address();
    const { code } = await members.addMember(orgB, email);
    const { token, session } = await members.signIn(email.toLowerCase(), code.toLowerCase());
    expect(session).toMatchObject({ email: email.toLowerCase(), orgId: orgB });
    expect(session.expiresAt.getTime()).toBe(now + 12 * HOUR);
    await expect(members.session(token)).resolves.toMatchObject({ orgId: orgB, memberId: session.memberId });
    // Used up: the same code again is refused.
    await expect(members.signIn(email, code)).rejects.toMatchObject({ code: 'unauthorized', status: 401 });
    // Neither the code nor the token is stored, only their hashes.
    const row = await db.prisma.dashboardSession.findUniqueOrThrow({ where: { id: session.sessionId } });
    expect(row.tokenHash).toBe(hashSecret(token));
    expect(JSON.stringify(await db.prisma.member.findMany())).not.toContain(code);
  });

  it('refuses a wrong code, an unknown address and an expired code in the same words', async () => {
    const email = address();
    const { code } = await members.addMember(orgA, email);
    const refusals = await Promise.all([
      members.signIn(email, 'ABCDE-FGHJK-MNPQR').catch((e: Error) => e.message),
      members.signIn('nobody@example.com', code).catch((e: Error) => e.message),
      members.signIn(email, 'not a code').catch((e: Error) => e.message),
    ]);
    now += HOUR;
    refusals.push(await members.signIn(email, code).catch((e: Error) => e.message));
    expect(new Set(refusals).size).toBe(1);
    expect(refusals[0]).toContain('do not match');
  });

  it('lets one of two sign-ins racing with one code in', async () => {
    const email = address();
    const { code } = await members.addMember(orgA, email);
    const results = await Promise.allSettled([members.signIn(email, code), members.signIn(email, code)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('replaces an unused code with a new one', async () => {
    const email = address();
    const first = await members.addMember(orgA, email);
    const second = await members.issueCode(email);
    await expect(members.signIn(email, first.code)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(members.signIn(email, second.code)).resolves.toMatchObject({ session: { orgId: orgA } });
  });

  it('ends a session at its expiry and at sign-out', async () => {
    const email = address();
    const { token } = await members.signIn(email, (await members.addMember(orgA, email)).code);
    now += 12 * HOUR - 1;
    await expect(members.session(token)).resolves.toBeDefined();
    now += 1;
    await expect(members.session(token)).resolves.toBeUndefined();

    const again = await members.signIn(email, (await members.issueCode(email)).code);
    await members.signOut(again.session.sessionId);
    await expect(members.session(again.token)).resolves.toBeUndefined();
  });

  it('invites a member with a role, which their sessions carry, and puts it on the audit list', async () => {
    const email = address();
    const made = await members.addMember(orgB, email, 'member', 'owner@example.com');
    expect(made.member).toMatchObject({ role: 'member', org_id: orgB });
    const { session } = await members.signIn(email, made.code);
    expect(session.role).toBe('member');
    const events = await db.prisma.auditEvent.findMany({ where: { orgId: orgB, action: 'member.invited' } });
    expect(events.map((e) => [e.actor, e.target])).toContainEqual([
      'owner@example.com',
      `${email.toLowerCase()} as member`,
    ]);
  });

  it("keeps an org's last owner, and touches no member of another org", async () => {
    const org = (await db.prisma.org.create({ data: { name: 'owners' } })).id;
    const first = await members.addMember(org, address(), 'owner');
    const second = await members.addMember(org, address(), 'member');
    const by = 'someone@example.com';
    await expect(members.setRole(org, first.member.id, 'member', by)).rejects.toMatchObject({
      code: 'bad_request',
      message: "The org's only owner cannot be made a member: make another member an owner first.",
    });
    await expect(members.removeMember(org, first.member.id, by)).rejects.toMatchObject({
      code: 'bad_request',
    });
    await expect(members.setRole(orgA, second.member.id, 'owner', by)).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(members.removeMember(orgA, second.member.id, by)).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(members.issueCodeFor(orgA, first.member.id, by)).rejects.toMatchObject({
      code: 'not_found',
    });
    // With a second owner, the first may go; their sessions go with them.
    expect(await members.setRole(org, second.member.id, 'owner', by)).toMatchObject({ role: 'owner' });
    const { token } = await members.signIn(first.member.email, first.code);
    await members.removeMember(org, first.member.id, by);
    await expect(members.session(token)).resolves.toBeUndefined();
    expect((await members.listMembers(org)).map((m) => m.id)).toEqual([second.member.id]);
  });

  it('refuses a second member with one address, and a member of an org that does not exist', async () => {
    const email = address();
    await members.addMember(orgA, email);
    await expect(members.addMember(orgB, email.toUpperCase())).rejects.toMatchObject({ code: 'bad_request' });
    await expect(members.addMember('00000000-0000-4000-8000-000000000000', address())).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(members.issueCode('nobody@example.com')).rejects.toMatchObject({ code: 'not_found' });
  });

  it("reads an org's standing as the gateway does: disabled, out of credit, none for an org that is gone", async () => {
    const org = (await db.prisma.org.create({ data: { name: 'standing' } })).id;
    await expect(members.orgStanding(org)).resolves.toEqual({ disabled: false, outOfCredit: false });
    await db.prisma.org.update({ where: { id: org }, data: { creditState: 'out_of_credit' } });
    await expect(members.orgStanding(org)).resolves.toEqual({ disabled: false, outOfCredit: true });
    await db.prisma.org.update({ where: { id: org }, data: { disabled: true, creditState: 'in_credit' } });
    await expect(members.orgStanding(org)).resolves.toEqual({ disabled: true, outOfCredit: false });
    await expect(members.orgStanding('00000000-0000-4000-8000-000000000000')).resolves.toBeUndefined();
  });
});
