// page-services.js — the services explorer: every service and method of this host (from
// /api/v1/openapi.json, which the host generates from the plugins' descriptors), a form generated
// from the method's input schema, "Try it", and the same call as curl, as a CLI command and over
// MCP. Deep link: #/services/<service>/<method>.
import { builtinPath, call, get, rpc } from './api.js';
import { h, clear, errorBox, busy } from './dom.js';

// ---- the catalogue, from the OpenAPI document ----

// [{name, builtin, summary, methods: [{name, path, verb, op, schema, flags, access}]}], sorted.
export async function loadCatalogue() {
  const res = await fetch('/api/v1/openapi.json', { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`openapi.json: HTTP ${res.status}`);
  const doc = await res.json();
  const services = new Map();
  for (const [path, item] of Object.entries(doc.paths || {})) {
    const builtin = !path.startsWith('/api/v1/');
    const parts = (builtin ? path.slice(1) : path.slice('/api/v1/'.length)).split('/');
    const method = parts.pop();
    const name = parts.join('.');
    const op = item.post || item.get;
    const schema = (item.post && item.post.requestBody &&
      item.post.requestBody.content['application/json'].schema) || { type: 'object' };
    const flags = String(op['x-platform-flags'] || '').split(',').filter(Boolean);
    if (!services.has(name)) services.set(name, { name, builtin, methods: [] });
    services.get(name).methods.push({
      name: method,
      path,
      verb: item.get ? 'GET' : 'POST',
      op,
      schema,
      flags,
      access: op['x-platform-access'] || '',
    });
  }
  const list = [...services.values()];
  for (const s of list) s.methods.sort((a, b) => a.name.localeCompare(b.name));
  list.sort((a, b) => (a.builtin - b.builtin) || a.name.localeCompare(b.name));
  return list;
}

// ---- shell quoting and the three equivalent commands ----

function shellQuote(text) {
  const s = String(text);
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return "'" + s.replace(/'/g, "'\\''") + "'";
}

function queryString(args) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(args)) {
    if (Array.isArray(v)) v.forEach((x) => q.append(k, typeof x === 'object' ? JSON.stringify(x) : String(x)));
    else q.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const s = q.toString();
  return s ? '?' + s : '';
}

export function curlCommand(service, m, args) {
  const origin = window.location.origin;
  const auth = '-H "Authorization: Bearer $TOKEN"';
  if (m.verb === 'GET' && !service.builtin)
    return `curl ${auth} ${shellQuote(origin + m.path + queryString(args))}`;
  return `curl -X POST ${auth} -H 'Content-Type: application/json' \\\n  -d ${shellQuote(JSON.stringify(args))} ${shellQuote(origin + m.path)}`;
}

export function cliCommand(service, m, args) {
  const words = ['platform', service.name, m.name];
  for (const [k, v] of Object.entries(args)) {
    if (typeof v === 'boolean') words.push(v ? `--${k}` : `--${k} false`);
    else if (Array.isArray(v) && v.every((x) => typeof x !== 'object'))
      for (const x of v) words.push(`--${k} ${shellQuote(x)}`);
    else if (typeof v === 'object') words.push(`--${k} ${shellQuote(JSON.stringify(v))}`);
    else words.push(`--${k} ${shellQuote(v)}`);
  }
  return words.join(' ');
}

export function mcpSnippet(service, m) {
  const url = window.location.origin + '/mcp';
  const config = {
    mcpServers: {
      platform: { type: 'http', url, headers: { Authorization: 'Bearer <TOKEN>' } },
    },
  };
  const tool = service.builtin ? null : `${service.name}_${m.name}`;
  return (
    (tool ? `Tool: ${tool}\n\n` : 'Built-in services are not MCP tools; the catalogue\'s are.\n\n') +
    `URL: ${url}\n\nClient configuration:\n${JSON.stringify(config, null, 2)}\n\n` +
    `mcp-inspector --cli ${url} --header "Authorization: Bearer $TOKEN" --method tools/list`
  );
}

// ---- the form generated from the input schema ----

let uid = 0;
const nextId = (p) => `${p}-${++uid}`;

function typeOf(prop) {
  if (!prop || typeof prop !== 'object') return 'json';
  let t = prop.type;
  if (Array.isArray(t)) t = t.find((x) => x !== 'null') || t[0];
  if (prop.enum && (!t || t === 'string')) return 'enum';
  if (t === 'array') {
    const it = prop.items || {};
    const itype = Array.isArray(it.type) ? it.type[0] : it.type;
    if (it.enum) return 'array-enum';
    if (itype === 'string' || itype === 'integer' || itype === 'number') return 'array';
    return 'json';
  }
  if (t === 'string' || t === 'integer' || t === 'number' || t === 'boolean') return t;
  return 'json';
}

// One control per property; returns {element, read()} where read() gives
// {set: bool, value} or throws an Error naming the argument.
function control(name, prop, required) {
  const id = nextId('arg');
  const hintId = id + '-hint';
  const type = typeOf(prop);
  const hints = [];
  if (prop && prop.description) hints.push(prop.description);
  if (prop && prop.default !== undefined) hints.push(`Default: ${JSON.stringify(prop.default)}`);
  if (prop && (prop.minimum !== undefined || prop.maximum !== undefined))
    hints.push(`From ${prop.minimum ?? '…'} to ${prop.maximum ?? '…'}`);
  if (type === 'array') hints.push('One per line or comma-separated');
  if (type === 'json') hints.push('JSON');
  const label = h('label', { for: id }, name,
    required ? h('span', { class: 'badge required' }, 'required') : null);
  const describedBy = hints.length ? { 'aria-describedby': hintId } : {};
  const hint = hints.length ? h('p', { class: 'muted hint', id: hintId }, hints.join(' · ')) : null;
  const req = required ? { required: 'required', 'aria-required': 'true' } : {};
  let input;
  let read;
  if (type === 'boolean') {
    input = h('input', { type: 'checkbox', id, name, ...describedBy });
    if (prop.default === true) input.checked = true;
    read = () => ({
      set: required || input.checked !== (prop.default === true),
      value: input.checked,
    });
    return {
      element: h('div', { class: 'field check' }, input, label, hint),
      read,
      input,
    };
  }
  if (type === 'enum') {
    input = h('select', { id, name, ...describedBy, ...req },
      required ? null : h('option', { value: '' }, '(not set)'),
      prop.enum.map((v) => h('option', { value: String(v) }, String(v))));
    if (prop.default !== undefined) input.value = String(prop.default);
    read = () => ({ set: input.value !== '', value: input.value });
  } else if (type === 'array-enum') {
    const boxes = prop.items.enum.map((v) => {
      const bid = nextId('opt');
      const box = h('input', { type: 'checkbox', id: bid, value: String(v) });
      return { box, el: h('span', { class: 'check' }, box, h('label', { for: bid }, String(v))) };
    });
    read = () => {
      const value = boxes.filter((b) => b.box.checked).map((b) => b.box.value);
      return { set: value.length > 0 || required, value };
    };
    return {
      element: h('fieldset', { class: 'field', ...describedBy },
        h('legend', {}, name, required ? h('span', { class: 'badge required' }, 'required') : null),
        boxes.map((b) => b.el), hint),
      read,
      input: boxes[0] && boxes[0].box,
    };
  } else if (type === 'integer' || type === 'number') {
    input = h('input', {
      type: 'number', id, name, inputmode: type === 'integer' ? 'numeric' : 'decimal',
      step: type === 'integer' ? '1' : 'any', ...describedBy, ...req,
    });
    if (prop.minimum !== undefined) input.min = prop.minimum;
    if (prop.maximum !== undefined) input.max = prop.maximum;
    if (prop.default !== undefined) input.placeholder = String(prop.default);
    read = () => {
      const text = input.value.trim();
      if (!text) return { set: false };
      const n = Number(text);
      if (!Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n)))
        throw new Error(`${name}: must be ${type === 'integer' ? 'an integer' : 'a number'} (got '${text}')`);
      return { set: true, value: n };
    };
  } else {
    const long = type === 'json' || type === 'array' ||
      (type === 'string' && !(prop.maxLength && prop.maxLength <= 200) && !prop.format && !prop.pattern);
    input = long
      ? h('textarea', { id, name, rows: type === 'json' ? '4' : '3', ...describedBy, ...req })
      : h('input', { type: 'text', id, name, ...describedBy, ...req });
    if (type === 'json' || type === 'array') input.classList.add('mono');
    if (prop && prop.default !== undefined && type !== 'json')
      input.placeholder = Array.isArray(prop.default) ? prop.default.join(', ') : String(prop.default);
    read = () => {
      const text = input.value;
      if (!text.trim()) return { set: false };
      if (type === 'json') {
        try {
          return { set: true, value: JSON.parse(text) };
        } catch (e) {
          throw new Error(`${name}: not valid JSON (${e.message})`);
        }
      }
      if (type === 'array') {
        const itype = (prop.items && (Array.isArray(prop.items.type) ? prop.items.type[0] : prop.items.type)) || 'string';
        const items = text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);
        if (itype === 'string') return { set: true, value: items };
        return {
          set: true,
          value: items.map((s) => {
            const n = Number(s);
            if (!Number.isFinite(n)) throw new Error(`${name}: '${s}' is not a number`);
            return n;
          }),
        };
      }
      return { set: true, value: text };
    };
  }
  return { element: h('div', { class: 'field' }, label, input, hint), read, input };
}

