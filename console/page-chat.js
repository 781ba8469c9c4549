// Chat: conversations with the agents (threads across channels, read through the inbox service)
// and with people (chat rooms: public, group and direct), in one list with unread marks.
//
//   #/chat                    a new conversation with an agent
//   #/chat/agent/<thread>     an agent conversation: its messages (inbox/read), then prompts sent
//                             through agent/stream, each tool step shown as it finishes
//   #/chat/room/<room>        a chat room: its last messages (chat/messages), new ones live over
//                             the chat WebSocket (chat/live), sent with chat/send
//
// Stable names for tests and assistive technology: the list "Conversations", the log "Messages",
// the select "Agent", the textarea "Message", the button "Send", the log "Tool steps", the status
// "Reply status" (agent) or "Live status" (rooms), the input "Room" and its button "Open room",
// the link "New conversation".
import { ApiError, call, get, socket, stream } from './api.js';
import { busy, clear, errorBox, field, formatTime, h } from './dom.js';

const KIND = { public: 'Public room', group: 'Group', direct: 'Direct' };

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

// The merged list: agent threads (inbox/list) and rooms (chat/rooms), most recent first.
async function conversations() {
  const [threads, rooms] = await Promise.allSettled([
    get('inbox', 'list', { limit: 50 }), get('chat', 'rooms', { limit: 50 })]);
  const items = [];
  const problems = [];
  if (threads.status === 'fulfilled') {
    for (const t of (threads.value && threads.value.items) || []) {
      items.push({ key: `agent/${t.id}`, href: `#/chat/agent/${encodeURIComponent(t.id)}`,
        title: t.title || t.id, kind: 'Agent', channel: t.channel, unread: t.unread || 0,
        when: t.updated || '', last: t.last && t.last.text });
    }
  } else {
    problems.push(threads.reason);
  }
  if (rooms.status === 'fulfilled') {
    for (const r of (rooms.value && rooms.value.rooms) || []) {
      items.push({ key: `room/${r.id}`, href: `#/chat/room/${encodeURIComponent(r.id)}`,
        title: r.kind === 'direct' ? `${r.name || r.id}` : (r.name || r.id),
        kind: KIND[r.kind] || r.kind, encrypted: !!r.encrypted, unread: 0, when: r.last_at || '',
        count: r.messages || 0 });
    }
  } else {
    problems.push(rooms.reason);
  }
  items.sort((a, b) => String(b.when).localeCompare(String(a.when)));
  return { items, problems };
}

function conversationItem(item, current) {
  const badges = [h('span', { class: 'badge' }, item.kind)];
  if (item.channel) badges.push(h('span', { class: 'badge' }, item.channel));
  if (item.encrypted) badges.push(h('span', { class: 'badge warn' }, 'encrypted'));
  if (item.unread > 0) badges.push(h('span', { class: 'badge unread' }, `${item.unread} unread`));
  return h('li', { class: item.unread > 0 ? 'unread' : null, 'data-key': item.key },
    h('a', { href: item.href, 'aria-current': item.key === current ? 'true' : null },
      h('span', { class: 'chat-title' }, item.title)),
    h('div', { class: 'row chat-meta' }, badges,
      item.when ? h('span', { class: 'muted' }, formatTime(item.when)) : null),
    item.last ? h('p', { class: 'muted chat-last' }, item.last) : null);
}

// One message of either kind: who, when, the text.
function messageItem({ who, at, text, mine, agent }) {
  return h('li', { class: ['chat-message', mine ? 'mine' : null, agent ? 'agent' : null] },
    h('div', { class: 'row chat-meta' }, h('strong', {}, who),
      at ? h('span', { class: 'muted' }, formatTime(at)) : null),
    h('p', { class: 'chat-text' }, text));
}

