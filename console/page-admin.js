// page-admin.js — for admins: accounts (auth listAccounts, createAccount with the secret shown
// once, deleteAccount), access rules (listRules, createRule, deleteRule), the profile and the
// state of every plugin (runtime/plugins: loaded, refused with the reason, isolated with its
// restarts), and a summary of GET /metrics. A 403 says so plainly.
import { h, clear, confirmedAction, errorBox, busy, formatTime } from './dom.js';
import { rpc } from './api.js';
import { copyButton } from './page-services.js';

// A row's delete button that asks first, in place.
function confirmDelete(label, what, action, done) {
  return confirmedAction({ text: label, ariaLabel: `Delete ${what}`, question: `Delete ${what}?`,
    action, done });
}

function forbidden(e) {
  return e && e.status === 403;
}

function adminOnly() {
  return h('div', { class: 'card', role: 'alert' },
    h('h2', {}, 'Admins only'),
    h('p', {}, 'This page needs an account with the admin scope. Sign in as an admin to manage accounts, rules and plugins.'));
}

// ---- accounts ----

async function accountsSection(section, me) {
  const list = h('div');
  const message = h('p', { class: 'muted', role: 'status' });
  const secretBox = h('div');
  const id = h('input', { type: 'text', id: 'account-id', required: 'required', autocomplete: 'off', maxlength: '128' });
  const name = h('input', { type: 'text', id: 'account-name', autocomplete: 'off', maxlength: '128' });
  const type = h('select', { id: 'account-type' }, h('option', { value: 'user' }, 'user'), h('option', { value: 'service' }, 'service'));
  const scopes = h('input', { type: 'text', id: 'account-scopes', autocomplete: 'off', 'aria-describedby': 'account-scopes-hint' });
  const problem = h('div');
  const create = h('button', { type: 'submit', class: 'primary' }, 'Create account');
  const form = h('form', { class: 'card', 'aria-labelledby': 'account-create-title', novalidate: 'novalidate' },
    h('h3', { id: 'account-create-title' }, 'New account'),
    h('div', { class: 'field' }, h('label', { for: 'account-id' }, 'Account id'), id),
    h('div', { class: 'field' }, h('label', { for: 'account-name' }, 'Display name'), name),
    h('div', { class: 'field' }, h('label', { for: 'account-type' }, 'Type'), type),
    h('div', { class: 'field' }, h('label', { for: 'account-scopes' }, 'Scopes'), scopes,
      h('p', { class: 'muted hint', id: 'account-scopes-hint' }, 'Comma-separated, e.g. admin; empty: none. The secret is generated and shown once.')),
    problem,
    h('div', { class: 'toolbar' }, create));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    clear(problem);
    const args = { id: id.value.trim(), type: type.value };
    if (!args.id) {
      problem.append(errorBox(new Error('id: is required')));
      id.focus();
      return;
    }
    if (name.value.trim()) args.name = name.value.trim();
    const sc = scopes.value.split(',').map((s) => s.trim()).filter(Boolean);
    if (sc.length) args.scopes = sc;
    try {
      const made = await busy(create, rpc('auth', 'createAccount', args));
      form.reset();
      clear(secretBox);
      const secret = h('input', { type: 'text', id: 'account-secret', class: 'mono', readonly: 'readonly' });
      secret.value = made.secret;
      secretBox.append(h('section', { class: 'card new-token', 'aria-labelledby': 'account-secret-title' },
        h('h3', { id: 'account-secret-title' }, `Account ${made.account.id} created`),
        h('p', { class: 'notice', role: 'alert' }, 'Copy the secret now: it is shown only once.'),
        h('div', { class: 'field' }, h('label', { for: 'account-secret' }, 'Secret'), secret),
        h('div', { class: 'toolbar' }, copyButton(secret, 'Copy secret'),
          h('button', { type: 'button', on: { click: () => clear(secretBox) } }, 'Done'))));
      secret.focus();
      secret.select();
      load(`Account ${made.account.id} created.`);
    } catch (e) {
      problem.append(errorBox(e));
    }
  });

  async function load(note) {
    if (note !== undefined) message.textContent = note;
    let accounts;
    try {
      accounts = (await rpc('auth', 'listAccounts')).accounts || [];
    } catch (e) {
      clear(list);
      list.append(errorBox(e));
      if (forbidden(e)) throw e;
      return;
    }
    clear(list);
    list.append(h('ul', { class: 'list', 'aria-label': 'Accounts' }, accounts.map((a) => {
      const mine = me && (a.id === me.id);
      const del = mine ? null : confirmDelete('Delete', `account ${a.id}`,
        () => rpc('auth', 'deleteAccount', { id: a.id }), () => load(`Account ${a.id} deleted.`));
      return h('li', {},
        h('div', { class: 'row' },
          h('strong', {}, a.id),
          a.name && a.name !== a.id ? h('span', {}, a.name) : null,
          h('span', { class: 'badge' }, a.type),
          (a.scopes || []).map((s) => h('span', { class: 'badge' }, s)),
          mine ? h('span', { class: 'muted' }, '(you)') : null,
          h('span', { class: 'spacer' }),
          del ? del.button : null),
        a.created ? h('p', { class: 'muted' }, `Created ${formatTime(a.created * (a.created < 1e12 ? 1000 : 1))}`) : null,
        del ? del.box : null);
    })));
  }
  section.append(h('h2', { id: 'admin-accounts' }, 'Accounts'), message, secretBox, list, form);
  await load();
}

