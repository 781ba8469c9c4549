// page-tokens.js — your tokens (auth listTokens), a new personal or services token scoped to
// services and capabilities (auth createToken; its text is shown once), and revoking one (auth
// deleteToken, after a confirmation in the row).
import { h, clear, confirmedAction, errorBox, busy, formatTime } from './dom.js';
import { rpc } from './api.js';
import { loadCatalogue, copyButton } from './page-services.js';

const CAPABILITIES = [
  ['agent', 'agent: ask the agent'],
  ['work', 'work: background work'],
  ['inbox', 'inbox: read and mark conversations'],
  ['actions', 'actions: Allow actions'],
];

// Seconds since the epoch (what auth answers) to a readable time, "never" for null.
function when(seconds, none = 'never') {
  return seconds ? formatTime(seconds * 1000) : none;
}

function tokenRow(t, reload) {
  const label = t.name || t.id;
  const { button: revoke, box: confirmBox } = confirmedAction({
    text: 'Revoke', ariaLabel: `Revoke ${label}`,
    question: `Revoke ${label}? Programs using it stop working at once.` +
      (t.kind === 'session' ? ' This may be the session you are signed in with.' : ''),
    action: () => rpc('auth', 'deleteToken', { id: t.id }),
    done: () => reload(`Token ${label} revoked.`),
  });
  const services = Array.isArray(t.services) && t.services.length ? t.services.join(', ') : 'all';
  const caps = Array.isArray(t.capabilities) ? (t.capabilities.join(', ') || 'none') : 'all';
  return h('li', { class: 'token', 'data-token-id': t.id },
    h('div', { class: 'row' },
      h('strong', {}, t.name || '(no name)'),
      h('span', { class: 'badge' }, t.kind),
      h('span', { class: 'spacer' }),
      revoke),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Services'), h('dd', {}, services),
      h('dt', {}, 'Capabilities'), h('dd', {}, caps),
      h('dt', {}, 'Created'), h('dd', {}, when(t.created, '—')),
      h('dt', {}, 'Last used'), h('dd', {}, when(t.last_used)),
      h('dt', {}, 'Expires'), h('dd', {}, when(t.expiry))),
    confirmBox);
}

function createForm(catalogue, onCreated) {
  const name = h('input', { type: 'text', id: 'token-name', maxlength: '100', autocomplete: 'off' });
  const kinds = ['personal', 'services'].map((k) => {
    const input = h('input', { type: 'radio', name: 'token-kind', id: `token-kind-${k}`, value: k });
    if (k === 'personal') input.checked = true;
    return { input, el: h('span', { class: 'check' }, input, h('label', { for: `token-kind-${k}` }, k)) };
  });
  const serviceBoxes = catalogue.map((s) => {
    const input = h('input', { type: 'checkbox', id: `token-service-${s}`, value: s });
    return { input, el: h('span', { class: 'check' }, input, h('label', { for: `token-service-${s}` }, s)) };
  });
  const capBoxes = CAPABILITIES.map(([c, text]) => {
    const input = h('input', { type: 'checkbox', id: `token-cap-${c}`, value: c });
    return { input, el: h('span', { class: 'check' }, input, h('label', { for: `token-cap-${c}` }, text)) };
  });
  const days = h('input', { type: 'number', id: 'token-days', min: '1', max: '3650', step: '1', inputmode: 'numeric', 'aria-describedby': 'token-days-hint' });
  const problem = h('div', { class: 'form-error' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create token');
  const form = h('form', { class: 'card', 'aria-labelledby': 'token-create-title', novalidate: 'novalidate' },
    h('h2', { id: 'token-create-title' }, 'Create a token'),
    h('div', { class: 'field' }, h('label', { for: 'token-name' }, 'Name'), name),
    h('fieldset', { class: 'field' }, h('legend', {}, 'Kind'),
      kinds.map((k) => k.el),
      h('p', { class: 'muted hint' }, 'personal: the agent, work, inbox and services, by capability; services: catalogue services only.')),
    h('fieldset', { class: 'field checks' }, h('legend', {}, 'Services'),
      h('p', { class: 'muted hint' }, 'None checked: every service.'),
      h('div', { class: 'check-grid' }, serviceBoxes.map((b) => b.el))),
    h('fieldset', { class: 'field' }, h('legend', {}, 'Capabilities'),
      h('p', { class: 'muted hint' }, 'None checked: every capability.'),
      capBoxes.map((b) => b.el)),
    h('div', { class: 'field' }, h('label', { for: 'token-days' }, 'Expires after (days)'), days,
      h('p', { class: 'muted hint', id: 'token-days-hint' }, '1 to 3650; empty: never.')),
    problem,
    h('div', { class: 'toolbar' }, submit));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    clear(problem);
    const args = { kind: kinds.find((k) => k.input.checked).input.value };
    if (name.value.trim()) args.name = name.value.trim();
    const services = serviceBoxes.filter((b) => b.input.checked).map((b) => b.input.value);
    if (services.length) args.services = services;
    const caps = capBoxes.filter((b) => b.input.checked).map((b) => b.input.value);
    if (caps.length) args.capabilities = caps;
    if (days.value.trim()) {
      const n = Number(days.value);
      if (!Number.isInteger(n)) {
        problem.append(errorBox(new Error('expiry_days: must be an integer from 1 to 3650')));
        days.focus();
        return;
      }
      args.expiry_days = n;
    }
    try {
      const created = await busy(submit, rpc('auth', 'createToken', args));
      form.reset();
      kinds[0].input.checked = true;
      onCreated(created);
    } catch (e) {
      problem.append(errorBox(e));
    }
  });
  return form;
}

