// Notes: the caller's notes (notes/list, notes/get, notes/add, notes/delete; plugins/notes).
// #/notes lists them with a form to add one; #/notes/?title=<title> opens one to edit or delete.
// notes/add rewrites a note with the same title, so saving under a new title adds that note and
// deletes the old one (a rename).
import { call, get } from './api.js';
import { h, clear, errorBox, busy, formatTime, field } from './dom.js';

function noteLink(title) {
  return `#/notes/?${new URLSearchParams({ title })}`;
}

async function renderList(view) {
  const status = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });
  const errors = h('div');
  const title = h('input', { type: 'text', name: 'title', required: true, maxlength: '200', autocomplete: 'off' });
  const text = h('textarea', { name: 'text', required: true, rows: '5' });
  const add = h('button', { type: 'submit', class: 'primary', text: 'Add note' });
  const list = h('ul', { class: 'list', 'aria-label': 'Notes', tabindex: '-1' });

  async function load() {
    const data = await get('notes', 'list');
    clear(list);
    const notes = (data && data.notes) || [];
    if (!notes.length) list.append(h('li', { class: 'muted', text: 'No notes yet.' }));
    for (const note of notes) {
      const del = h('button', {
        type: 'button', class: 'danger', text: 'Delete', 'aria-label': `Delete: ${note.title}`,
        on: {
          click: async () => {
            clear(errors);
            try {
              await busy(del, call('notes', 'delete', { title: note.title }));
              status.textContent = `Deleted "${note.title}".`;
              await load();
              list.focus(); // the focused row is gone
            } catch (err) {
              errors.append(errorBox(err));
            }
          },
        },
      });
      list.append(h('li', { class: 'row note' },
        h('div', { class: 'grow' },
          h('a', { href: noteLink(note.title), text: note.title }),
          h('p', { class: 'muted preview', text: (note.text || '').split('\n')[0].slice(0, 120) }),
          h('p', { class: 'muted small', text: `Updated ${formatTime(note.updated)}` })),
        del));
    }
  }

  const form = h('form', {
    class: 'card', novalidate: true, 'aria-labelledby': 'notes-add-heading',
    on: {
      submit: async (e) => {
        e.preventDefault();
        clear(errors);
        try {
          const note = await busy(add, call('notes', 'add', { title: title.value, text: text.value }));
          status.textContent = `Saved "${note.title}".`;
          title.value = '';
          text.value = '';
          await load();
          title.focus();
        } catch (err) {
          errors.append(errorBox(err));
        }
      },
    },
  },
  h('h2', { id: 'notes-add-heading', text: 'Add a note' }),
  field('Title', title), field('Text', text),
  h('div', { class: 'toolbar' }, add));

  view.append(form, errors, status,
    h('h2', { text: 'Your notes' }), list);
  try {
    await load();
  } catch (err) {
    errors.append(errorBox(err));
  }
}

async function renderNote(view, ctx, wanted) {
  const errors = h('div');
  const status = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });
  view.append(h('p', {}, h('a', { href: '#/notes', text: 'All notes' })), errors);
  let note;
  try {
    note = await get('notes', 'get', { title: wanted });
  } catch (err) {
    errors.append(errorBox(err));
    return;
  }
  const title = h('input', { type: 'text', name: 'title', required: true, maxlength: '200', value: note.title, autocomplete: 'off' });
  const text = h('textarea', { name: 'text', required: true, rows: '12' });
  text.value = note.text;
  const save = h('button', { type: 'submit', class: 'primary', text: 'Save note' });
  const del = h('button', { type: 'button', class: 'danger', text: 'Delete note' });
  const meta = h('p', { class: 'muted' });
  const showMeta = () => {
    meta.textContent = `Created ${formatTime(note.created)} · updated ${formatTime(note.updated)}`;
  };
  showMeta();

  del.addEventListener('click', async () => {
    clear(errors);
    try {
      await busy(del, call('notes', 'delete', { title: note.title }));
      ctx.navigate('#/notes');
    } catch (err) {
      errors.append(errorBox(err));
    }
  });

  const form = h('form', {
    class: 'card', novalidate: true, 'aria-labelledby': 'note-heading',
    on: {
      submit: async (e) => {
        e.preventDefault();
        clear(errors);
        try {
          const renamed = title.value !== note.title;
          const saved = await busy(save, call('notes', 'add', { title: title.value, text: text.value }));
          if (renamed) {
            await call('notes', 'delete', { title: note.title });
            ctx.navigate(noteLink(saved.title));
            return;
          }
          note = saved;
          showMeta();
          status.textContent = `Saved "${note.title}".`;
        } catch (err) {
          errors.append(errorBox(err));
        }
      },
    },
  },
  h('h2', { id: 'note-heading', text: note.title }),
  meta,
  field('Title', title), field('Text', text),
  h('div', { class: 'toolbar' }, save, del));
  view.append(form, status);
}

export default {
  id: 'notes',
  title: 'Notes',
  admin: false,
  async render(view, ctx) {
    const wanted = ctx.params && ctx.params.get('title');
    if (wanted) await renderNote(view, ctx, wanted);
    else await renderList(view);
  },
};