// A finished tool step as agent/stream sends it.
function stepItem(step) {
  const ok = step.outcome === 'ok';
  const seconds = typeof step.seconds === 'number' ? `${step.seconds.toFixed(3)} s` : '';
  return h('li', { class: 'chat-step' },
    h('div', { class: 'row' }, h('span', { class: 'mono' }, step.tool || '(no tool)'),
      h('span', { class: ok ? 'badge ok' : 'badge bad' }, ok ? 'ok' : 'error'),
      seconds ? h('span', { class: 'muted' }, seconds) : null),
    step.error ? h('p', { class: 'chat-step-error' }, step.error) : null,
    h('details', {}, h('summary', {}, 'Arguments'),
      h('pre', {}, JSON.stringify(step.arguments || {}, null, 2))));
}

// ---- the agent conversation ------------------------------------------------------------------

async function agentView(pane, ctx, threadId, onChanged) {
  let thread = threadId;
  let controller = null;
  const heading = h('h2', { id: 'chat-thread-title' }, 'New conversation');
  // A log holds the list (an <li> must stay in a list for assistive technology).
  const messages = h('ol', { id: 'chat-messages', class: 'list chat-messages' });
  const threadLog = h('div', { role: 'log', 'aria-label': 'Messages' }, messages);
  const steps = h('ol', { id: 'chat-steps', class: 'list chat-steps' });
  const stepsLog = h('div', { role: 'log', 'aria-label': 'Tool steps' }, steps);
  const stepsBox = h('div', { class: 'chat-steps-box', hidden: true },
    h('h3', { id: 'chat-steps-title' }, 'Tool steps'), stepsLog);
  const status = h('div', { id: 'chat-status', role: 'status', 'aria-label': 'Reply status',
    class: 'muted chat-status' });
  const picker = h('select', { id: 'chat-agent', name: 'agent' });
  const prompt = h('textarea', { id: 'chat-prompt', name: 'prompt', rows: '3', required: true,
    maxlength: '8000' });
  const send = h('button', { id: 'chat-send', class: 'primary', type: 'submit' }, 'Send');
  const form = h('form', { class: 'card chat-form' },
    field('Agent', picker), field('Message', prompt, 'Ctrl+Enter sends.'), send);
  pane.append(heading, threadLog, stepsBox, status, form);

  const agentNames = [];
  try {
    const listed = await get('agent', 'list');
    for (const a of (listed && listed.agents) || []) {
      agentNames.push(a.name);
      picker.append(h('option', { value: a.name, selected: a.name === listed.default },
        a.description ? `${a.name} — ${a.description}` : a.name));
    }
  } catch (e) {
    picker.append(h('option', { value: '' }, 'the default agent'));
    status.append(errorBox(e));
  }

  if (thread) {
    try {
      const read = await get('inbox', 'read', { id: thread, limit: 100 });
      heading.textContent = read.title || 'Conversation';
      let lastAgent = '';
      for (const m of read.messages || []) {
        const assistant = m.role === 'assistant';
        if (assistant && m.agent) lastAgent = m.agent;
        messages.append(messageItem({ who: assistant ? (m.agent || 'agent') : 'You', at: m.at,
          text: m.text, mine: !assistant, agent: assistant }));
      }
      if (lastAgent && agentNames.includes(lastAgent)) picker.value = lastAgent;
      if (read.unread > 0) {
        call('inbox', 'mark_read', { id: thread }).then(() => onChanged(thread), () => {});
      }
    } catch (e) {
      pane.insertBefore(errorBox(e), threadLog);
      if (e instanceof ApiError && e.status === 404) {
        form.hidden = true;
        return () => {};
      }
    }
  }

  async function ask() {
    const text = prompt.value.trim();
    if (!text) {
      prompt.focus();
      return;
    }
    clear(steps);
    clear(status);
    stepsBox.hidden = false;
    steps.append(h('li', { class: 'muted chat-step-none' }, 'No tool used yet.'));
    messages.append(messageItem({ who: 'You', at: new Date().toISOString(), text, mine: true }));
    const agentName = picker.value;
    status.textContent = `${agentName || 'The agent'} is working…`;
    controller = new AbortController();
    const args = { prompt: text };
    if (agentName) args.agent = agentName;
    if (thread) args.thread = thread;
    let replied = false;
    try {
      await busy(send, stream('agent', 'stream', args, (chunk) => {
        if (chunk.type === 'step') {
          const none = steps.querySelector('.chat-step-none');
          if (none) none.remove();
          steps.append(stepItem(chunk));
        } else if (chunk.type === 'reply') {
          replied = true;
          messages.append(messageItem({ who: agentName || 'agent', at: new Date().toISOString(),
            text: chunk.text, agent: true }));
          const fresh = !thread;
          thread = chunk.thread || thread;
          if (fresh && thread) {
            // The thread exists now: its address, without leaving the page.
            history.replaceState(null, '', `#/chat/agent/${encodeURIComponent(thread)}`);
            heading.textContent = text.split('\n')[0].slice(0, 80);
          }
        }
      }, { signal: controller.signal }));
      prompt.value = '';
      const used = steps.querySelectorAll('.chat-step').length;
      status.textContent = replied ? `Replied after ${plural(used, 'tool step', 'tool steps')}.`
        : 'The stream ended without a reply.';
      if (replied && thread) {
        const changed = () => onChanged(thread);
        call('inbox', 'mark_read', { id: thread }).then(changed, changed);
      }
    } catch (e) {
      if (e.name === 'AbortError') return;
      clear(status);
      status.append(errorBox(e));
    } finally {
      controller = null;
    }
  }

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    ask();
  });
  prompt.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      if (!send.disabled) ask();
    }
  });
  if (!thread) prompt.focus();
  return () => { if (controller) controller.abort(); };
}

