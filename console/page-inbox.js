// Inbox: the caller's conversations with the assistant across channels (inbox/list, inbox/read,
// inbox/mark_read, inbox/mark_unread; plugins/inbox). #/inbox lists them, most recently active
// first, with unread badges; #/inbox/<thread> shows the latest messages of one and marks it read
// (Mark unread puts the badge back). Replying is the chat page's: #/chat/agent/<thread>.
import { call, get } from './api.js';
import { h, clear, errorBox, busy, formatTime } from './dom.js';

const PAGE = 25;

function badge(item) {
  return item.unread > 0
    ? h('span', { class: 'badge unread', text: `${item.unread} unread` })
    : h('span', { class: 'badge', text: 'read' });
}

function titleOf(item) {
  return item.title || '(untitled conversation)';
}

async function renderList(view) {
  const errors = h('div');
  const status = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });
  const list = h('ul', { class: 'list', 'aria-label': 'Conversations' });
  const refresh = h('button', { type: 'button', text: 'Refresh' });
  const more = h('button', { type: 'button', text: 'Show more', hidden: true });
  const unreadOnly = h('input', { type: 'checkbox', name: 'unread', id: 'inbox-unread-only' });
  let limit = PAGE;
  let items = [];

  function row(item) {
    const unread = item.unread > 0;
    const mark = h('button', {
      type: 'button',
      text: unread ? 'Mark read' : 'Mark unread',
      'aria-label': `${unread ? 'Mark read' : 'Mark unread'}: ${titleOf(item)}`,
      on: {
        click: async () => {
          clear(errors);
          try {
            const next = await busy(mark, call('inbox', unread ? 'mark_read' : 'mark_unread', { id: item.id }));
            const updated = { ...item, ...next };
            items = items.map((i) => (i.id === item.id ? updated : i));
            const fresh = row(updated);
            li.replaceWith(fresh);
            const again = fresh.querySelector('button');
            if (again) again.focus(); // keep the keyboard where it was
            status.textContent = `${titleOf(item)}: ${next.unread > 0 ? 'marked unread' : 'marked read'}.`;
          } catch (err) {
            errors.append(errorBox(err));
          }
        },
      },
    });
    const last = item.last
      ? h('p', { class: 'muted preview' },
        `${item.last.role === 'assistant' ? 'Assistant' : 'You'}: ${item.last.text}`)
      : null;
    const li = h('li', { class: `row conversation${unread ? ' is-unread' : ''}` },
      h('div', { class: 'grow' },
        h('a', { href: `#/inbox/${encodeURIComponent(item.id)}`, class: 'conversation-title', text: titleOf(item) }),
        ' ', badge(item),
        last,
        h('p', { class: 'muted small' }, `${item.channel} · ${formatTime(item.updated)}`)),
      h('div', { class: 'toolbar' }, mark));
    return li;
  }

  function draw() {
    const shown = unreadOnly.checked ? items.filter((i) => i.unread > 0) : items;
    clear(list);
    if (!shown.length) list.append(h('li', { class: 'muted', text: unreadOnly.checked ? 'No unread conversations.' : 'No conversations yet.' }));
    for (const item of shown) list.append(row(item));
  }

  async function load() {
    const data = await get('inbox', 'list', { limit });
    items = (data && data.items) || [];
    draw();
    more.hidden = items.length < limit || limit >= 100;
    const unread = items.filter((i) => i.unread > 0).length;
    status.textContent = `${items.length} conversation${items.length === 1 ? '' : 's'}, ${unread} unread.`;
  }

  const reload = async (button) => {
    clear(errors);
    try {
      await busy(button, load());
    } catch (err) {
      errors.append(errorBox(err));
    }
  };
  refresh.addEventListener('click', () => reload(refresh));
  more.addEventListener('click', () => {
    limit = Math.min(100, limit + PAGE);
    reload(more);
  });

  unreadOnly.addEventListener('change', draw);
  view.append(h('div', { class: 'toolbar' }, refresh,
    h('div', { class: 'check' }, unreadOnly, h('label', { for: 'inbox-unread-only', text: 'Unread only' }))),
  errors, status, list, more);
  try {
    await load();
  } catch (err) {
    errors.append(errorBox(err));
  }
}

async function renderThread(view, id) {
  const errors = h('div');
  const status = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });
  view.append(h('p', {}, h('a', { href: '#/inbox', text: 'All conversations' })), errors);
  let item;
  try {
    item = await get('inbox', 'read', { id, limit: 50 });
  } catch (err) {
    errors.append(errorBox(err));
    return;
  }
  const head = h('div');
  const mark = h('button', { type: 'button' });
  const showHead = () => {
    clear(head);
    head.append(
      h('h2', { text: titleOf(item) }),
      h('p', { class: 'muted' }, badge(item), ` ${item.channel} · last message ${formatTime(item.updated)}`));
    mark.textContent = item.unread > 0 ? 'Mark read' : 'Mark unread';
  };
  mark.addEventListener('click', async () => {
    clear(errors);
    try {
      const next = await busy(mark, call('inbox', item.unread > 0 ? 'mark_read' : 'mark_unread', { id }));
      item = { ...item, ...next };
      showHead();
      status.textContent = item.unread > 0 ? 'Marked unread.' : 'Marked read.';
    } catch (err) {
      errors.append(errorBox(err));
    }
  });

  const messages = h('ol', { class: 'list messages', 'aria-label': 'Messages' });
  for (const m of item.messages || []) {
    const who = m.role === 'assistant' ? (m.agent || 'assistant') : 'You';
    messages.append(h('li', { class: `message ${m.role === 'assistant' ? 'from-assistant' : 'from-user'}` },
      h('p', { class: 'muted small' }, `${who} · ${m.channel} · ${formatTime(m.at)}`),
      h('p', { class: 'message-text', text: m.text })));
  }
  if (!(item.messages || []).length) messages.append(h('li', { class: 'muted', text: 'No messages.' }));

  // Opening a conversation reads it: mark it read (Mark unread undoes that).
  if (item.unread > 0) {
    try {
      item = { ...item, ...(await call('inbox', 'mark_read', { id })) };
    } catch (err) {
      errors.append(errorBox(err));
    }
  }
  showHead();
  view.append(head,
    h('div', { class: 'toolbar' }, mark,
      h('a', { href: `#/chat/agent/${encodeURIComponent(id)}`, class: 'button', text: 'Reply in chat' })),
    status, messages);
}

export default {
  id: 'inbox',
  title: 'Inbox',
  admin: false,
  async render(view, ctx) {
    const id = (ctx.path || '').split('/')[0];
    if (id) await renderThread(view, id);
    else await renderList(view);
  },
};
