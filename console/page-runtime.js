// page-runtime.js — services run from source (the runtime built-in: runtime/status), the logs of
// one following live (runtime/logs with follow: Server-Sent Events), update and kill (after a
// confirmation). Needs the admin or the runtime scope. Deep link: #/runtime/<name>.
import { h, clear, confirmedAction, errorBox, busy, formatTime } from './dom.js';
import { rpc, rpcStream } from './api.js';

const MAX_LINES = 2000;

const STATUS_BADGE = { running: 'ok', error: 'bad', pending: 'warn', building: 'warn', starting: 'warn', updating: 'warn' };

function statusBadge(status) {
  return h('span', { class: `badge ${STATUS_BADGE[status] || ''}` }, status);
}

function logView(name, onCleanup) {
  const lines = h('div', {
    class: 'log mono',
    role: 'log',
    'aria-label': `Logs of ${name}`,
    'aria-live': 'polite',
    tabindex: '0',
  });
  const state = h('p', { class: 'muted', role: 'status' });
  const follow = h('input', { type: 'checkbox', id: 'runtime-follow' });
  follow.checked = true;
  const count = h('input', { type: 'number', id: 'runtime-lines', min: '0', max: '10000', step: '1', value: '50' });
  let controller = null;

  const add = (text) => {
    const atBottom = lines.scrollTop + lines.clientHeight >= lines.scrollHeight - 4;
    lines.append(h('div', { class: 'log-line' }, text));
    while (lines.childNodes.length > MAX_LINES) lines.firstChild.remove();
    if (atBottom) lines.scrollTop = lines.scrollHeight;
  };
  async function start() {
    if (controller) controller.abort();
    controller = new AbortController();
    const mine = controller;
    clear(lines);
    const n = Math.max(0, Math.min(10000, Number(count.value) || 0));
    try {
      if (follow.checked) {
        state.textContent = 'Following new lines…';
        await rpcStream('runtime', 'logs', { name, lines: n, follow: true },
          (chunk) => {
            if (typeof chunk.line === 'string') add(chunk.line);
            else if (Array.isArray(chunk.lines)) chunk.lines.forEach(add);
          },
          { signal: mine.signal });
        if (mine === controller) state.textContent = 'The stream ended (the call\'s deadline); press Reload to follow again.';
      } else {
        const got = await rpc('runtime', 'logs', { name, lines: n });
        (got.lines || []).forEach(add);
        state.textContent = `${(got.lines || []).length} lines.`;
      }
    } catch (e) {
      if (e.name === 'AbortError') return;
      state.textContent = '';
      lines.append(errorBox(e));
    }
  }
  const reload = h('button', { type: 'button', on: { click: () => start() } }, 'Reload logs');
  follow.addEventListener('change', () => start());
  onCleanup(() => controller && controller.abort());
  const box = h('section', { class: 'card logs', 'aria-labelledby': 'runtime-logs-title' },
    h('h3', { id: 'runtime-logs-title' }, `Logs of ${name}`),
    h('div', { class: 'toolbar' },
      h('span', { class: 'field check' }, follow, h('label', { for: 'runtime-follow' }, 'Follow live')),
      h('span', { class: 'field' }, h('label', { for: 'runtime-lines' }, 'Past lines'), count),
      reload),
    state,
    lines);
  start();
  return box;
}

function serviceItem(s, ctx, reload) {
  const md = s.metadata || {};
  const note = h('div');
  const update = h('button', {
    type: 'button',
    'aria-label': `Update ${s.name}`,
    on: {
      click: async () => {
        clear(note);
        try {
          await busy(update, rpc('runtime', 'update', { name: s.name }));
          reload(`Update of ${s.name} started: it rebuilds while the old build serves.`);
        } catch (e) {
          note.append(errorBox(e));
        }
      },
    },
  }, 'Update');
  const { button: kill, box: confirmBox } = confirmedAction({
    text: 'Kill', ariaLabel: `Kill ${s.name}`,
    question: `Kill ${s.name}? Its worker stops, its files are deleted and its routes answer 404.`,
    action: () => rpc('runtime', 'kill', { name: s.name }),
    done: () => {
      reload(`${s.name} killed.`);
      if (ctx.path) ctx.navigate('#/runtime');
    },
  });
  return h('li', { 'data-service': s.name },
    h('div', { class: 'row' },
      h('a', { href: `#/runtime/${encodeURIComponent(s.name)}` }, h('strong', {}, s.name)),
      s.version ? h('span', { class: 'muted' }, s.version) : null,
      statusBadge(s.status),
      h('span', { class: 'spacer' }),
      update, kill),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Source'), h('dd', { class: 'mono' }, s.source || '—'),
      h('dt', {}, 'Build'), h('dd', { class: 'mono' }, s.build ? String(s.build).slice(0, 7) : '—'),
      h('dt', {}, 'Updated'), h('dd', {}, s.updated ? formatTime(s.updated) : '—'),
      h('dt', {}, 'Owner'), h('dd', {}, md.owner || '—')),
    md.error ? h('p', { class: 'reason refused' }, `Error: ${md.error}`) : null,
    note, confirmBox);
}

async function render(view, ctx) {
  const cleanups = [];
  const message = h('p', { class: 'muted', role: 'status' });
  const list = h('div');
  const logs = h('div');
  const selected = ctx.path ? decodeURIComponent(ctx.path.split('/')[0]) : '';
  let allowed = true;

  async function reload(note) {
    if (note !== undefined) message.textContent = note;
    let services;
    try {
      services = (await rpc('runtime', 'status')).services || [];
    } catch (e) {
      clear(list);
      if (e.status === 403) {
        allowed = false;
        list.append(h('p', {}, 'The runtime needs an account with the admin or the runtime scope.'));
      }
      list.append(errorBox(e));
      return;
    }
    clear(list);
    list.append(services.length
      ? h('ul', { class: 'list runtime-services', 'aria-label': 'Run services' }, services.map((s) => serviceItem(s, ctx, reload)))
      : h('p', { class: 'muted' }, 'No services run from source. Start one with ', h('code', {}, 'platform run <folder or git URL>'), '.'));
  }
  const refresh = h('button', { type: 'button', on: { click: () => busy(refresh, reload('')) } }, 'Refresh');
  view.append(
    h('p', { class: 'muted' }, 'Services built from source and run in their own worker processes.'),
    h('div', { class: 'toolbar' }, refresh),
    message,
    h('section', { 'aria-labelledby': 'runtime-list-title' }, h('h2', { id: 'runtime-list-title' }, 'Services'), list),
    logs);
  await reload();
  // The statuses move on their own (building → running): read them again every 5 s while shown.
  // Not while someone works in the list (focus there, a kill being confirmed): the rebuilt rows
  // would take the focus and the confirmation away.
  const timer = setInterval(() => {
    if (!allowed || document.hidden || list.contains(document.activeElement) ||
        list.querySelector('.confirm:not([hidden])')) return;
    reload();
  }, 5000);
  cleanups.push(() => clearInterval(timer));
  if (!allowed) return () => cleanups.forEach((fn) => fn());
  if (selected) logs.append(logView(selected, (fn) => cleanups.push(fn)));
  else logs.append(h('p', { class: 'muted' }, 'Choose a service to follow its logs.'));
  return () => cleanups.forEach((fn) => fn());
}

export default { id: 'runtime', title: 'Runtime', admin: false, render };
