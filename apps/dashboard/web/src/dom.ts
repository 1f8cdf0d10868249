/** A child of an element: text, another element, or nothing. */
export type Child = Node | string | number | null | undefined | false;

type Attributes = Record<string, string | number | boolean | null | undefined | EventListener>;

/**
 * An element with its attributes and children. `on…` attributes are listeners; `true` sets a bare attribute,
 * `false`, null and undefined leave it out. Text is always set as text, never parsed as HTML.
 */
export function h(tag: string, attributes: Attributes = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined)
      element.setAttribute(name, String(value));
  }
  element.append(...children.filter(isChild).map((c) => (c instanceof Node ? c : String(c))));
  return element;
}

/** An SVG element (charts). */
export function svg(
  tag: string,
  attributes: Record<string, string | number> = {},
  ...children: Child[]
): SVGElement {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children.filter(isChild).map((c) => (c instanceof Node ? c : String(c))));
  return element;
}

function isChild(child: Child): child is Node | string | number {
  return child !== null && child !== undefined && child !== false;
}

/**
 * A labelled field whose error is said in words right under it, tied to it with aria-describedby so a screen
 * reader reads it with the field.
 */
export interface Field {
  wrapper: HTMLElement;
  input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  setError(message: string | null): void;
}

let fieldCount = 0;

export function field(
  label: string,
  input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement,
  hint?: string,
): Field {
  const id = `field-${++fieldCount}`;
  input.id = id;
  const error = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
  const hintElement = hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null;
  input.setAttribute('aria-describedby', [hintElement ? `${id}-hint` : '', `${id}-error`].join(' ').trim());
  const wrapper = h('div', { class: 'field' }, h('label', { for: id }, label), hintElement, input, error);
  return {
    wrapper,
    input,
    setError(message) {
      error.textContent = message ?? '';
      error.hidden = message === null;
      if (message === null) input.removeAttribute('aria-invalid');
      else input.setAttribute('aria-invalid', 'true');
    },
  };
}

/** A polite live region: status messages are announced without moving focus. */
export function status(): { element: HTMLElement; say(message: string, kind?: 'ok' | 'error'): void } {
  const element = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  return {
    element,
    say(message, kind = 'ok') {
      element.textContent = message;
      element.className = `status ${kind}`;
    },
  };
}

export function formatDate(iso: string | null): string {
  if (iso === null) return 'never';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatNumber(value: number): string {
  return value.toLocaleString();
}
