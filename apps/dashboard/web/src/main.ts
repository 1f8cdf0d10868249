import type { Session } from '@router/dashboard-types';
import { ApiError, call, onSessionEnded, useSession } from './api';
import { field, h, status } from './dom';
import { creditPage, keysPage, messageOf, type Page, usagePage } from './pages';
import { vendorKeysPage } from './vendor-keys';
import { cachePage } from './cache';
import { retentionPage } from './retention';
import { auditPage, membersPage } from './members';
import { breakdownsPage, requestsPage } from './requests';
import { playgroundPage } from './playground';

const BASE = '/dashboard';
const PAGES: ReadonlyArray<{ path: string; page: Page }> = [
  { path: '/', page: usagePage },
  { path: '/requests', page: requestsPage },
  { path: '/breakdowns', page: breakdownsPage },
  { path: '/keys', page: keysPage },
  { path: '/provider-keys', page: vendorKeysPage },
  { path: '/retention', page: retentionPage },
  { path: '/cache', page: cachePage },
  { path: '/playground', page: playgroundPage },
  { path: '/credit', page: creditPage },
  { path: '/members', page: membersPage },
  { path: '/audit', page: auditPage },
];

const root = document.getElementById('app') as HTMLElement;
let session: Session | null = null;

/** The page's own path under /dashboard ('/' for the overview). */
function currentPath(): string {
  const path = location.pathname.slice(BASE.length).replace(/\/+$/, '');
  return path === '' ? '/' : path;
}

function go(path: string): void {
  history.pushState(null, '', `${BASE}${path === '/' ? '/' : path}`);
  void show();
}

/** Links inside the app change the page without a reload. */
function link(path: string, text: string): HTMLElement {
  const current = currentPath() === path;
  return h(
    'a',
    {
      href: `${BASE}${path === '/' ? '/' : path}`,
      ...(current ? { 'aria-current': 'page' } : {}),
      onclick: (event: Event) => {
        const e = event as MouseEvent;
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        event.preventDefault();
        go(path);
      },
    },
    text,
  );
}

async function show(): Promise<void> {
  if (session === null) {
    try {
      session = await call<Session>('GET', '/api/session');
      useSession(session);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) return renderFailure(error);
    }
  }
  if (session === null) return renderSignIn();
  const path = currentPath();
  const entry = PAGES.find((p) => p.path === path);
  if (!entry) return go('/');
  const main = h(
    'main',
    { id: 'main', tabindex: '-1' },
    h('h1', {}, entry.page.title),
    h('p', { class: 'loading' }, 'Loading…'),
  );
  root.replaceChildren(header(session), main);
  document.title = `${entry.page.title} · Router dashboard`;
  main.focus();
  try {
    const content = await entry.page.render({ session, go });
    main.replaceChildren(h('h1', {}, entry.page.title), content);
  } catch (error) {
    // A 401 has led to the sign-in already (onSessionEnded).
    if (error instanceof ApiError && error.status === 401) return;
    main.replaceChildren(
      h('h1', {}, entry.page.title),
      h('p', { class: 'status error', role: 'alert' }, messageOf(error)),
    );
  }
}

function header(current: Session): HTMLElement {
  const signOut = async (): Promise<void> => {
    await call('DELETE', '/api/session').catch(() => undefined);
    session = null;
    history.pushState(null, '', `${BASE}/`);
    renderSignIn('You are signed out.');
  };
  return h(
    'header',
    {},
    h('p', { class: 'brand' }, 'Router dashboard', h('span', { class: 'org' }, current.org.name)),
    h(
      'nav',
      { 'aria-label': 'Dashboard' },
      h('ul', {}, ...PAGES.map(({ path, page }) => h('li', {}, link(path, page.title)))),
    ),
    h(
      'p',
      { class: 'who' },
      h('span', {}, current.email),
      h('button', { type: 'button', class: 'link', onclick: () => void signOut() }, 'Sign out'),
    ),
  );
}

function renderSignIn(message?: string): void {
  const note = status();
  if (message) note.say(message);
  const email = field(
    'Email address',
    h('input', { type: 'email', autocomplete: 'username', required: true }) as HTMLInputElement,
  );
  const code = field(
    'Sign-in code',
    h('input', {
      type: 'text',
      autocomplete: 'one-time-code',
      spellcheck: 'false',
      required: true,
    }) as HTMLInputElement,
    'The one-time code your router operator gave you (npm run admin -- member code <email>).',
  );
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    email.setError(null);
    code.setError(null);
    let bad = false;
    if (!/^[^\s@]+@[^\s@]+$/.test(email.input.value.trim())) {
      email.setError('Enter your email address, like name@example.com.');
      bad = true;
    }
    if (code.input.value.replace(/[\s-]/g, '').length !== 15) {
      code.setError('Enter the 15-character code, like ABCDE-FGHJK-MNPQR.');
      bad = true;
    }
    if (bad) return document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    try {
      session = await call<Session>('POST', '/api/session', {
        email: email.input.value.trim(),
        code: code.input.value,
      });
      useSession(session);
      await show();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        code.setError(error.message);
        code.input.focus();
      } else note.say(messageOf(error), 'error');
    }
  };
  const main = h(
    'main',
    { id: 'main', tabindex: '-1', class: 'narrow' },
    h('h1', {}, 'Sign in'),
    h('p', {}, 'Manage your org: API keys, vendor keys, retention, credit, and what the cache saves you.'),
    note.element,
    h(
      'form',
      { onsubmit: (e: Event) => void submit(e), novalidate: true },
      email.wrapper,
      code.wrapper,
      h('button', { type: 'submit' }, 'Sign in'),
    ),
  );
  root.replaceChildren(main);
  document.title = 'Sign in · Router dashboard';
  email.input.focus();
}

function renderFailure(error: unknown): void {
  root.replaceChildren(
    h(
      'main',
      { id: 'main' },
      h('h1', {}, 'Router dashboard'),
      h('p', { class: 'status error', role: 'alert' }, messageOf(error)),
    ),
  );
}

// An action after the session ended (its time ran out, or it was signed out in another tab) leads to the sign-in,
// which comes back to the same page.
onSessionEnded(() => {
  if (session === null) return;
  session = null;
  renderSignIn('Your session has ended: sign in again to carry on.');
});
window.addEventListener('popstate', () => void show());
void show();