function buildForm(schema) {
  const props = (schema && schema.properties) || {};
  const required = new Set((schema && schema.required) || []);
  const names = Object.keys(props).sort((a, b) => (required.has(b) - required.has(a)));
  const controls = names.map((n) => ({ name: n, ...control(n, props[n], required.has(n)) }));
  const args = () => {
    const out = {};
    for (const c of controls) {
      const r = c.read();
      if (r.set) out[c.name] = r.value;
    }
    for (const n of required)
      if (!(n in out) && props[n]) throw new Error(`${n}: is required`);
    return out;
  };
  // Arguments for the command snippets: what is filled, errors ignored.
  const draft = () => {
    const out = {};
    for (const c of controls) {
      try {
        const r = c.read();
        if (r.set) out[c.name] = r.value;
      } catch {
        /* shown when tried */
      }
    }
    return out;
  };
  return { controls, args, draft };
}

// ---- the page ----

function methodView(service, m, ctx) {
  const form = buildForm(m.schema);
  const answer = h('div', { class: 'answer-body' }, h('p', { class: 'muted' }, 'Not called yet.'));
  const show = (node) => {
    clear(answer);
    answer.append(node);
  };
  const status = h('p', { class: 'muted', role: 'status' });
  const answerRegion = h('section', { class: 'card answer', 'aria-label': 'Answer' },
    h('h3', {}, 'Answer'), status, answer);
  const curlPre = h('pre', { class: 'mono snippet', id: 'snippet-curl' });
  const cliPre = h('pre', { class: 'mono snippet', id: 'snippet-cli' });
  const mcpPre = h('pre', { class: 'mono snippet', id: 'snippet-mcp' });
  const refresh = () => {
    const args = form.draft();
    curlPre.textContent = curlCommand(service, m, args);
    cliPre.textContent = cliCommand(service, m, args);
    mcpPre.textContent = mcpSnippet(service, m);
  };
  const tryIt = h('button', { type: 'submit', class: 'primary' }, 'Try it');
  const formEl = h('form', { class: 'card try', 'aria-label': `Arguments of ${service.name}/${m.name}`, novalidate: 'novalidate' },
    h('h3', {}, 'Arguments'),
    form.controls.length ? form.controls.map((c) => c.element) : h('p', { class: 'muted' }, 'No arguments.'),
    h('div', { class: 'toolbar' }, tryIt));
  formEl.addEventListener('input', refresh);
  formEl.addEventListener('change', refresh);
  formEl.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    let args;
    try {
      args = form.args();
    } catch (e) {
      status.textContent = 'Not sent.';
      show(errorBox(e));
      return;
    }
    status.textContent = 'Calling…';
    clear(answer);
    const started = performance.now();
    const run = service.builtin
      ? rpc(service.name, m.name, args)
      : m.verb === 'GET' ? get(service.name, m.name, args) : call(service.name, m.name, args);
    try {
      const result = await busy(tryIt, run);
      status.textContent = `OK in ${Math.round(performance.now() - started)} ms`;
      show(h('pre', { class: 'mono' }, JSON.stringify(result, null, 2)));
    } catch (e) {
      status.textContent = `Failed${e.status ? ` (HTTP ${e.status})` : ''}`;
      show(errorBox(e));
    }
  });
  refresh();
  const flags = m.flags.map((f) => h('span', { class: 'badge' }, f.replace(/_/g, ' ')));
  return h('article', { class: 'method', 'aria-labelledby': 'method-title' },
    h('h2', { id: 'method-title' }, `${service.name}/${m.name}`),
    h('p', {}, h('strong', {}, m.op.summary || m.name)),
    m.op.description ? h('p', { class: 'muted' }, m.op.description) : null,
    h('p', { class: 'row meta' },
      h('span', { class: 'badge' }, m.verb),
      h('span', { class: 'badge' }, `access: ${m.access}`),
      service.builtin ? h('span', { class: 'badge' }, 'built-in') : null,
      flags,
      h('code', { class: 'mono' }, service.builtin ? builtinPath(service.name, m.name) : m.path)),
    formEl,
    answerRegion,
    h('section', { class: 'card snippets', 'aria-label': 'Equivalent commands' },
      h('h3', { id: 'h-curl' }, 'curl'), h('div', { role: 'group', 'aria-labelledby': 'h-curl' }, curlPre, copyButton(curlPre, 'Copy curl command')),
      h('h3', { id: 'h-cli' }, 'CLI'), h('div', { role: 'group', 'aria-labelledby': 'h-cli' }, cliPre, copyButton(cliPre, 'Copy CLI command')),
      h('h3', { id: 'h-mcp' }, 'MCP'), h('div', { role: 'group', 'aria-labelledby': 'h-mcp' }, mcpPre, copyButton(mcpPre, 'Copy MCP snippet'))),
    h('p', {}, h('a', { href: `#/services/${encodeURIComponent(service.name)}` }, `All methods of ${service.name}`)));
}

