// Tasks: to-do items for yourself or the agent (tasks/list, tasks/create, tasks/read,
// tasks/update, tasks/delete; plugins/tasks). #/tasks lists them (open first) with a status filter
// (#/tasks?status=done) and a form to add one; #/tasks/<id> opens one to change its title, detail,
// status and result, or delete it. A task for the agent becomes work (see the Work page).
import { call, get } from './api.js';
import { h, clear, errorBox, busy, formatTime, field } from './dom.js';

const STATUSES = ['todo', 'doing', 'done', 'failed', 'blocked'];
const PAGE = 20;
const isOpen = (t) => t.status === 'todo' || t.status === 'doing' || t.status === 'blocked';

function statusBadge(status) {
  return h('span', { class: `badge status-${status}`, text: status });
}

function statusSelect(value, withAll) {
  const select = h('select', { name: 'status' },
    withAll ? h('option', { value: '', text: 'All' }) : null,
    STATUSES.map((s) => h('option', { value: s, text: s })));
  select.value = value;
  return select;
}

// A datetime-local value (the browser's wall time) as RFC 3339 UTC; '' stays ''.
function fromLocalInput(value) {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}

function dueText(t) {
  return t.due ? `due ${formatTime(t.due)}` : 'no due date';
}

async function renderList(view, ctx) {
  const errors = h('div');
  const status = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });
  const title = h('input', { type: 'text', name: 'title', required: true, maxlength: '200', autocomplete: 'off' });
  const detail = h('textarea', { name: 'detail', rows: '3' });
  const assignee = h('select', { name: 'assignee' },
    h('option', { value: 'me', text: 'Me' }), h('option', { value: 'agent', text: 'The agent' }));
  const due = h('input', { type: 'datetime-local', name: 'due' });
  const add = h('button', { type: 'submit', class: 'primary', text: 'Add task' });
  const wanted = ctx.params && ctx.params.get('status');
  const filter = statusSelect(STATUSES.includes(wanted) ? wanted : '', true);
  const list = h('ul', { class: 'list', 'aria-label': 'Tasks', tabindex: '-1' });
  const count = h('p', { class: 'muted' });
  const more = h('button', { type: 'button', text: 'Show more', hidden: true });
  let limit = PAGE;

  function row(t) {
    const done = isOpen(t)
      ? h('button', {
        type: 'button', text: 'Mark done', 'aria-label': `Mark done: ${t.title}`,
        on: {
          click: async () => {
            clear(errors);
            try {
              await busy(done, call('tasks', 'update', { id: t.id, status: 'done' }));
              status.textContent = `Done: ${t.title}.`;
              await load();
              list.focus(); // the focused row was redrawn
            } catch (err) {
              errors.append(errorBox(err));
            }
          },
        },
      })
      : null;
    const del = h('button', {
      type: 'button', class: 'danger', text: 'Delete', 'aria-label': `Delete: ${t.title}`,
      on: {
        click: async () => {
          clear(errors);
          try {
            await busy(del, call('tasks', 'delete', { id: t.id }));
            status.textContent = `Deleted: ${t.title}.`;
            await load();
            list.focus(); // the focused row is gone
          } catch (err) {
            errors.append(errorBox(err));
          }
        },
      },
    });
    return h('li', { class: 'row task' },
      h('div', { class: 'grow' },
        h('a', { href: `#/tasks/${encodeURIComponent(t.id)}`, text: t.title }),
        ' ', statusBadge(t.status),
        h('p', { class: 'muted small' },
          `${t.assignee === 'agent' ? 'for the agent' : 'for me'} · ${dueText(t)}`),
        t.detail ? h('p', { class: 'preview', text: t.detail.split('\n')[0].slice(0, 160) }) : null,
        t.result ? h('p', { class: 'muted preview', text: `Result: ${t.result.split('\n')[0].slice(0, 160)}` }) : null),
      h('div', { class: 'toolbar' }, done, del));
  }

  async function load() {
    const args = { limit };
    if (filter.value) args.status = filter.value;
    const data = await get('tasks', 'list', args);
    const tasks = (data && data.tasks) || [];
    clear(list);
    if (!tasks.length) list.append(h('li', { class: 'muted', text: filter.value ? `No ${filter.value} tasks.` : 'No tasks yet.' }));
    for (const t of tasks) list.append(row(t));
    count.textContent = `${data.total} task${data.total === 1 ? '' : 's'}${filter.value ? ` ${filter.value}` : ''}.`;
    more.hidden = !(data.total > tasks.length) || limit >= 100;
  }

  const reload = async (button) => {
    clear(errors);
    try {
      await (button ? busy(button, load()) : load());
    } catch (err) {
      errors.append(errorBox(err));
    }
  };
  filter.addEventListener('change', () => {
    history.replaceState(null, '', `#/tasks${filter.value ? `?status=${filter.value}` : ''}`);
    limit = PAGE;
    reload();
  });
  more.addEventListener('click', () => {
    limit = Math.min(100, limit + PAGE);
    reload(more);
  });

  const form = h('form', {
    class: 'card', novalidate: true, 'aria-labelledby': 'tasks-add-heading',
    on: {
      submit: async (e) => {
        e.preventDefault();
        clear(errors);
        const args = { title: title.value, assignee: assignee.value };
        if (detail.value) args.detail = detail.value;
        if (due.value) args.due = fromLocalInput(due.value);
        try {
          const t = await busy(add, call('tasks', 'create', args));
          status.textContent = `Added: ${t.title}.`;
          title.value = '';
          detail.value = '';
          due.value = '';
          await load();
          title.focus();
        } catch (err) {
          errors.append(errorBox(err));
        }
      },
    },
  },
  h('h2', { id: 'tasks-add-heading', text: 'Add a task' }),
  field('Title', title), field('Detail', detail), field('Assignee', assignee), field('Due', due),
  h('div', { class: 'toolbar' }, add));

  view.append(form, errors, status,
    h('h2', { text: 'Your tasks' }),
    h('div', { class: 'toolbar' }, field('Filter by status', filter)),
    count, list, more);
  await reload();
}

