// Small DOM helpers for the console's pages: elements from data, never from HTML strings, so
// nothing a server or user wrote is ever parsed as markup.

let nextId = 0;
export const uid = (prefix = 'c') => `${prefix}-${++nextId}`;

// h('button', {class: 'primary', on: {click}}, 'Save'): attributes, listeners, children (nodes,
// strings, numbers, arrays; null, undefined and false are skipped).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = Array.isArray(v) ? v.filter(Boolean).join(' ') : v;
    else if (k === 'text') el.textContent = v;
    else if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === 'value') el.value = v;
    else if (k === 'checked' || k === 'disabled' || k === 'selected' || k === 'hidden') el[k] = !!v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// An alert naming what went wrong: the server's message (it names the argument and the rule).
export function errorBox(err) {
  const message = err && err.message ? err.message : String(err);
  const status = err && err.status ? ` (${err.status})` : '';
  return h('p', { class: 'error', role: 'alert' }, message + status);
}

// Replaces `target`'s content with an alert for err; returns the alert.
export function showError(target, err) {
  clear(target);
  const box = errorBox(err);
  target.append(box);
  return box;
}

// A labelled control: the label bound to the input by id; `hint` becomes its description.
export function field(label, input, hint) {
  if (!input.id) input.id = uid('f');
  const parts = [h('label', { for: input.id }, label), input];
  if (hint) {
    const id = uid('hint');
    input.setAttribute('aria-describedby', id);
    parts.push(h('small', { id, class: 'muted' }, hint));
  }
  return h('div', { class: 'field' }, parts);
}

// Disables `button` (or a form's submit buttons) while `promise` runs; returns its result.
export async function busy(button, promise) {
  const buttons = button instanceof HTMLFormElement
    ? [...button.querySelectorAll('button')] : [button];
  buttons.forEach((b) => { b.disabled = true; });
  button.setAttribute('aria-busy', 'true');
  try {
    return await promise;
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
    button.removeAttribute('aria-busy');
  }
}

// A time as people read it: ms since the epoch, seconds (< 1e11) or RFC 3339 text.
export function formatTime(t) {
  if (t === undefined || t === null || t === '') return '';
  let d;
  if (typeof t === 'number') d = new Date(t < 1e11 ? t * 1000 : t);
  else d = new Date(t);
  if (Number.isNaN(d.getTime())) return String(t);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

// Pretty JSON in a <pre>, for answers shown as they are.
export function jsonBlock(value, label) {
  return h('pre', { class: 'json', tabindex: '0', 'aria-label': label || 'JSON' },
    JSON.stringify(value, null, 2));
}

// Asks before a destructive action (a native dialog: keyboard and screen readers work).
export function confirmAction(text) {
  return window.confirm(text);
}

// A destructive button that asks in place before acting: `text` on the button (`ariaLabel` names
// it for assistive technology), then `question` with Confirm and Cancel in `box` (put it in the
// same row). Confirm runs `action()` (a promise), then `done()`; a failure shows in the box.
export function confirmedAction({ text, ariaLabel, question, action, done }) {
  const box = h('div', { class: 'confirm', hidden: 'hidden' });
  const button = h('button', { type: 'button', class: 'danger', 'aria-label': ariaLabel,
    on: { click: () => {
      clear(box);
      const yes = h('button', { type: 'button', class: 'danger', on: { click: async () => {
        try {
          await busy(yes, action());
          done();
        } catch (e) {
          box.append(errorBox(e));
        }
      } } }, 'Confirm');
      const no = h('button', { type: 'button', on: { click: () => {
        box.hidden = true;
        button.focus();
      } } }, 'Cancel');
      box.append(h('p', {}, question), h('div', { class: 'toolbar' }, yes, no));
      box.hidden = false;
      yes.focus();
    } } }, text);
  return { button, box };
}