export function copyButton(source, label) {
  const note = h('span', { class: 'muted', role: 'status' });
  const button = h('button', {
    type: 'button',
    on: {
      click: async () => {
        const text = 'value' in source && source.tagName !== 'PRE' ? source.value : source.textContent;
        try {
          await navigator.clipboard.writeText(text);
          note.textContent = 'Copied.';
        } catch {
          if (source.select) source.select();
          note.textContent = 'Select and copy it (Ctrl+C).';
        }
      },
    },
  }, label);
  return h('span', { class: 'copy' }, button, ' ', note);
}

function serviceList(services, current) {
  return h('nav', { 'aria-label': 'Services', class: 'service-list' },
    h('ul', { class: 'list' }, services.map((s) => h('li', {},
      h('a', {
        href: `#/services/${encodeURIComponent(s.name)}`,
        ...(current === s.name ? { 'aria-current': 'page' } : {}),
      }, s.name),
      ' ', h('span', { class: 'muted' }, `${s.methods.length} method${s.methods.length === 1 ? '' : 's'}`),
      s.builtin ? h('span', { class: 'badge' }, 'built-in') : null))));
}

function serviceView(s) {
  return h('section', { 'aria-labelledby': 'service-title' },
    h('h2', { id: 'service-title' }, s.name),
    h('ul', { class: 'list methods' }, s.methods.map((m) => h('li', { class: 'row' },
      h('a', { href: `#/services/${encodeURIComponent(s.name)}/${encodeURIComponent(m.name)}` }, m.name),
      h('span', { class: 'badge' }, m.verb),
      h('span', { class: 'muted' }, m.op.summary || '')))));
}