async function renderTask(view, ctx, id) {
  const errors = h('div');
  const status = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });
  view.append(h('p', {}, h('a', { href: '#/tasks', text: 'All tasks' })), errors);
  let t;
  try {
    t = await get('tasks', 'read', { id });
  } catch (err) {
    errors.append(errorBox(err));
    return;
  }
  const heading = h('h2', { id: 'task-heading', text: t.title });
  const meta = h('p', { class: 'muted' });
  const showMeta = () => {
    heading.textContent = t.title;
    clear(meta);
    meta.append(statusBadge(t.status),
      ` ${t.assignee === 'agent' ? 'for the agent' : 'for me'} · ${dueText(t)} · updated ${formatTime(t.updated)}`);
  };
  showMeta();
  const title = h('input', { type: 'text', name: 'title', required: true, maxlength: '200', value: t.title, autocomplete: 'off' });
  const detail = h('textarea', { name: 'detail', rows: '5' });
  detail.value = t.detail || '';
  const select = statusSelect(t.status, false);
  const result = h('textarea', { name: 'result', rows: '5' });
  result.value = t.result || '';
  const save = h('button', { type: 'submit', class: 'primary', text: 'Save task' });
  const del = h('button', { type: 'button', class: 'danger', text: 'Delete task' });
  del.addEventListener('click', async () => {
    clear(errors);
    try {
      await busy(del, call('tasks', 'delete', { id }));
      ctx.navigate('#/tasks');
    } catch (err) {
      errors.append(errorBox(err));
    }
  });
  const form = h('form', {
    class: 'card', novalidate: true, 'aria-labelledby': 'task-heading',
    on: {
      submit: async (e) => {
        e.preventDefault();
        clear(errors);
        try {
          t = await busy(save, call('tasks', 'update', {
            id, title: title.value, detail: detail.value, status: select.value, result: result.value,
          }));
          showMeta();
          status.textContent = 'Saved.';
        } catch (err) {
          errors.append(errorBox(err));
        }
      },
    },
  },
  heading, meta,
  field('Title', title), field('Detail', detail), field('Status', select), field('Result', result),
  h('div', { class: 'toolbar' }, save, del),
  t.assignee === 'agent' ? h('p', { class: 'muted small' }, 'Setting an agent task back to todo hands it to the agent again (',
    h('a', { href: '#/work', text: 'the Work page' }), ').') : null);
  view.append(form, status);
}

export default {
  id: 'tasks',
  title: 'Tasks',
  admin: false,
  async render(view, ctx) {
    const id = (ctx.path || '').split('/')[0];
    if (id) await renderTask(view, ctx, id);
    else await renderList(view, ctx);
  },
};
