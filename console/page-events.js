// Events: reminders and scheduled events (the `events` service of plugins/calendar: events/list,
// events/create, events/read, events/update, events/delete, events/free). #/events shows a month
// grid marking the days with events (#/events?month=2026-12), the upcoming events, a form to add
// one and the free slots of a range; #/events/<id> opens one to change or delete it. Times are
// entered and shown in the browser's time zone and sent as RFC 3339.
import { call, get } from './api.js';
import { h, clear, errorBox, busy, formatTime, field } from './dom.js';

const REPEATS = ['hourly', 'daily', 'weekly', 'monthly'];
const DAYS = [['Mon', 'Monday'], ['Tue', 'Tuesday'], ['Wed', 'Wednesday'], ['Thu', 'Thursday'],
  ['Fri', 'Friday'], ['Sat', 'Saturday'], ['Sun', 'Sunday']];

const pad = (n) => String(n).padStart(2, '0');
const dayKey = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

// A Date as a datetime-local value (the browser's wall time, minutes).
function toLocalInput(value) {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${dayKey(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

// A datetime-local or date value as RFC 3339 UTC ('' stays '', so the server names the argument).
function fromLocalInput(value) {
  if (!value) return '';
  const d = new Date(value.length === 10 ? `${value}T00:00` : value);
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}

function repeatSelect(value) {
  const select = h('select', { name: 'repeat' },
    h('option', { value: '', text: 'Once' }),
    REPEATS.map((r) => h('option', { value: r, text: r })));
  select.value = value || '';
  return select;
}

function startOf(e) {
  return new Date(e.next || e.when);
}

// The days of the month (year, month 0-11) on which the event has an occurrence, as dayKeys.
// Occurrences follow the event's repeat from its next start, in the browser's zone (the server
// keeps the owner's zone; near midnight a mark may sit on the neighbouring day).
function daysInMonth(e, year, month) {
  const first = new Date(year, month, 1);
  const last = new Date(year, month + 1, 0);
  const start = startOf(e);
  if (Number.isNaN(start.getTime())) return [];
  const out = [];
  const startDay = new Date(start.getFullYear(), start.getMonth(), start.getDate());
  if (!e.repeat) {
    if (startDay >= first && startDay <= last) out.push(dayKey(startDay));
    return out;
  }
  for (let d = new Date(first); d <= last; d.setDate(d.getDate() + 1)) {
    if (d < startDay) continue;
    const days = Math.round((d - startDay) / 86400000);
    if (e.repeat === 'hourly' || e.repeat === 'daily') out.push(dayKey(d));
    else if (e.repeat === 'weekly' && days % 7 === 0) out.push(dayKey(d));
    else if (e.repeat === 'monthly') {
      const lastDay = new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate();
      if (d.getDate() === Math.min(start.getDate(), lastDay)) out.push(dayKey(d));
    }
  }
  return out;
}

function eventFields(e = {}) {
  const title = h('input', { type: 'text', name: 'title', required: true, maxlength: '200', autocomplete: 'off', value: e.title || '' });
  const when = h('input', { type: 'datetime-local', name: 'when', required: true });
  if (e.when) when.value = toLocalInput(e.when);
  const minutes = h('input', { type: 'number', name: 'minutes', min: '1', max: '10080', step: '1', inputmode: 'numeric' });
  minutes.value = String(e.minutes || 30);
  const repeat = repeatSelect(e.repeat);
  const note = h('textarea', { name: 'note', rows: '3' });
  note.value = e.note || '';
  return {
    title, when, minutes, repeat, note,
    controls: [field('Title', title), field('When', when), field('Minutes', minutes),
      field('Repeat', repeat), field('Note', note)],
  };
}

function describe(e) {
  const parts = [formatTime(e.next || e.when), `${e.minutes} min`];
  if (e.repeat) parts.push(`repeats ${e.repeat}`);
  if (e.fired) parts.push('fired');
  return parts.join(' · ');
}

async function renderMain(view, ctx) {
  const errors = h('div');
  const status = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });
  let events = [];

  // The month grid.
  const now = new Date();
  const m = /^(\d{4})-(\d{2})$/.exec((ctx.params && ctx.params.get('month')) || '');
  let year = m ? Number(m[1]) : now.getFullYear();
  let month = m ? Number(m[2]) - 1 : now.getMonth();
  if (month < 0 || month > 11) month = now.getMonth();
  const calendar = h('div', { class: 'calendar' });
  const prev = h('button', { type: 'button', text: 'Previous month' });
  const next = h('button', { type: 'button', text: 'Next month' });
  const monthName = () => new Date(year, month, 1).toLocaleDateString(undefined, { month: 'long', year: 'numeric' });

  function drawCalendar() {
    const marks = new Map();
    for (const e of events) {
      for (const k of daysInMonth(e, year, month)) {
        if (!marks.has(k)) marks.set(k, []);
        marks.get(k).push(e);
      }
    }
    const first = new Date(year, month, 1);
    const lead = (first.getDay() + 6) % 7; // Monday first
    const count = new Date(year, month + 1, 0).getDate();
    const rows = [];
    let cells = [];
    for (let i = 0; i < lead; i++) cells.push(h('td', { class: 'outside' }));
    for (let day = 1; day <= count; day++) {
      const d = new Date(year, month, day);
      const k = dayKey(d);
      const here = marks.get(k) || [];
      const today = k === dayKey(new Date());
      const attrs = {};
      const classes = [here.length ? 'has-events' : '', today ? 'today' : ''].filter(Boolean).join(' ');
      if (classes) attrs.class = classes;
      if (today) attrs['aria-current'] = 'date';
      cells.push(h('td', attrs,
      h('span', { class: 'day-number', text: String(day) }),
      here.length
        ? h('ul', { class: 'day-events', 'aria-label': `${here.length} event${here.length === 1 ? '' : 's'}` },
          here.slice(0, 3).map((e) => h('li', {}, h('a', { href: `#/events/${encodeURIComponent(e.id)}`, text: e.title }))),
          here.length > 3 ? h('li', { class: 'muted', text: `+${here.length - 3} more` }) : null)
        : null));
      if (cells.length === 7) {
        rows.push(h('tr', {}, cells));
        cells = [];
      }
    }
    if (cells.length) {
      while (cells.length < 7) cells.push(h('td', { class: 'outside' }));
      rows.push(h('tr', {}, cells));
    }
    clear(calendar);
    calendar.append(h('table', { class: 'month' },
      h('caption', { text: monthName() }),
      h('thead', {}, h('tr', {}, DAYS.map(([short, long]) => h('th', { scope: 'col', abbr: long }, h('abbr', { title: long, text: short }))))),
      h('tbody', {}, rows)));
  }
  const move = (delta) => {
    month += delta;
    if (month < 0) { month = 11; year -= 1; }
    if (month > 11) { month = 0; year += 1; }
    history.replaceState(null, '', `#/events?month=${year}-${pad(month + 1)}`);
    drawCalendar();
    status.textContent = `Showing ${monthName()}.`;
  };
  prev.addEventListener('click', () => move(-1));
  next.addEventListener('click', () => move(1));

  // The upcoming events.
  const list = h('ul', { class: 'list', 'aria-label': 'Upcoming events', tabindex: '-1' });
  function drawList() {
    clear(list);
    if (!events.length) list.append(h('li', { class: 'muted', text: 'No upcoming events.' }));
    for (const e of events) {
      const del = h('button', {
        type: 'button', class: 'danger', text: 'Delete', 'aria-label': `Delete: ${e.title}`,
        on: {
          click: async () => {
            clear(errors);
            try {
              await busy(del, call('events', 'delete', { id: e.id }));
              status.textContent = `Deleted: ${e.title}.`;
              await load();
              list.focus(); // the focused row is gone
            } catch (err) {
              errors.append(errorBox(err));
            }
          },
        },
      });
      list.append(h('li', { class: 'row event' },
        h('div', { class: 'grow' },
          h('a', { href: `#/events/${encodeURIComponent(e.id)}`, text: e.title }),
          h('p', { class: 'muted small', text: describe(e) }),
          e.note ? h('p', { class: 'preview', text: e.note.split('\n')[0].slice(0, 160) }) : null,
          e.last_error ? h('p', { class: 'error-text', text: e.last_error }) : null),
        h('div', { class: 'toolbar' }, del)));
    }
  }

  async function load() {
    const data = await get('events', 'list', { limit: 100 });
    events = (data && data.events) || [];
    drawList();
    drawCalendar();
  }

  // Adding an event.
  const f = eventFields();
  const add = h('button', { type: 'submit', class: 'primary', text: 'Add event' });
  const form = h('form', {
    class: 'card', novalidate: true, 'aria-labelledby': 'events-add-heading',
    on: {
      submit: async (ev) => {
        ev.preventDefault();
        clear(errors);
        const args = { title: f.title.value, when: fromLocalInput(f.when.value), minutes: Number(f.minutes.value) };
        if (f.repeat.value) args.repeat = f.repeat.value;
        if (f.note.value) args.note = f.note.value;
        try {
          const e = await busy(add, call('events', 'create', args));
          status.textContent = `Added: ${e.title}, ${formatTime(e.when)}.`;
          f.title.value = '';
          f.when.value = '';
          f.note.value = '';
          f.repeat.value = '';
          await load();
        } catch (err) {
          errors.append(errorBox(err));
        }
      },
    },
  },
  h('h2', { id: 'events-add-heading', text: 'Add an event' }),
  f.controls,
  h('div', { class: 'toolbar' }, add));

  // Free slots.
  const freeErrors = h('div');
  const from = h('input', { type: 'date', name: 'from' });
  const to = h('input', { type: 'date', name: 'to' });
  const shortest = h('input', { type: 'number', name: 'minutes', min: '1', max: '1440', step: '1', inputmode: 'numeric' });
  shortest.value = '30';
  const dayStart = h('input', { type: 'number', name: 'day_start', min: '0', max: '23', step: '1', inputmode: 'numeric' });
  dayStart.value = '9';
  const dayEnd = h('input', { type: 'number', name: 'day_end', min: '0', max: '23', step: '1', inputmode: 'numeric' });
  dayEnd.value = '18';
  const find = h('button', { type: 'submit', text: 'Find free slots' });
  const slots = h('ul', { class: 'list', 'aria-label': 'Free slots', hidden: true });
  const slotsNote = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });
  const fmtDay = (d) => d.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
  const fmtTime = (d) => d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const freeForm = h('form', {
    class: 'card', novalidate: true, 'aria-labelledby': 'events-free-heading',
    on: {
      submit: async (ev) => {
        ev.preventDefault();
        clear(freeErrors);
        const args = { minutes: Number(shortest.value), day_start: Number(dayStart.value), day_end: Number(dayEnd.value) };
        if (from.value) args.from = fromLocalInput(from.value);
        if (to.value) {
          const end = new Date(`${to.value}T00:00`);
          end.setDate(end.getDate() + 1); // the whole "to" day
          args.to = Number.isNaN(end.getTime()) ? to.value : end.toISOString();
        }
        try {
          const data = await busy(find, get('events', 'free', args));
          clear(slots);
          for (const s of data.slots || []) {
            const a = new Date(s.start);
            const b = new Date(s.end);
            const same = dayKey(a) === dayKey(b);
            slots.append(h('li', {},
              h('time', { datetime: s.start, text: `${fmtDay(a)}, ${fmtTime(a)}` }), ' – ',
              h('time', { datetime: s.end, text: same ? fmtTime(b) : `${fmtDay(b)}, ${fmtTime(b)}` }),
              h('span', { class: 'muted', text: ` (${s.minutes} min)` })));
          }
          if (!(data.slots || []).length) slots.append(h('li', { class: 'muted', text: 'No free slots in that range.' }));
          slots.hidden = false;
          slotsNote.textContent = `${(data.slots || []).length} free slot${(data.slots || []).length === 1 ? '' : 's'} `
            + `of at least ${data.minutes} minutes (working hours in ${data.timezone}).`;
        } catch (err) {
          clear(slots);
          slots.hidden = true;
          slotsNote.textContent = '';
          freeErrors.append(errorBox(err));
        }
      },
    },
  },
  h('h2', { id: 'events-free-heading', text: 'Free slots' }),
  h('div', { class: 'grid' },
    field('From date', from), field('To date', to),
    field('Shortest free slot', shortest, 'In minutes.'),
    field('Working day starts (hour)', dayStart), field('Working day ends (hour)', dayEnd)),
  h('p', { class: 'muted small', text: 'Without dates: from now, for 7 days. Working hours are in your account\'s time zone.' }),
  h('div', { class: 'toolbar' }, find),
  freeErrors, slotsNote, slots);

  view.append(errors, status,
    h('h2', { text: 'Calendar' }),
    h('div', { class: 'toolbar' }, prev, next), calendar,
    h('h2', { text: 'Upcoming' }), list,
    form, freeForm);
  drawCalendar();
  try {
    await load();
  } catch (err) {
    errors.append(errorBox(err));
  }
}

