// Work: prompts run later by the assistant as durable jobs (work/submit, work/list, work/get,
// work/retry; plugins/work). #/work submits one and lists them with a status filter
// (#/work?status=failed); #/work/<id> shows a job's status, result and steps. While jobs shown are
// open (todo or doing) the page polls every few seconds; the timer stops when they are finished
// or the page is left (render's cleanup).
import { call, get } from './api.js';
import { h, clear, errorBox, busy, formatTime, field } from './dom.js';

const STATUSES = ['todo', 'doing', 'done', 'failed', 'blocked'];
const POLL_MS = 3000;
const PAGE = 20;

const isOpen = (w) => w.status === 'todo' || w.status === 'doing';
const canRetry = (w) => w.status === 'failed' || w.status === 'blocked';
const firstLine = (text) => (text || '').split('\n')[0].slice(0, 120) || '(empty prompt)';

function statusBadge(status) {
  return h('span', { class: `badge status-${status}`, text: status });
}

// A poller that runs `load` every POLL_MS while its last answer says to, one at a time; a failed
// load is shown in `errors` and tried again later.
function poller(load, errors) {
  const tick = async () => {
    try {
      return await load();
    } catch (err) {
      clear(errors);
      errors.append(errorBox(err));
      throw err;
    }
  };
  let timer = null;
  let stopped = false;
  const schedule = (wanted) => {
    if (timer || stopped || !wanted) return;
    timer = setTimeout(async () => {
      timer = null;
      if (stopped) return;
      if (document.hidden) {
        schedule(true); // a background tab: look again later without asking the server
        return;
      }
      let again = false;
      try {
        again = await tick();
      } catch {
        again = true; // a transient failure: the tick showed it; try again later
      }
      schedule(again);
    }, POLL_MS);
  };
  return {
    schedule,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

async function renderList(view, ctx) {
  const errors = h('div');
  const status = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });
  const prompt = h('textarea', { name: 'prompt', rows: '4', required: true });
  const agent = h('select', { name: 'agent' }, h('option', { value: '', text: 'Default agent' }));
  const submit = h('button', { type: 'submit', class: 'primary', text: 'Submit work' });
  const wanted = ctx.params && ctx.params.get('status');
  const filter = h('select', { name: 'status' },
    h('option', { value: '', text: 'All' }),
    STATUSES.map((s) => h('option', { value: s, text: s })));
  filter.value = STATUSES.includes(wanted) ? wanted : '';
  const list = h('ul', { class: 'list', 'aria-label': 'Work', tabindex: '-1' });
  const more = h('button', { type: 'button', text: 'Show more', hidden: true });
  const refresh = h('button', { type: 'button', text: 'Refresh' });
  let limit = PAGE;
  // Jobs submitted or retried here: polled until they finish, even when the filter hides them.
  const watched = new Set();

  function row(w) {
    const retry = canRetry(w)
      ? h('button', {
        type: 'button', text: 'Retry', 'aria-label': `Retry: ${firstLine(w.prompt)}`,
        on: {
          click: async () => {
            clear(errors);
            try {
              await busy(retry, call('work', 'retry', { id: w.id }));
              status.textContent = `Queued again: ${firstLine(w.prompt)}.`;
              watched.add(w.id);
              await reload();
              list.focus(); // the focused row was redrawn
            } catch (err) {
              errors.append(errorBox(err));
            }
          },
        },
      })
      : null;
    const when = w.finished ? `finished ${formatTime(w.finished)}`
      : w.started ? `started ${formatTime(w.started)}` : `submitted ${formatTime(w.created)}`;
    const extra = w.status === 'todo' && w.progress && typeof w.progress.ahead === 'number'
      ? ` · ${w.progress.ahead} ahead` : '';
    return h('li', { class: 'row work-item' },
      h('div', { class: 'grow' },
        h('a', { href: `#/work/${encodeURIComponent(w.id)}`, text: firstLine(w.prompt) }),
        ' ', statusBadge(w.status),
        h('p', { class: 'muted small' },
          `${when}${extra}${w.attempts > 1 ? ` · attempt ${w.attempts}` : ''}`),
        w.error ? h('p', { class: 'error-text', text: w.error }) : null),
      retry ? h('div', { class: 'toolbar' }, retry) : null);
  }

  async function load() {
    const args = { limit };
    if (filter.value) args.status = filter.value;
    const data = await get('work', 'list', args);
    const work = (data && data.work) || [];
    clear(list);
    if (!work.length) list.append(h('li', { class: 'muted', text: filter.value ? `No ${filter.value} work.` : 'No work yet.' }));
    for (const w of work) list.append(row(w));
    more.hidden = !(data && data.total > work.length) || limit >= 100;
    for (const w of work) if (!isOpen(w)) watched.delete(w.id);
    for (const id of [...watched]) {
      if (work.some((w) => w.id === id)) continue;
      try {
        const w = await get('work', 'get', { id });
        if (!isOpen(w)) {
          watched.delete(id);
          status.textContent = `${firstLine(w.prompt)}: ${w.status}.`;
        }
      } catch {
        watched.delete(id);
      }
    }
    return work.some(isOpen) || watched.size > 0;
  }

  const poll = poller(load, errors);

  const reload = async (button) => {
    clear(errors);
    try {
      poll.schedule(await (button ? busy(button, load()) : load()));
    } catch (err) {
      errors.append(errorBox(err));
    }
  };

  filter.addEventListener('change', () => {
    // Keep the filter in the address (bookmarkable) without re-rendering the page.
    const q = filter.value ? `?status=${filter.value}` : '';
    history.replaceState(null, '', `#/work${q}`);
    limit = PAGE;
    reload();
  });
  refresh.addEventListener('click', () => reload(refresh));
  more.addEventListener('click', () => {
    limit = Math.min(100, limit + PAGE);
    reload(more);
  });

  const form = h('form', {
    class: 'card', novalidate: true, 'aria-labelledby': 'work-submit-heading',
    on: {
      submit: async (e) => {
        e.preventDefault();
        clear(errors);
        const args = { prompt: prompt.value };
        if (agent.value) args.agent = agent.value;
        try {
          const job = await busy(submit, call('work', 'submit', args));
          watched.add(job.id);
          status.textContent = `Submitted: ${firstLine(prompt.value)} (${job.status}).`;
          prompt.value = '';
          await reload();
        } catch (err) {
          errors.append(errorBox(err));
        }
      },
    },
  },
  h('h2', { id: 'work-submit-heading', text: 'Submit work' }),
  h('p', { class: 'muted', text: 'The assistant runs the prompt in the background; the reply also lands in your inbox.' }),
  field('Prompt', prompt), field('Agent', agent),
  h('div', { class: 'toolbar' }, submit));

  view.append(form, errors, status,
    h('h2', { text: 'Your work' }),
    h('div', { class: 'toolbar' }, field('Filter by status', filter), refresh),
    list, more);

  get('agent', 'list').then((data) => {
    for (const a of (data && data.agents) || []) {
      if (a.name === data.default) continue;
      agent.append(h('option', { value: a.name, text: a.description ? `${a.name}: ${a.description}` : a.name }));
    }
  }).catch(() => {}); // without the agent list the default agent still works
  await reload();
  return () => poll.stop();
}

