import { newSessionToken } from '@router/auth';
import type { MembersService, SignedIn } from './members.service';
import { authenticateSocketSession } from './session.guard';

const SIGNED_IN: SignedIn = {
  sessionId: 's',
  memberId: 'm',
  email: 'a@example.com',
  orgId: 'org-a',
  role: 'member',
  expiresAt: new Date(0),
};

/** Members whose one session is `token`'s, in an org standing as given. */
function members(token: string, standing = { disabled: false, outOfCredit: false }) {
  const asked: string[] = [];
  const service = {
    session: (given: string) => {
      asked.push('session');
      return Promise.resolve(given === token ? SIGNED_IN : undefined);
    },
    orgStanding: () => {
      asked.push('org');
      return Promise.resolve(standing);
    },
  } as unknown as MembersService;
  return { service, asked };
}

describe('authenticateSocketSession', () => {
  const token = newSessionToken();
  const cookie = `rtr_session=${token}`;
  const own = { cookie, origin: 'https://router.example.com', host: 'router.example.com' };

  it("admits a handshake from the router's own pages with a live session, for the session's org", async () => {
    const { service } = members(token);
    await expect(authenticateSocketSession(service, own)).resolves.toMatchObject({ orgId: 'org-a' });
  });

  it('refuses another origin, or none, with 403 before the session is read', async () => {
    for (const origin of ['https://evil.example', 'null', undefined]) {
      const { service, asked } = members(token);
      const headers = { cookie, host: 'router.example.com', ...(origin ? { origin } : {}) };
      await expect(authenticateSocketSession(service, headers)).rejects.toMatchObject({
        code: 'forbidden',
        status: 403,
      });
      expect(asked).toEqual([]);
    }
  });

  it('refuses a session that is missing or over with 401, a disabled org with 401, no credit with 402', async () => {
    await expect(
      authenticateSocketSession(members(token).service, {
        ...own,
        cookie: `rtr_session=${newSessionToken()}`,
      }),
    ).rejects.toMatchObject({ status: 401 });
    const { cookie: _cookie, ...noCookie } = own;
    await expect(authenticateSocketSession(members(token).service, noCookie)).rejects.toMatchObject({
      status: 401,
    });
    const disabled = members(token, { disabled: true, outOfCredit: false }).service;
    await expect(authenticateSocketSession(disabled, own)).rejects.toMatchObject({ status: 401 });
    const broke = members(token, { disabled: false, outOfCredit: true }).service;
    await expect(authenticateSocketSession(broke, own)).rejects.toMatchObject({
      code: 'insufficient_credits',
      status: 402,
    });
  });
});
