import type { Org } from '@router/dashboard-types';
import { ApiError, call } from './api';
import { retentionPreview } from './cache';
import { field, h, status } from './dom';
import { messageOf, ownersOnly, section } from './pages';
import type { Page } from './pages';

// ---- Retention ------------------------------------------------------------------------------------

export const retentionPage: Page = {
  title: 'Retention',
  async render(ctx) {
    const org = await call<Org>('GET', '/api/org');
    const note = status();
    const current = h('p', { 'data-testid': 'retention-now' });
    const showCurrent = (days: number): void => {
      current.textContent =
        days === 0
          ? 'Caching is off (retention 0): nothing new is cached and cached audio is deleted within about two days.'
          : `Audio is kept ${days} day${days === 1 ? '' : 's'} after its last use.`;
    };
    showCurrent(org.retention_days);
    const input = h('input', {
      type: 'number',
      inputmode: 'numeric',
      min: 0,
      max: 3650,
      step: 1,
      value: org.retention_days,
    }) as HTMLInputElement;
    const days = field('Retention in days', input, '0 turns caching off; otherwise 1 to 3650 days.');
    const previewed = h('div', { class: 'preview', 'aria-live': 'polite' });
    /** The value in the field, or null after saying what is wrong with it. */
    const chosen = (): number | null => {
      days.setError(null);
      const value = Number(input.value);
      if (input.value.trim() === '' || !Number.isInteger(value) || value < 0 || value > 3650) {
        days.setError('Enter 0 (caching off) or a whole number of days from 1 to 3650.');
        return null;
      }
      return value;
    };
    const preview = async (): Promise<void> => {
      const value = chosen();
      if (value === null) return input.focus();
      try {
        previewed.replaceChildren(await retentionPreview(value));
      } catch (error) {
        note.say(messageOf(error), 'error');
      }
    };
    const save = async (event: Event): Promise<void> => {
      event.preventDefault();
      const value = chosen();
      if (value === null) return;
      try {
        const saved = await call<Org>('PUT', '/api/org/retention', { retention_days: value });
        showCurrent(saved.retention_days);
        note.say(`Retention set to ${saved.retention_days} day${saved.retention_days === 1 ? '' : 's'}.`);
      } catch (error) {
        if (error instanceof ApiError && error.status === 400) days.setError(error.message);
        else note.say(messageOf(error), 'error');
      }
    };
    return h(
      'div',
      {},
      current,
      ctx.session.role === 'owner'
        ? h(
            'form',
            { onsubmit: (e: Event) => void save(e), novalidate: true },
            days.wrapper,
            h(
              'div',
              { class: 'actions' },
              h(
                'button',
                { type: 'button', class: 'secondary', onclick: () => void preview() },
                'Preview what it deletes',
              ),
              h('button', { type: 'submit' }, 'Save retention'),
            ),
            previewed,
          )
        : ownersOnly('change retention'),
      note.element,
      section(
        'What this changes',
        h(
          'ul',
          {},
          h(
            'li',
            {},
            'Retention counts from the last time a sentence was played, not from when it was made.',
          ),
          h('li', {}, 'Audio unused for the retention period is deleted within a day after it.'),
          h('li', {}, 'A change applies to everything already cached, at once.'),
          h(
            'li',
            {},
            'At 0 nothing new is cached and cached audio is deleted within about two days. Requests still work, ',
            'but every sentence is synthesized (and billed) by the vendor.',
          ),
          h('li', {}, 'Only audio is kept, under a one-way hash: the text of a sentence is never stored.'),
        ),
      ),
    );
  },
};