async function renderEvent(view, ctx, id) {
  const errors = h('div');
  const status = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });
  view.append(h('p', {}, h('a', { href: '#/events', text: 'All events' })), errors);
  let e;
  try {
    e = await get('events', 'read', { id });
  } catch (err) {
    errors.append(errorBox(err));
    return;
  }
  const heading = h('h2', { id: 'event-heading', text: e.title });
  const meta = h('div', { class: 'muted' });
  const showMeta = () => {
    heading.textContent = e.title;
    clear(meta);
    meta.append(
      h('p', { text: describe(e) }),
      e.last_fired ? h('p', { text: `Last fired ${formatTime(e.last_fired)}` }) : null,
      e.last_error ? h('p', { class: 'error-text', text: e.last_error }) : null,
      e.briefing && e.briefing.text ? h('p', { text: `Briefing: ${e.briefing.text}` }) : null);
  };
  showMeta();
  const f = eventFields(e);
  const save = h('button', { type: 'submit', class: 'primary', text: 'Save event' });
  const del = h('button', { type: 'button', class: 'danger', text: 'Delete event' });
  del.addEventListener('click', async () => {
    clear(errors);
    try {
      await busy(del, call('events', 'delete', { id }));
      ctx.navigate('#/events');
    } catch (err) {
      errors.append(errorBox(err));
    }
  });
  const form = h('form', {
    class: 'card', novalidate: true, 'aria-labelledby': 'event-heading',
    on: {
      submit: async (ev) => {
        ev.preventDefault();
        clear(errors);
        const args = { id, title: f.title.value, minutes: Number(f.minutes.value), repeat: f.repeat.value, note: f.note.value };
        // `when` must be in the future: send it only when it was changed.
        if (f.when.value !== toLocalInput(e.when)) args.when = fromLocalInput(f.when.value);
        try {
          e = await busy(save, call('events', 'update', args));
          f.when.value = toLocalInput(e.when);
          showMeta();
          status.textContent = 'Saved.';
        } catch (err) {
          errors.append(errorBox(err));
        }
      },
    },
  },
  heading, meta, f.controls,
  h('div', { class: 'toolbar' }, save, del));
  view.append(form, status);
}

export default {
  id: 'events',
  title: 'Events',
  admin: false,
  async render(view, ctx) {
    const id = (ctx.path || '').split('/')[0];
    if (id) await renderEvent(view, ctx, id);
    else await renderMain(view, ctx);
  },
};
