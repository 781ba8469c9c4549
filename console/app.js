// The console's shell: sign-in, the navigation, and the page modules (page-<id>.js), loaded when
// first shown. A page is `export default {id, title, admin, render(view, ctx)}`; render fills
// `view` and may return a cleanup function, called when the user leaves the page.
import { ApiError, login, logout, me, rpc } from './api.js';
import { busy, clear, errorBox, field, h, showError } from './dom.js';

// The pages, in the navigation's order. `admin`: shown only to accounts with the admin scope.
export const PAGES = [
  { id: 'chat', title: 'Chat' },
  { id: 'inbox', title: 'Inbox' },
  { id: 'work', title: 'Work' },
  { id: 'tasks', title: 'Tasks' },
  { id: 'notes', title: 'Notes' },
  { id: 'events', title: 'Events' },
  { id: 'apps', title: 'Apps' },
  { id: 'services', title: 'Services' },
  { id: 'tokens', title: 'Tokens' },
  { id: 'runtime', title: 'Runtime' },
  { id: 'admin', title: 'Admin', admin: true },
];
const HOME = 'chat';

const root = document.getElementById('app');
const state = { account: null, cleanup: null, secret: '', generation: 0 };

const isAdmin = (account) => !!account && (account.scopes || []).includes('admin');

// '#/notes/a/b?x=1' -> {id: 'notes', path: 'a/b', params}
function parseHash() {
  const hash = location.hash.replace(/^#\/?/, '');
  const [route, search = ''] = hash.split('?');
  const parts = route.split('/');
  return { id: parts[0] || '', path: parts.slice(1).map(decodeURIComponent).join('/'),
    params: new URLSearchParams(search) };
}

function navigate(hash) {
  if (location.hash === hash) render(); else location.hash = hash;
}

function runCleanup() {
  const fn = state.cleanup;
  state.cleanup = null;
  if (typeof fn === 'function') {
    try { fn(); } catch { /* a page's cleanup failing must not stop the next page */ }
  }
}

function header(current) {
  const menu = h('button', { class: 'menu-toggle', type: 'button', 'aria-expanded': 'false',
    'aria-controls': 'nav-list' }, 'Menu');
  const list = h('ul', { id: 'nav-list' },
    PAGES.filter((p) => !p.admin || isAdmin(state.account)).map((p) => h('li', {},
      h('a', { href: `#/${p.id}`, 'aria-current': p.id === current ? 'page' : null }, p.title))));
  menu.addEventListener('click', () => {
    const open = menu.getAttribute('aria-expanded') !== 'true';
    menu.setAttribute('aria-expanded', String(open));
    list.classList.toggle('open', open);
  });
  const signOut = h('button', { type: 'button', class: 'link', on: { click: async () => {
    await logout();
    state.account = null;
    navigate('#/');
  } } }, 'Sign out');
  return h('header', { class: 'top' },
    h('a', { class: 'skip', href: '#main' }, 'Skip to content'),
    h('a', { class: 'brand', href: `#/${HOME}` }, 'Platform'),
    h('nav', { 'aria-label': 'Console' }, menu, list),
    h('div', { class: 'who' }, h('span', { class: 'muted' }, state.account.name || state.account.id),
      signOut));
}

function frame(title, current) {
  clear(root);
  const heading = h('h1', { tabindex: '-1' }, title);
  const view = h('section', { 'aria-labelledby': 'page-title' });
  heading.id = 'page-title';
  const main = h('main', { id: 'main', tabindex: '-1' }, heading, view);
  if (state.account) root.append(header(current));
  root.append(main);
  document.title = `${title} — Platform`;
  return { heading, view };
}

function signInPage(problem) {
  const { heading, view } = frame('Sign in');
  const name = h('input', { name: 'name', autocomplete: 'username', required: true, value: 'admin' });
  const secret = h('input', { name: 'secret', type: 'password', autocomplete: 'current-password',
    required: true });
  const status = h('div', { 'aria-live': 'polite' });
  if (problem) status.append(errorBox(problem));
  const form = h('form', { class: 'card narrow' },
    field('Account', name),
    field('Secret', secret, 'A new instance prints the admin secret once when it first starts.'),
    h('button', { class: 'primary', type: 'submit' }, 'Sign in'), status);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      state.account = await busy(form, login(name.value.trim(), secret.value));
      state.secret = secret.value;
      const offer = (state.account.metadata || {}).secret_initial;
      navigate(offer ? '#/welcome' : (location.hash && location.hash !== '#/' ? location.hash :
        `#/${HOME}`));
    } catch (e) {
      showError(status, e.status === 401 || e.status === 403
        ? new ApiError(e.status, '', 'The account or the secret is not correct.') : e);
      secret.focus();
    }
  });
  view.append(form);
  heading.focus();
}

// After the first sign-in with the printed secret: an offer to choose one's own.
function welcomePage() {
  const { heading, view } = frame('Choose a new secret');
  const fresh = h('input', { type: 'password', autocomplete: 'new-password', required: true,
    minlength: '8' });
  const again = h('input', { type: 'password', autocomplete: 'new-password', required: true,
    minlength: '8' });
  const status = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'card narrow' },
    h('input', { type: 'text', autocomplete: 'username', value: state.account.name || '',
      hidden: true, 'aria-hidden': 'true', tabindex: '-1' }),
    h('p', {}, 'You signed in with the secret the server printed when it first started. ' +
      'Choose your own now; the printed one then stops working.'),
    field('New secret', fresh, 'At least 8 characters.'), field('Repeat the new secret', again),
    h('div', { class: 'row' }, h('button', { class: 'primary', type: 'submit' }, 'Change secret'),
      h('button', { type: 'button', on: { click: () => navigate(`#/${HOME}`) } }, 'Not now')),
    status);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (fresh.value !== again.value) {
      showError(status, new Error('The two secrets differ.'));
      return;
    }
    try {
      const changed = await busy(form, rpc('auth', 'changeSecret',
        { old_secret: state.secret, new_secret: fresh.value }));
      state.account = (changed && changed.account) || state.account;
      state.secret = '';
      navigate(`#/${HOME}`);
    } catch (e) {
      showError(status, e);
    }
  });
  view.append(form);
  heading.focus();
}

async function render() {
  const generation = ++state.generation;
  runCleanup();
  if (!state.account) {
    try {
      state.account = await me();
    } catch (e) {
      if (generation === state.generation) signInPage(e);
      return;
    }
    if (generation !== state.generation) return;
    if (!state.account) return signInPage();
  }
  const route = parseHash();
  if (route.id === 'welcome') return welcomePage();
  const page = PAGES.find((p) => p.id === route.id);
  if (!page) return navigate(`#/${HOME}`);
  const { heading, view } = frame(page.title, page.id);
  heading.focus();
  if (page.admin && !isAdmin(state.account)) {
    view.append(errorBox(new Error('This page is for administrators.')));
    return;
  }
  const ctx = { account: state.account, path: route.path, params: route.params, navigate,
    refresh: render, isAdmin: isAdmin(state.account) };
  try {
    const module = await import(`./page-${page.id}.js`);
    if (generation !== state.generation) return;
    const cleanup = await module.default.render(view, ctx);
    if (generation !== state.generation) {
      if (typeof cleanup === 'function') cleanup();
      return;
    }
    state.cleanup = cleanup;
  } catch (e) {
    if (generation !== state.generation) return;
    if (e.status === 401) {
      state.account = null;
      return signInPage(new ApiError(401, '', 'Your session ended: sign in again.'));
    }
    view.append(errorBox(e));
  }
}

window.addEventListener('hashchange', render);
render();
