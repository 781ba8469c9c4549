// Apps: the gallery of small HTML apps (plugins/apps: apps/collection, apps/search, apps/read,
// apps/fork). Each app opens in its own sandboxed page, /ui/apps/<slug>, in a new tab: the app's
// HTML is never put into the console's page. Icons are SVG shown through <img> with a data: URL
// (an image cannot run scripts, and the console's CSP allows img-src data:).
// The apps service lists only the caller's own apps; another account's public app is found by its
// slug (apps/read), there being no method that lists everyone's public apps.
import { call, get } from './api.js';
import { h, clear, errorBox, busy, formatTime, field } from './dom.js';

function iconOf(app) {
  if (!app.icon) return h('span', { class: 'app-icon app-icon-empty', 'aria-hidden': 'true', text: (app.name || '?').slice(0, 1).toUpperCase() });
  return h('img', {
    class: 'app-icon', alt: '', width: '48', height: '48',
    src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(app.icon)}`,
  });
}

function tagsOf(app) {
  const tags = Array.isArray(app.tags) ? app.tags : String(app.tags || '').split(',');
  return tags.map((t) => t.trim()).filter(Boolean);
}

function card(app, account, actions) {
  const mine = !account || !app.owner || app.owner === account.id;
  const url = app.url || `/ui/apps/${encodeURIComponent(app.slug)}`;
  const facts = [app.public ? 'public' : 'private'];
  if (app.price > 0) facts.push(`${app.price} credit${app.price === 1 ? '' : 's'} a day`);
  if (!mine) facts.push(`by ${app.owner}`);
  if (app.paid_today === true && app.price > 0) facts.push('paid today');
  const tags = tagsOf(app);
  return h('li', { class: 'card app-card' },
    h('div', { class: 'row' },
      iconOf(app),
      h('div', { class: 'grow' },
        h('h3', { text: app.name }),
        h('p', { class: 'muted small mono', text: app.slug }))),
    app.description && app.description !== app.name ? h('p', { text: app.description }) : null,
    h('p', { class: 'muted small', text: `${facts.join(' · ')} · updated ${formatTime(app.updated)}` }),
    tags.length ? h('p', { class: 'tags' }, h('span', { class: 'visually-hidden', text: 'Tags: ' }),
      tags.map((t) => h('span', { class: 'badge', text: t }))) : null,
    h('div', { class: 'toolbar' },
      h('a', { href: url, target: '_blank', rel: 'noopener noreferrer', class: 'button primary' },
        'Open', h('span', { class: 'visually-hidden', text: ` ${app.name} (new tab)` })),
      actions || null));
}

export default {
  id: 'apps',
  title: 'Apps',
  admin: false,
  async render(view, ctx) {
    const account = ctx.account || null;
    const errors = h('div');
    const status = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });
    const list = h('ul', { class: 'list app-grid', 'aria-label': 'Your apps' });
    const query = h('input', { type: 'search', name: 'query', maxlength: '200', autocomplete: 'off' });
    const search = h('button', { type: 'submit', text: 'Search' });

    async function load() {
      const q = query.value.trim();
      const data = q ? await get('apps', 'search', { query: q }) : await get('apps', 'collection');
      const apps = (data && data.apps) || [];
      clear(list);
      if (!apps.length) {
        list.append(h('li', { class: 'muted', text: q ? `No app of yours matches "${q}".` : 'You have no apps yet. Ask the assistant to build one, or open a public app by its slug below.' }));
      }
      for (const app of apps) list.append(card(app, account));
      status.textContent = q ? `${apps.length} app${apps.length === 1 ? '' : 's'} match "${q}".` : `${apps.length} app${apps.length === 1 ? '' : 's'}.`;
    }

    const searchForm = h('form', {
      class: 'toolbar', role: 'search', novalidate: true,
      on: {
        submit: async (e) => {
          e.preventDefault();
          clear(errors);
          try {
            await busy(search, load());
          } catch (err) {
            errors.append(errorBox(err));
          }
        },
      },
    }, field('Search your apps', query), search);

    // Another account's public app, by slug.
    const findErrors = h('div');
    const slug = h('input', { type: 'text', name: 'slug', maxlength: '64', autocomplete: 'off', spellcheck: 'false' });
    const find = h('button', { type: 'submit', text: 'Find app' });
    const found = h('ul', { class: 'list app-grid', 'aria-label': 'Found app', hidden: true });
    const findForm = h('form', {
      class: 'card', novalidate: true, 'aria-labelledby': 'apps-find-heading',
      on: {
        submit: async (e) => {
          e.preventDefault();
          clear(findErrors);
          clear(found);
          found.hidden = true;
          try {
            const app = await busy(find, get('apps', 'read', { slug: slug.value.trim() }));
            const mine = account && app.owner === account.id;
            let actions = null;
            if (!mine && !(app.price > 0)) {
              const fork = h('button', {
                type: 'button', text: 'Fork', 'aria-label': `Fork ${app.name} into your apps`,
                on: {
                  click: async () => {
                    clear(findErrors);
                    try {
                      const copy = await busy(fork, call('apps', 'fork', { slug: app.slug }));
                      status.textContent = `Forked into your apps as ${copy.slug}.`;
                      await load();
                    } catch (err) {
                      findErrors.append(errorBox(err));
                    }
                  },
                },
              });
              actions = fork;
            }
            found.append(card(app, account, actions));
            found.hidden = false;
          } catch (err) {
            findErrors.append(errorBox(err));
          }
        },
      },
    },
    h('h2', { id: 'apps-find-heading', text: 'Open a public app' }),
    h('p', { class: 'muted', text: 'Public apps of other people are found by their slug, e.g. tip-calculator.' }),
    h('div', { class: 'toolbar' }, field('App slug', slug), find),
    findErrors, found);

    view.append(
      h('h2', { text: 'Your apps' }),
      searchForm, errors, status, list,
      findForm);
    try {
      await load();
    } catch (err) {
      errors.append(errorBox(err));
    }
  },
};