// ---- a chat room -------------------------------------------------------------------------------

function roomView(pane, ctx, room, onChanged) {
  const me = (ctx.account && ctx.account.id) || '';
  const heading = h('h2', { id: 'chat-thread-title' }, room);
  const messages = h('ol', { id: 'chat-messages', class: 'list chat-messages' });
  const threadLog = h('div', { role: 'log', 'aria-label': 'Messages' }, messages);
  const live = h('p', { id: 'chat-live', role: 'status', 'aria-label': 'Live status',
    class: 'muted chat-status' }, 'Connecting…');
  const problem = h('div', {});
  const input = h('textarea', { id: 'chat-prompt', name: 'message', rows: '2', required: true,
    maxlength: '4000' });
  const send = h('button', { id: 'chat-send', class: 'primary', type: 'submit' }, 'Send');
  const form = h('form', { class: 'card chat-form' },
    field('Message', input, 'Ctrl+Enter sends.'), send);
  pane.append(heading, live, problem, threadLog, form);

  const seen = new Set();
  let cursor = null;
  let ws = null;
  let closed = false;
  let retry = null;
  let attempts = 0;
  let sentBefore = false;

  function show(m) {
    if (!m || !m.id || seen.has(m.id)) return;
    seen.add(m.id);
    const empty = messages.querySelector('.chat-empty');
    if (empty) empty.remove();
    messages.append(messageItem({ who: m.from === me ? 'You' : m.from, at: m.at, text: m.text,
      mine: m.from === me, agent: m.agent }));
  }

  function connect() {
    if (closed) return;
    const args = { room };
    if (cursor !== null) args.after = cursor;
    ws = socket('chat', 'live', args, (chunk) => {
      if (chunk.type === 'ready') {
        if (typeof chunk.cursor === 'number' && cursor === null) cursor = chunk.cursor;
      } else if (chunk.type === 'message') {
        if (typeof chunk.cursor === 'number') cursor = chunk.cursor;
        show(chunk.message);
      } else if (chunk.error || chunk.type === 'error') {
        const e = chunk.error || chunk;
        clear(problem).append(errorBox(new ApiError(e.status || 0, e.code, e.message)));
      }
    });
    ws.addEventListener('open', () => {
      attempts = 0;
      live.textContent = 'Live: new messages appear as they are sent.';
    });
    ws.addEventListener('close', () => {
      if (closed) return;
      attempts += 1;
      const wait = Math.min(30, 2 ** attempts);
      live.textContent = `Live updates stopped; trying again in ${wait} s.`;
      retry = setTimeout(connect, wait * 1000);
    });
  }

  async function sendMessage() {
    const text = input.value.trim();
    if (!text) {
      input.focus();
      return;
    }
    clear(problem);
    try {
      const stored = await busy(send, call('chat', 'send', { room, message: text }));
      show(stored);
      if (!sentBefore) onChanged();  // a room's first message from here: the list may lack it
      sentBefore = true;
      input.value = '';
      input.focus();
    } catch (e) {
      problem.append(errorBox(e));
    }
  }

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    sendMessage();
  });
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      if (!send.disabled) sendMessage();
    }
  });

  (async () => {
    try {
      const got = await get('chat', 'messages', { room });
      const list = (got && got.messages) || [];
      if (!list.length) {
        messages.append(h('li', { class: 'muted chat-empty' }, 'No messages yet.'));
      }
      list.forEach(show);
      connect();
    } catch (e) {
      live.textContent = '';
      problem.append(errorBox(e));
      form.hidden = true;
    }
  })();

  return () => {
    closed = true;
    if (retry) clearTimeout(retry);
    if (ws) ws.close();
  };
}

