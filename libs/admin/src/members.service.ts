import {
  hashSecret,
  newSessionToken,
  newSignInCode,
  normalizeSignInCode,
  ORG_STANDING_FIELDS,
  type OrgStanding,
  orgStandingOf,
  sameSecret,
} from '@router/auth';
import { RouterError } from '@router/contracts';
import type { Member, PrismaClient } from '@router/db';
import type { MemberView, SignInCodeView } from './admin.dto';
import { AuditLog, OPERATOR } from './audit';

/** What a member may do: an owner also manages members, vendor keys, retention and the cache. */
export type MemberRole = 'owner' | 'member';
export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'member'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** One message for every failed sign-in, so an answer never tells which addresses are members. */
const SIGN_IN_REFUSED =
  'That email address and sign-in code do not match, or the code was used or has expired.';

export interface MembersSettings {
  /** How long a session lasts from its sign-in (no sliding: a stolen cookie stops working at this age). */
  sessionTtlMs: number;
  /** How long a printed sign-in code may be used (once). */
  signInCodeTtlMs: number;
}

/** A signed-in member, as every request of their session sees them. */
export interface SignedIn {
  sessionId: string;
  memberId: string;
  email: string;
  orgId: string;
  role: MemberRole;
  expiresAt: Date;
}

/**
 * Org members and their dashboard sessions. A member signs in with their address and a one-time code the admin
 * CLI printed (where no mail server exists, the operator hands it over); the session's token lives only in an
 * HTTP-only cookie, and only hashes of codes and tokens are stored.
 */
