import type { AuditEvent, Invitation, Member } from '@router/dashboard-types';
import { ApiError, call } from './api';
import { field, formatDate, h, status } from './dom';
import { focusError, messageOf, ownersOnly, type Page, table } from './pages';

// ---- Members --------------------------------------------------------------------------------------

export const membersPage: Page = {
  title: 'Members',
  async render(ctx) {
    const owner = ctx.session.role === 'owner';
    const note = status();
    const list = h('div', {});
    const shown = h('div', { class: 'once', hidden: true });
    const showCode = (made: Invitation, what: string): void => {
      const value = h('code', { class: 'secret', 'data-testid': 'member-code' }, made.code);
      shown.replaceChildren(
        h('h3', {}, `${what} for ${made.member.email}`),
        h(
          'p',
          {},
          `Give them this code: they sign in at ${location.origin}/dashboard/ with their address and it. `,
          `It works once, until ${formatDate(made.expires_at)}, and is shown only now.`,
        ),
        value,
      );
      shown.hidden = false;
      value.setAttribute('tabindex', '-1');
      value.focus();
    };
    const act = async (work: () => Promise<string>, after: () => HTMLElement | null): Promise<void> => {
      try {
        const said = await work();
        await refresh();
        note.say(said);
        (after() ?? email.input).focus();
      } catch (error) {
        note.say(messageOf(error), 'error');
      }
    };
    const refresh = async (): Promise<void> => {
      const members = await call<Member[]>('GET', '/api/members');
      list.replaceChildren(
        table(
          'Members of this org',
          ['Email', 'Role', 'Added', ...(owner ? ['Actions'] : [])],
          members.map((m) => [
            m.you ? `${m.email} (you)` : m.email,
            m.role,
            formatDate(m.created_at),
            ...(owner ? [memberActions(m)] : []),
          ]),
        ),
      );
    };
    const memberActions = (m: Member): HTMLElement => {
      const other = m.role === 'owner' ? 'member' : 'owner';
      const roleLabel = (role: string): string => `Make ${role}: ${m.email}`;
      return h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            'aria-label': roleLabel(other),
            onclick: () =>
              void act(
                async () => {
                  await call('PUT', `/api/members/${encodeURIComponent(m.id)}/role`, { role: other });
                  return `${m.email} is now ${other === 'owner' ? 'an owner' : 'a member'}.`;
                },
                // The same button, now offering the way back.
                () => list.querySelector<HTMLElement>(`[aria-label="${CSS.escape(roleLabel(m.role))}"]`),
              ),
          },
          `Make ${other}`,
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            'aria-label': `New code for ${m.email}`,
            onclick: () =>
              void (async () => {
                try {
                  const made = await call<Invitation>(
                    'POST',
                    `/api/members/${encodeURIComponent(m.id)}/code`,
                  );
                  note.say(`New sign-in code for ${m.email}: shown below, once.`);
                  showCode(made, 'New sign-in code');
                } catch (error) {
                  note.say(messageOf(error), 'error');
                }
              })(),
          },
          'New code',
        ),
        m.you
          ? null
          : h(
              'button',
              {
                type: 'button',
                class: 'danger',
                'aria-label': `Remove ${m.email}`,
                onclick: () => {
                  if (!window.confirm(`Remove ${m.email}? They are signed out at once.`)) return;
                  void act(
                    async () => {
                      await call('DELETE', `/api/members/${encodeURIComponent(m.id)}`);
                      return `${m.email} removed; their sessions have ended.`;
                    },
                    () => list.querySelector<HTMLElement>('button.danger'),
                  );
                },
              },
              'Remove',
            ),
      );
    };
    const email = field(
      'Email address',
      h('input', { type: 'email', autocomplete: 'off', maxlength: 254 }) as HTMLInputElement,
    );
    const role = field(
      'Role',
      h(
        'select',
        {},
        h('option', { value: 'member' }, 'member: API keys, usage, the audit list'),
        h('option', { value: 'owner' }, 'owner: also members, vendor keys, retention, the cache'),
      ) as HTMLSelectElement,
    );
    const invite = async (event: Event): Promise<void> => {
      event.preventDefault();
      email.setError(null);
      const address = email.input.value.trim();
      if (!/^[^\s@]+@[^\s@]+$/.test(address)) {
        return focusError(email, 'Enter their email address, like name@example.com.');
      }
      try {
        const made = await call<Invitation>('POST', '/api/members', {
          email: address,
          role: role.input.value,
        });
        email.input.value = '';
        await refresh();
        note.say(
          `${made.member.email} invited as ${made.member.role}: their sign-in code is shown below, once.`,
        );
        showCode(made, 'Sign-in code');
      } catch (error) {
        if (error instanceof ApiError && error.status === 400) focusError(email, error.message);
        else note.say(messageOf(error), 'error');
      }
    };
    await refresh();
    return h(
      'div',
      {},
      h(
        'p',
        {},
        'Everyone here signs in to this org. Owners also manage members, vendor keys, retention and the cache; ',
        'members manage API keys and see usage and the audit list.',
      ),
      owner
        ? h(
            'form',
            { onsubmit: (e: Event) => void invite(e), novalidate: true, 'aria-label': 'Invite a member' },
            h('h2', {}, 'Invite a member'),
            email.wrapper,
            role.wrapper,
            h('button', { type: 'submit' }, 'Invite'),
          )
        : ownersOnly('invite or remove members'),
      note.element,
      shown,
      list,
    );
  },
};

// ---- Audit ----------------------------------------------------------------------------------------

const ACTIONS: Readonly<Record<string, string>> = {
  'api_key.issued': 'issued an API key',
  'api_key.revoked': 'revoked an API key',
  'vendor_key.stored': 'stored a vendor key',
  'vendor_key.deleted': 'deleted a vendor key',
  'retention.changed': 'changed retention',
  'member.invited': 'invited a member',
  'member.code_issued': 'gave a member a new sign-in code',
  'member.role_changed': "changed a member's role",
  'member.removed': 'removed a member',
  'cache.purged': 'purged the cache',
};

const AUDIT_PAGE = 50;

export const auditPage: Page = {
  title: 'Audit',
  async render() {
    const rows: AuditEvent[] = [];
    const list = h('div', {});
    const more = h('button', { type: 'button', class: 'secondary' }, 'Show older changes');
    const load = async (): Promise<void> => {
      const before = rows.at(-1)?.created_at;
      const query = `limit=${AUDIT_PAGE}${before ? `&before=${encodeURIComponent(before)}` : ''}`;
      const page = await call<AuditEvent[]>('GET', `/api/audit?${query}`);
      rows.push(...page);
      more.hidden = page.length < AUDIT_PAGE;
      list.replaceChildren(
        rows.length === 0
          ? h('p', {}, 'Nothing has been changed yet.')
          : table(
              'Changes to this org, newest first',
              ['When', 'Who', 'What', 'Details'],
              rows.map((e) => [formatDate(e.created_at), e.actor, ACTIONS[e.action] ?? e.action, e.target]),
            ),
      );
    };
    more.addEventListener('click', () => void load());
    await load();
    return h(
      'div',
      {},
      h(
        'p',
        {},
        'Who issued or revoked an API key, stored or deleted a vendor key, changed retention, changed the ',
        'members or purged the cache, and when. Keys are named by their name and first characters only.',
      ),
      list,
      more,
    );
  },
};