function shownOnce(created) {
  const text = h('input', { type: 'text', id: 'new-token', class: 'mono', readonly: 'readonly', value: created.token, 'aria-describedby': 'new-token-warning' });
  text.value = created.token;
  const dismiss = h('button', { type: 'button', on: { click: () => box.remove() } }, 'Done');
  const box = h('section', { class: 'card new-token', 'aria-labelledby': 'new-token-title' },
    h('h2', { id: 'new-token-title' }, `Token ${created.name || created.id} created`),
    h('p', { id: 'new-token-warning', class: 'notice', role: 'alert' },
      'Copy it now: it is shown only once. Anyone with it can act as you within its scope.'),
    h('div', { class: 'field' }, h('label', { for: 'new-token' }, 'New token'), text),
    h('div', { class: 'toolbar' }, copyButton(text, 'Copy token'), dismiss));
  return { box, focus: () => { text.focus(); text.select(); } };
}

async function render(view) {
  const message = h('p', { class: 'muted', role: 'status' });
  const created = h('div');
  const listBox = h('section', { 'aria-labelledby': 'token-list-title' });
  const showAll = h('input', { type: 'checkbox', id: 'token-show-all' });
  let catalogue = [];
  try {
    catalogue = (await loadCatalogue()).filter((s) => !s.builtin).map((s) => s.name);
  } catch {
    /* the form then offers no service boxes: every service */
  }

  async function reload(note) {
    if (note !== undefined) message.textContent = note;
    let tokens;
    try {
      tokens = (await rpc('auth', 'listTokens')).tokens || [];
    } catch (e) {
      clear(listBox);
      listBox.append(h('h2', { id: 'token-list-title' }, 'Your tokens'), errorBox(e));
      return;
    }
    const shown = showAll.checked ? tokens
      : tokens.filter((t) => t.kind === 'personal' || t.kind === 'services');
    shown.sort((a, b) => (b.created || 0) - (a.created || 0));
    clear(listBox);
    listBox.append(
      h('h2', { id: 'token-list-title' }, 'Your tokens'),
      h('div', { class: 'field check' }, showAll, h('label', { for: 'token-show-all' }, 'Also show sign-ins and browser sessions')),
      shown.length
        ? h('ul', { class: 'list tokens', 'aria-label': 'Tokens' }, shown.map((t) => tokenRow(t, reload)))
        : h('p', { class: 'muted' }, 'No tokens yet.'));
  }
  showAll.addEventListener('change', () => reload());

  const form = createForm(catalogue, (token) => {
    clear(created);
    const once = shownOnce(token);
    created.append(once.box);
    once.focus();
    reload(`Token ${token.name || token.id} created.`);
  });
  view.append(message, created, form, listBox);
  await reload();
}

export default { id: 'tokens', title: 'Tokens', admin: false, render };