export class MembersService {
  private readonly audit: AuditLog;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly settings: MembersSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.audit = new AuditLog(prisma);
  }

  /**
   * Adds a member to an org with a first sign-in code (an invitation: the code is shown once, to whoever
   * hands it over), put down on the org's audit list to `actor`.
   */
  async addMember(
    orgId: string,
    email: string,
    role: MemberRole = 'owner',
    actor = OPERATOR,
  ): Promise<SignInCodeView> {
    const org = UUID.test(orgId) ? await this.prisma.org.findUnique({ where: { id: orgId } }) : null;
    if (!org) throw new RouterError('not_found', `No org with id ${orgId}`);
    const address = normalizeEmail(email);
    if (await this.prisma.member.findUnique({ where: { email: address } })) {
      throw RouterError.badRequest(`${address} is a member already; give them a new code instead.`);
    }
    const member = await this.prisma.member.create({ data: { orgId, email: address, role } });
    await this.audit.record(orgId, actor, 'member.invited', `${address} as ${role}`);
    return this.newCode(member);
  }

  /** A new one-time code for a member of `orgId` named by id (an org owner's re-invitation). */
  async issueCodeFor(orgId: string, memberId: string, actor: string): Promise<SignInCodeView> {
    const member = await this.memberOf(orgId, memberId);
    await this.audit.record(orgId, actor, 'member.code_issued', member.email);
    return this.newCode(member);
  }

  /** Changes a member's role; the org's last owner stays an owner. */
  async setRole(orgId: string, memberId: string, role: MemberRole, actor: string): Promise<MemberView> {
    const member = await this.memberOf(orgId, memberId);
    if (member.role === role) return toMemberView(member);
    if (member.role === 'owner') await this.keepAnOwner(orgId, 'made a member');
    const changed = await this.prisma.member.update({ where: { id: member.id }, data: { role } });
    await this.audit.record(orgId, actor, 'member.role_changed', `${member.email}: ${member.role} → ${role}`);
    return toMemberView(changed);
  }

  /** Removes a member and ends their sessions; the org's last owner stays. */
  async removeMember(orgId: string, memberId: string, actor: string): Promise<void> {
    const member = await this.memberOf(orgId, memberId);
    if (member.role === 'owner') await this.keepAnOwner(orgId, 'removed');
    // Sessions go with the member (ON DELETE CASCADE): a removed member's open pages get 401 at once.
    await this.prisma.member.delete({ where: { id: member.id } });
    await this.audit.record(orgId, actor, 'member.removed', member.email);
  }

  /** A new one-time code for a member, replacing any code not used yet. */
  async issueCode(email: string): Promise<SignInCodeView> {
    const member = await this.prisma.member.findUnique({ where: { email: normalizeEmail(email) } });
    if (!member) throw new RouterError('not_found', `No member with the address ${email}`);
    return this.newCode(member);
  }

  async listMembers(orgId: string): Promise<MemberView[]> {
    const rows = await this.prisma.member.findMany({ where: { orgId }, orderBy: { createdAt: 'asc' } });
    return rows.map(toMemberView);
  }

  /** A member of the org by id; one of another org is as unknown as a missing one. */
  private async memberOf(orgId: string, memberId: string): Promise<Member> {
    const member = UUID.test(memberId)
      ? await this.prisma.member.findUnique({ where: { id: memberId } })
      : null;
    if (!member || member.orgId !== orgId)
      throw new RouterError('not_found', `No member with id ${memberId}`);
    return member;
  }

  /** Refuses to leave the org without an owner. */
  private async keepAnOwner(orgId: string, what: string): Promise<void> {
    const owners = await this.prisma.member.count({ where: { orgId, role: 'owner' } });
    if (owners <= 1) {
      throw RouterError.badRequest(
        `The org's only owner cannot be ${what}: make another member an owner first.`,
      );
    }
  }

  /**
   * A new session for the member whose unexpired code this is; the code is used up. Any mismatch is the same
   * refusal, and a code is compared only by its hash, in constant time.
   */
  async signIn(email: string, typedCode: string): Promise<{ token: string; session: SignedIn }> {
    const code = normalizeSignInCode(typedCode);
    const member = await this.prisma.member.findUnique({ where: { email: normalizeEmail(email) } });
    const now = this.now();
    if (
      !code ||
      !member?.signInCodeHash ||
      !member.signInCodeExpiresAt ||
      member.signInCodeExpiresAt.getTime() <= now ||
      !sameSecret(hashSecret(code), member.signInCodeHash)
    ) {
      throw RouterError.unauthorized(SIGN_IN_REFUSED);
    }
    // Used once: of two sign-ins racing with one code, only the one that clears it gets a session.
    const used = await this.prisma.member.updateMany({
      where: { id: member.id, signInCodeHash: member.signInCodeHash },
      data: { signInCodeHash: null, signInCodeExpiresAt: null },
    });
    if (used.count !== 1) throw RouterError.unauthorized(SIGN_IN_REFUSED);
    await this.prisma.dashboardSession.deleteMany({ where: { expiresAt: { lte: new Date(now) } } });
    const token = newSessionToken();
    const row = await this.prisma.dashboardSession.create({
      data: {
        memberId: member.id,
        tokenHash: hashSecret(token),
        expiresAt: new Date(now + this.settings.sessionTtlMs),
      },
    });
    return {
      token,
      session: {
        sessionId: row.id,
        memberId: member.id,
        email: member.email,
        orgId: member.orgId,
        role: roleOf(member),
        expiresAt: row.expiresAt,
      },
    };
  }

  /** The session a cookie's token names, or undefined when there is none or it has expired. */
  async session(token: string): Promise<SignedIn | undefined> {
    const row = await this.prisma.dashboardSession.findUnique({
      where: { tokenHash: hashSecret(token) },
      include: { member: true },
    });
    if (!row || row.expiresAt.getTime() <= this.now()) return undefined;
    return {
      sessionId: row.id,
      memberId: row.memberId,
      email: row.member.email,
      orgId: row.member.orgId,
      role: roleOf(row.member),
      expiresAt: row.expiresAt,
    };
  }

  /**
   * Whether an org may have speech made for it now, as the gateway's key check has it (a session stands in for
   * a key on `/v1/stream`): undefined when the org is gone.
   */
  async orgStanding(orgId: string): Promise<OrgStanding | undefined> {
    const org = await this.prisma.org.findUnique({ where: { id: orgId }, select: ORG_STANDING_FIELDS });
    return org ? orgStandingOf(org) : undefined;
  }

  async signOut(sessionId: string): Promise<void> {
    await this.prisma.dashboardSession.deleteMany({ where: { id: sessionId } });
  }

  private async newCode(member: Member): Promise<SignInCodeView> {
    const code = newSignInCode();
    const expiresAt = new Date(this.now() + this.settings.signInCodeTtlMs);
    await this.prisma.member.update({
      where: { id: member.id },
      data: { signInCodeHash: hashSecret(code), signInCodeExpiresAt: expiresAt },
    });
    return { member: toMemberView(member), code, expires_at: expiresAt.toISOString() };
  }
}

/** Addresses are compared lower-cased and trimmed; what else makes an address valid is the operator's call. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function roleOf(member: Member): MemberRole {
  return member.role === 'member' ? 'member' : 'owner';
}

function toMemberView(member: Member): MemberView {
  return {
    id: member.id,
    org_id: member.orgId,
    email: member.email,
    role: roleOf(member),
    created_at: member.createdAt.toISOString(),
  };
}
