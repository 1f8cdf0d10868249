import { timingSafeEqual } from 'node:crypto';
import { hashSecret, newSessionToken, newSignInCode, normalizeSignInCode } from '@router/auth';
import { RouterError } from '@router/contracts';
import type { Member, PrismaClient } from '@router/db';
import type { MemberView, SignInCodeView } from './admin.dto';

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
  expiresAt: Date;
}

/**
 * Org members and their dashboard sessions. A member signs in with their address and a one-time code the admin
 * CLI printed (where no mail server exists, the operator hands it over); the session's token lives only in an
 * HTTP-only cookie, and only hashes of codes and tokens are stored.
 */
export class MembersService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly settings: MembersSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Adds a member to an org with a first sign-in code. */
  async addMember(orgId: string, email: string): Promise<SignInCodeView> {
    const org = UUID.test(orgId) ? await this.prisma.org.findUnique({ where: { id: orgId } }) : null;
    if (!org) throw new RouterError('not_found', `No org with id ${orgId}`);
    const address = normalizeEmail(email);
    if (await this.prisma.member.findUnique({ where: { email: address } })) {
      throw RouterError.badRequest(`${address} is a member already; print a new code with "member code".`);
    }
    const member = await this.prisma.member.create({ data: { orgId, email: address } });
    return this.newCode(member);
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
      !sameHash(member.signInCodeHash, hashSecret(code))
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
      expiresAt: row.expiresAt,
    };
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

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function toMemberView(member: Member): MemberView {
  return {
    id: member.id,
    org_id: member.orgId,
    email: member.email,
    created_at: member.createdAt.toISOString(),
  };
}