// ---- the page ----------------------------------------------------------------------------------

export default {
  id: 'chat',
  title: 'Chat',
  admin: false,
  async render(view, ctx) {
    const [mode, ...rest] = (ctx.path || '').split('/');
    const target = rest.join('/');
    let current = mode === 'agent' && target ? `agent/${target}`
      : mode === 'room' && target ? `room/${target}` : '';

    const list = h('ul', { id: 'chat-conversations', class: 'list chat-list',
      'aria-label': 'Conversations' });
    const listProblem = h('div', {});
    const roomInput = h('input', { id: 'chat-room', name: 'room', autocomplete: 'off',
      placeholder: 'general or @account', required: true });
    const roomForm = h('form', { class: 'chat-open' },
      field('Room', roomInput, 'A public room name, or @account for a direct conversation.'),
      h('button', { type: 'submit' }, 'Open room'));
    roomForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const room = roomInput.value.trim();
      if (room) ctx.navigate(`#/chat/room/${encodeURIComponent(room)}`);
    });
    const newLink = h('a', { href: '#/chat', class: 'chat-new' }, 'New conversation');
    const side = h('div', { class: 'chat-side' },
      h('h2', { id: 'chat-list-title' }, 'Conversations'),
      h('p', {}, newLink), listProblem, list, roomForm);
    const pane = h('div', { class: 'chat-pane' });
    view.append(h('div', { class: 'split chat' }, side, pane));

    let loading = null;
    async function loadList() {
      if (loading) return loading;
      loading = (async () => {
        const { items, problems } = await conversations();
        clear(list);
        clear(listProblem);
        if (current === '') newLink.setAttribute('aria-current', 'true');
        else newLink.removeAttribute('aria-current');
        problems.forEach((e) => listProblem.append(errorBox(e)));
        if (!items.length) list.append(h('li', { class: 'muted' }, 'No conversations yet.'));
        items.forEach((item) => list.append(conversationItem(item, current)));
      })().finally(() => { loading = null; });
      return loading;
    }
    const listed = loadList();

    let cleanup;
    if (mode === 'room' && target) cleanup = roomView(pane, ctx, target, () => loadList());
    else {
      cleanup = await agentView(pane, ctx, mode === 'agent' ? target : '', (thread) => {
        current = `agent/${thread}`;  // a new conversation has its thread now
        return loadList();
      });
    }
    await listed.catch(() => {});
    return cleanup;
  },
};