// ---- rules ----

async function rulesSection(section) {
  const list = h('div');
  const message = h('p', { class: 'muted', role: 'status' });
  const field = (id, label, input, hint) => h('div', { class: 'field' }, h('label', { for: id }, label), input,
    hint ? h('p', { class: 'muted hint', id: id + '-hint' }, hint) : null);
  const rid = h('input', { type: 'text', id: 'rule-id', required: 'required', autocomplete: 'off' });
  const scope = h('input', { type: 'text', id: 'rule-scope', required: 'required', autocomplete: 'off', 'aria-describedby': 'rule-scope-hint' });
  const resource = h('input', { type: 'text', id: 'rule-resource', required: 'required', autocomplete: 'off', 'aria-describedby': 'rule-resource-hint' });
  const access = h('select', { id: 'rule-access' }, h('option', { value: 'GRANTED' }, 'GRANTED'), h('option', { value: 'DENIED' }, 'DENIED'));
  const priority = h('input', { type: 'number', id: 'rule-priority', step: '1', value: '0' });
  const problem = h('div');
  const create = h('button', { type: 'submit', class: 'primary' }, 'Create rule');
  const form = h('form', { class: 'card', 'aria-labelledby': 'rule-create-title', novalidate: 'novalidate' },
    h('h3', { id: 'rule-create-title' }, 'New rule'),
    field('rule-id', 'Rule id', rid),
    field('rule-scope', 'Scope', scope, '<public> for anyone, * for any account, else a scope such as admin.'),
    field('rule-resource', 'Resource', resource, 'type:name:endpoint with * wildcards, e.g. service:notes:*'),
    field('rule-access', 'Access', access),
    field('rule-priority', 'Priority', priority),
    problem,
    h('div', { class: 'toolbar' }, create));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    clear(problem);
    const args = {
      id: rid.value.trim(), scope: scope.value.trim(), resource: resource.value.trim(),
      access: access.value, priority: Number(priority.value || 0),
    };
    for (const [k, input] of [['id', rid], ['scope', scope], ['resource', resource]])
      if (!args[k]) {
        problem.append(errorBox(new Error(`${k}: is required`)));
        input.focus();
        return;
      }
    if (!Number.isInteger(args.priority)) {
      problem.append(errorBox(new Error('priority: must be an integer')));
      return;
    }
    try {
      await busy(create, rpc('auth', 'createRule', args));
      form.reset();
      load(`Rule ${args.id} created.`);
    } catch (e) {
      problem.append(errorBox(e));
    }
  });
  async function load(note) {
    if (note !== undefined) message.textContent = note;
    let rules;
    try {
      rules = (await rpc('auth', 'listRules')).rules || [];
    } catch (e) {
      clear(list);
      list.append(errorBox(e));
      return;
    }
    rules.sort((a, b) => (b.priority || 0) - (a.priority || 0) || a.id.localeCompare(b.id));
    clear(list);
    list.append(h('div', { class: 'table-wrap', role: 'region', 'aria-label': 'Rules table', tabindex: '0' },
      h('table', {},
        h('caption', { class: 'visually-hidden' }, 'Access rules, highest priority first'),
        h('thead', {}, h('tr', {}, ['Id', 'Scope', 'Resource', 'Access', 'Priority', 'Actions'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, rules.map((r) => {
          const del = confirmDelete('Delete', `rule ${r.id}`, () => rpc('auth', 'deleteRule', { id: r.id }),
            () => load(`Rule ${r.id} deleted.`));
          return h('tr', {},
            h('th', { scope: 'row' }, r.id), h('td', {}, r.scope), h('td', { class: 'mono' }, r.resource),
            h('td', {}, h('span', { class: `badge ${String(r.access).toUpperCase() === 'DENIED' ? 'bad' : 'ok'}` }, r.access)),
            h('td', {}, String(r.priority ?? 0)),
            h('td', {}, del.button, del.box));
        })))));
  }
  section.append(h('h2', { id: 'admin-rules' }, 'Access rules'), message, list, form);
  await load();
}

// ---- plugins ----

const STATE_BADGE = { loaded: 'ok', isolated: 'warn', refused: 'bad', unused: '' };

async function pluginsSection(section) {
  section.append(h('h2', { id: 'admin-plugins' }, 'Profile and plugins'));
  let data;
  try {
    data = await rpc('runtime', 'plugins');
  } catch (e) {
    section.append(errorBox(e));
    return;
  }
  const plugins = data.plugins || [];
  const counts = {};
  for (const p of plugins) counts[p.state] = (counts[p.state] || 0) + 1;
  const filter = h('select', { id: 'plugin-state-filter' },
    h('option', { value: '' }, `all (${plugins.length})`),
    ['loaded', 'isolated', 'refused', 'unused'].map((s) => h('option', { value: s }, `${s} (${counts[s] || 0})`)));
  const list = h('div');
  const show = () => {
    const shown = filter.value ? plugins.filter((p) => p.state === filter.value) : plugins;
    clear(list);
    list.append(h('ul', { class: 'list plugins', 'aria-label': 'Plugins' }, shown.map((p) => h('li', { 'data-plugin': p.id || p.file },
      h('div', { class: 'row' },
        h('strong', {}, p.id || '(unreadable file)'),
        p.version ? h('span', { class: 'muted' }, p.version) : null,
        h('span', { class: `badge ${STATE_BADGE[p.state] || ''}` }, p.state),
        p.kind ? h('span', { class: 'badge' }, p.kind) : null,
        p.state === 'isolated' ? h('span', { class: 'badge' }, `restarts: ${p.restarts ?? 0}`) : null),
      p.service ? h('p', {}, 'Service ', h('code', { class: 'mono' }, p.service)) : null,
      p.reason ? h('p', { class: p.state === 'refused' ? 'reason refused' : 'reason muted' }, `Reason: ${p.reason}`) : null,
      p.last_exit ? h('p', { class: 'muted' }, `Last worker exit: ${p.last_exit}`) : null,
      h('p', { class: 'muted mono file' }, p.file)))));
  };
  filter.addEventListener('change', show);
  section.append(
    h('p', {}, 'Profile: ', h('strong', { id: 'admin-profile' }, data.profile || '?'), ' · ',
      ['loaded', 'isolated', 'refused', 'unused'].map((s) => `${counts[s] || 0} ${s}`).join(', ')),
    h('div', { class: 'field' }, h('label', { for: 'plugin-state-filter' }, 'Show plugins'), filter),
    list);
  show();
}

// ---- metrics ----

// Prometheus text → [{name, labels: {..}, value}].
export function parseMetrics(text) {
  const out = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([A-Za-z_:][A-Za-z0-9_:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels = {};
    if (m[3]) for (const l of m[3].matchAll(/([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1]] = l[2].replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
    out.push({ name: m[1], labels, value: Number(m[4]) });
  }
  return out;
}

// The q-quantile of a cumulative histogram's buckets [{le, count}] (upper bound of the bucket).
function quantile(buckets, q) {
  const total = buckets.length ? buckets[buckets.length - 1].count : 0;
  if (!total) return null;
  for (const b of buckets) if (b.count >= q * total) return b.le;
  return Infinity;
}

function seconds(s) {
  if (s === null || s === undefined || Number.isNaN(s)) return '—';
  if (s === Infinity) return '> largest bucket';
  return s < 1 ? `${Math.round(s * 1000 * 10) / 10} ms` : `${Math.round(s * 100) / 100} s`;
}

export function summarise(series) {
  const sum = (name, pred = () => true) => series.filter((s) => s.name === name && pred(s.labels))
    .reduce((n, s) => n + s.value, 0);
  const one = (name) => (series.find((s) => s.name === name) || {}).value;
  const requests = sum('platform_http_requests_total');
  const server = sum('platform_http_requests_total', (l) => Number(l.status) >= 500);
  const client = sum('platform_http_requests_total', (l) => Number(l.status) >= 400 && Number(l.status) < 500);
  const buckets = series.filter((s) => s.name === 'platform_http_request_duration_seconds_bucket')
    .map((s) => ({ le: s.labels.le === '+Inf' ? Infinity : Number(s.labels.le), count: s.value }))
    .sort((a, b) => a.le - b.le);
  const hCount = one('platform_http_request_duration_seconds_count') || 0;
  const hSum = one('platform_http_request_duration_seconds_sum') || 0;
  const calls = sum('platform_calls_total');
  const failed = sum('platform_calls_total', (l) => l.code !== 'ok');
  const rows = [
    ['HTTP requests', String(requests)],
    ['HTTP server errors (5xx)', String(server)],
    ['HTTP client errors (4xx)', String(client)],
    ['HTTP latency, mean', hCount ? seconds(hSum / hCount) : '—'],
    ['HTTP latency, p50 (bucket)', seconds(quantile(buckets, 0.5))],
    ['HTTP latency, p95 (bucket)', seconds(quantile(buckets, 0.95))],
    ['Requests in flight', String(one('platform_http_in_flight') ?? '—')],
    ['Open connections', String(one('platform_http_connections') ?? '—')],
    ['Rate-limited (429)', String(one('platform_http_rate_limited_total') ?? 0)],
    ['Plugin calls', String(calls)],
    ['Plugin calls failed', String(failed)],
  ];
  // The busiest services: calls, failures and mean duration.
  const byService = new Map();
  for (const s of series) {
    if (s.name === 'platform_calls_total') {
      const e = byService.get(s.labels.service) || { calls: 0, failed: 0, sum: 0, count: 0 };
      e.calls += s.value;
      if (s.labels.code !== 'ok') e.failed += s.value;
      byService.set(s.labels.service, e);
    } else if (s.name === 'platform_call_duration_seconds_sum' || s.name === 'platform_call_duration_seconds_count') {
      const e = byService.get(s.labels.service) || { calls: 0, failed: 0, sum: 0, count: 0 };
      if (s.name.endsWith('_sum')) e.sum += s.value;
      else e.count += s.value;
      byService.set(s.labels.service, e);
    }
  }
  const services = [...byService.entries()].filter(([, e]) => e.calls > 0)
    .sort((a, b) => b[1].calls - a[1].calls).slice(0, 8)
    .map(([name, e]) => [name, String(e.calls), String(e.failed), e.count ? seconds(e.sum / e.count) : '—']);
  return { rows, services };
}

function table(caption, head, rows) {
  return h('div', { class: 'table-wrap', role: 'region', 'aria-label': caption, tabindex: '0' },
    h('table', {},
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, head.map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, rows.map((r) => h('tr', {}, h('th', { scope: 'row' }, r[0]), r.slice(1).map((c) => h('td', {}, c)))))));
}

async function metricsSection(section) {
  const body = h('div');
  const refresh = h('button', { type: 'button' }, 'Refresh metrics');
  async function load() {
    clear(body);
    try {
      const res = await fetch('/metrics', { credentials: 'same-origin' });
      if (!res.ok) throw new Error(`GET /metrics answered HTTP ${res.status}`);
      const { rows, services } = summarise(parseMetrics(await res.text()));
      body.append(
        table('Headline series', ['Series', 'Value'], rows),
        services.length ? table('Busiest services', ['Service', 'Calls', 'Failed', 'Mean duration'], services) : null,
        h('p', { class: 'muted' }, `Since the host started; read ${formatTime(Date.now())}. All series: `,
          h('a', { href: '/metrics' }, '/metrics'), '.'));
    } catch (e) {
      body.append(errorBox(e));
    }
  }
  refresh.addEventListener('click', () => busy(refresh, load()));
  section.append(h('h2', { id: 'admin-metrics' }, 'Metrics'), h('div', { class: 'toolbar' }, refresh), body);
  await load();
}

async function render(view, ctx) {
  const me = ctx && ctx.account;
  const sections = ['accounts', 'rules', 'plugins', 'metrics'].map((s) =>
    h('section', { class: 'admin-section', id: `admin-section-${s}`, 'aria-labelledby': `admin-${s}` }));
  view.append(h('nav', { 'aria-label': 'Admin sections', class: 'toolbar' },
    [['accounts', 'Accounts'], ['rules', 'Rules'], ['plugins', 'Plugins'], ['metrics', 'Metrics']]
      .map(([id, text]) => h('a', {
        href: `#/admin/${id}`,
        on: { click: (ev) => { ev.preventDefault(); document.getElementById(`admin-section-${id}`).scrollIntoView(); } },
      }, text))));
  // Accounts first: a 403 there means the caller is no admin, and the rest is not tried.
  try {
    view.append(sections[0]);
    await accountsSection(sections[0], me);
  } catch (e) {
    if (forbidden(e)) {
      clear(view);
      view.append(adminOnly(), errorBox(e));
      return;
    }
  }
  view.append(sections[1], sections[2], sections[3]);
  await Promise.all([rulesSection(sections[1]), pluginsSection(sections[2]), metricsSection(sections[3])]);
  const target = (ctx && ctx.path) ? document.getElementById(`admin-section-${ctx.path}`) : null;
  if (target) target.scrollIntoView();
}

export default { id: 'admin', title: 'Admin', admin: true, render };