async function render(view, ctx) {
  const status = h('p', { class: 'muted', role: 'status' }, 'Loading the services…');
  view.append(status);
  let services;
  try {
    services = await loadCatalogue();
  } catch (e) {
    status.remove();
    view.append(errorBox(e));
    return;
  }
  status.remove();
  const [sname, mname] = (ctx.path || '').split('/').filter(Boolean).map(decodeURIComponent);
  const filter = h('input', { type: 'search', id: 'service-filter', autocomplete: 'off' });
  const count = services.reduce((n, s) => n + s.methods.length, 0);
  const main = h('div', { class: 'services-main' });
  const side = h('div', { class: 'services-side' },
    h('div', { class: 'field' }, h('label', { for: 'service-filter' }, 'Filter services'), filter),
    serviceList(services, sname));
  filter.addEventListener('input', () => {
    const q = filter.value.trim().toLowerCase();
    const shown = q ? services.filter((s) => s.name.includes(q) ||
      s.methods.some((m) => m.name.toLowerCase().includes(q))) : services;
    side.querySelector('nav').replaceWith(serviceList(shown, sname));
  });
  view.append(
    h('p', { class: 'muted' }, `${services.length} services, ${count} methods, from `,
      h('a', { href: '/api/v1/openapi.json' }, 'openapi.json'), '.'),
    h('div', { class: 'split services-layout' }, side, main));
  const service = services.find((s) => s.name === sname);
  if (!sname) {
    main.append(h('p', {}, 'Choose a service to see its methods.'));
  } else if (!service) {
    main.append(errorBox(new Error(`No service '${sname}' on this host.`)));
  } else if (!mname) {
    main.append(serviceView(service));
  } else {
    const m = service.methods.find((x) => x.name === mname);
    if (!m) main.append(errorBox(new Error(`No method '${mname}' in ${sname}.`)), serviceView(service));
    else main.append(methodView(service, m, ctx));
  }
}

export default { id: 'services', title: 'Services', admin: false, render };