async function renderJob(view, id) {
  const errors = h('div');
  const status = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });
  const body = h('div');
  view.append(h('p', {}, h('a', { href: '#/work', text: 'All work' })), errors, status, body);

  let last = null;
  function show(w) {
    clear(body);
    const retry = canRetry(w)
      ? h('button', {
        type: 'button', class: 'primary', text: 'Retry',
        on: {
          click: async () => {
            clear(errors);
            try {
              const again = await busy(retry, call('work', 'retry', { id }));
              status.textContent = 'Queued again.';
              last = { ...last, status: again.status };
              poll.schedule(await load());
            } catch (err) {
              errors.append(errorBox(err));
            }
          },
        },
      })
      : null;
    const facts = [
      ['Status', statusBadge(w.status)],
      ['Submitted', formatTime(w.created)],
      ['Started', w.started ? formatTime(w.started) : '—'],
      ['Finished', w.finished ? formatTime(w.finished) : '—'],
      ['Attempts', String(w.attempts)],
      ['Agent', w.agent || 'default'],
    ];
    if (w.progress) {
      facts.push(['Progress', `${w.progress.steps} step${w.progress.steps === 1 ? '' : 's'}, ${w.progress.seconds} s`
        + (typeof w.progress.ahead === 'number' ? `, ${w.progress.ahead} ahead` : '')]);
    }
    if (w.call) facts.push(['Call', `${w.call.service}/${w.call.method}`]);
    if (w.thread) facts.push(['Conversation', h('a', { href: `#/inbox/${encodeURIComponent(w.thread)}`, text: 'Open in inbox' })]);
    const steps = h('ol', { class: 'list steps', 'aria-label': 'Steps' });
    for (const s of w.steps || []) {
      steps.append(h('li', { class: 'step' },
        h('p', {}, h('span', { class: 'mono', text: s.tool }), ' ',
          h('span', { class: `badge outcome-${s.outcome}`, text: s.outcome }),
          h('span', { class: 'muted', text: ` ${s.seconds} s` })),
        s.error ? h('p', { class: 'error-text', text: s.error }) : null,
        s.arguments !== undefined
          ? h('details', {}, h('summary', { text: 'Arguments' }),
            h('pre', { class: 'mono', text: JSON.stringify(s.arguments, null, 2) }))
          : null));
    }
    if (!(w.steps || []).length) steps.append(h('li', { class: 'muted', text: isOpen(w) ? 'No steps yet.' : 'No steps.' }));
    const result = w.result === null || w.result === undefined ? null
      : h('pre', { class: 'result', text: typeof w.result === 'string' ? w.result : JSON.stringify(w.result, null, 2) });
    // Element.append would print null and arrays: collect the parts first.
    const parts = [
      h('h2', { text: firstLine(w.prompt) }),
      h('dl', { class: 'facts' }, facts.map(([k, v]) => [h('dt', { text: k }), h('dd', {}, v)])),
      retry ? h('div', { class: 'toolbar' }, retry) : null,
      h('h3', { text: 'Prompt' }), h('pre', { class: 'result', text: w.prompt }),
      w.error ? [h('h3', { text: 'Error' }), h('p', { class: 'error-text', text: w.error })] : null,
      result ? [h('h3', { text: 'Result' }), result] : null,
      h('h3', { text: 'Steps' }), steps];
    body.append(...parts.flat().filter(Boolean));
  }

  async function load() {
    const w = await get('work', 'get', { id });
    if (last && last.status !== w.status) status.textContent = `Now ${w.status}.`;
    last = w;
    show(w);
    return isOpen(w);
  }
  const poll = poller(load, errors);
  try {
    poll.schedule(await load());
  } catch (err) {
    errors.append(errorBox(err));
  }
  return () => poll.stop();
}

export default {
  id: 'work',
  title: 'Work',
  admin: false,
  async render(view, ctx) {
    const id = (ctx.path || '').split('/')[0];
    if (id) return renderJob(view, id);
    return renderList(view, ctx);
  },
};
