// The web console (/ui/) in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core; both installed by scripts/e2e-deps.sh), for
// tests/integration/console_browser_test.cpp.
//
//   node console.mjs '<config JSON>'
//     {base: "http://127.0.0.1:<port>", secret: "<the admin secret the host printed>",
//      new_secret?: "<when set, the first sign-in's offer is used to change to it; else skipped>",
//      flows: ["chat", "token", "explorer", "csrf", "pages", "signout"],   // any of them
//      artifacts: "<folder for the screenshots>", run?: "<name of the run, for failure shots>",
//      chat: {prompt, tool, reply},          // what the scripted model does: one tool, one reply
//      token_name, note: {title, text},      // the token made in Tokens, the note of the explorer
//      pages: ["chat", "inbox", ...]}        // the pages to screenshot and check
//
// Every run first opens /ui/ signed out (the sign-in page) and signs in as `admin` with the form,
// the way a person does; the first sign-in on a fresh instance offers to change the secret (used
// or skipped, see new_secret). Then each flow asked for, each in its own section of the output
// (an exception in one is its `error`, the others still run):
//   chat      in Chat, asks the agent; a MutationObserver in the page notes when the tool step and
//             when the reply first show; then reloads, opens the thread from the list again and
//             looks for the prompt and the reply
//   token     makes a token in Tokens (shown once), uses it with curl (a client outside the
//             browser) on GET /api/v1/notes/list, revokes it in the page, uses it again
//   explorer  in Services, opens notes/add, fills its generated form, tries it, then opens Notes
//   csrf      from the page's own fetch: a cookie POST without X-CSRF-Token, with a wrong one and
//             with the right one
//   pages     each page (and the chat's thread, after the chat flow) at 1280 and 390 px wide: a
//             full-page PNG in `artifacts` (<page>-<width>.png), the scroll width against the
//             window's, and axe-core (tests/e2e/node_modules/axe-core) run in the page: its
//             violations, those of impact serious or critical apart; then, at 390 px, the
//             navigation's "Menu" button opens it and its Notes link works (`phone_nav`)
//   signout   the Sign out button, then what /auth/me answers the browser
//
// Always: every answer the browser got for /ui, /ui/ and /ui/console/* with its
// Content-Security-Policy and X-Content-Type-Options headers (and, from node, GET /ui, a missing
// file, a name outside the rule, a POST), the console messages reporting a CSP violation, page
// errors.
//
// Prints one JSON line: {chromium, signed_out, redirect, login, chat?, reopen?, token?,
// explorer?, notes?, csrf?, pages?, phone_nav?, signout?, csp: [{path, status, csp, nosniff}],
// csp_violations: [text], pageerrors: [text], console: [text], dialogs: [text]}. Every wait is
// bounded; a run past the deadline prints what it has with `timeout: true`.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { chromium } from 'playwright-core';

import { launchChromium } from './chromium_launch.mjs';

const config = JSON.parse(process.argv[2]);
const base = config.base;
const flows = new Set(config.flows || []);
const wait = 20000;
const seen = { csp: [], csp_violations: [], pageerrors: [], console: [], dialogs: [] };
let printed = false;
const done = (extra) => {
  if (printed) return;
  printed = true;
  console.log(JSON.stringify({ ...seen, ...extra }));
  process.exit(0);
};
setTimeout(() => done({ timeout: true }), config.deadline_ms || 200000).unref();
const short = (e) => String((e && e.message) || e).split('\n')[0];
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// A section of the output: `fn` fills it; what it throws becomes its `error`.
async function section(name, fn) {
  const out = {};
  seen[name] = out;
  try {
    await fn(out);
  } catch (e) {
    out.error = short(e);
    // What the page showed then, beside the other screenshots.
    if (pageForErrors && config.artifacts) {
      mkdirSync(config.artifacts, { recursive: true });
      out.screenshot = `${config.artifacts}/${failedPrefix}${name}.png`;
      await pageForErrors.screenshot({ path: out.screenshot, fullPage: true }).catch(() => {});
      out.main_text = await pageForErrors.locator('main').innerText().then((t) => t.slice(0, 600))
        .catch(() => null);
    }
  }
  return out;
}
let pageForErrors = null;
// A failed section's screenshot: <run>-failed-<section>.png; those of an earlier run go first.
const failedPrefix = `${config.run || 'console'}-failed-`;
if (config.artifacts && existsSync(config.artifacts)) {
  for (const f of readdirSync(config.artifacts)) {
    if (f.startsWith(failedPrefix)) unlinkSync(`${config.artifacts}/${f}`);
  }
}

// curl (a client that is not the browser) with `token` on GET `path`: the status.
function curlStatus(path, token) {
  return new Promise((resolve) => {
    execFile('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-m', '10',
      '-H', `Authorization: Bearer ${token}`, base + path], (err, stdout) => {
      resolve(err && !stdout ? { error: short(err) } : Number(stdout));
    });
  });
}

const browser = await launchChromium(chromium);
seen.chromium = browser.version();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(wait);
  pageForErrors = page;
  page.on('console', (m) => {
    const text = `${m.type()}: ${m.text()}`;
    if (/Content Security Policy/i.test(text)) seen.csp_violations.push(text);
    if (seen.console.length < 200) seen.console.push(text);
  });
  page.on('pageerror', (e) => seen.pageerrors.push(short(e)));
  // window.confirm of destructive actions (revoke): accepted, and noted.
  page.on('dialog', (d) => {
    seen.dialogs.push(`${d.type()}: ${d.message()}`);
    d.accept().catch(() => {});
  });
  // Every console answer, with its CSP header (each path, status and header once).
  const cspSeen = new Set();
  const origin = new URL(base).origin;
  context.on('response', (r) => {
    const u = new URL(r.url());
    if (u.origin !== origin) return;
    if (u.pathname === '/ui' || u.pathname === '/ui/' || u.pathname.startsWith('/ui/console/')) {
      const answer = { path: u.pathname, status: r.status(),
        csp: r.headers()['content-security-policy'] ?? null,
        nosniff: r.headers()['x-content-type-options'] ?? null };
      const key = JSON.stringify(answer);
      if (!cspSeen.has(key)) seen.csp.push(answer);
      cspSeen.add(key);
    }
  });
  // Requests in flight (not streams, not sockets): a page has settled when none is left.
  let inflight = 0, lastChange = Date.now();
  const streaming = (r) => r.resourceType() === 'eventsource' ||
    /text\/event-stream/.test(r.headers().accept || '');
  context.on('request', (r) => { if (!streaming(r)) { inflight++; lastChange = Date.now(); } });
  const finished = (r) => { if (!streaming(r)) { inflight--; lastChange = Date.now(); } };
  context.on('requestfinished', finished);
  context.on('requestfailed', finished);
  const settle = async () => {
    const until = Date.now() + 8000;
    for (;;) {
      const busy = await page.locator('main [aria-busy="true"]').count().catch(() => 0);
      const quiet = inflight <= 0 && busy === 0 && Date.now() - lastChange > 300;
      if (quiet || Date.now() > until) break;
      await page.waitForTimeout(100);
    }
  };
  const heading = () => page.locator('main h1').first();
  // Opens #/<id> and waits for the shell's heading `title` and for the page's requests.
  const open = async (id, title) => {
    await page.goto(`${base}/ui/#/${id}`);
    await page.locator('main h1', { hasText: title }).first().waitFor();
    await settle();
  };
  const main = page.locator('main');

  // The console signed out: the sign-in page, with the policy.
  await section('signed_out', async (out) => {
    const answer = await page.goto(base + '/ui/');
    out.status = answer.status();
    out.content_type = answer.headers()['content-type'] ?? null;
    out.csp = answer.headers()['content-security-policy'] ?? null;
    await page.getByLabel('Secret', { exact: true }).waitFor();
    out.heading = await heading().textContent();
    out.account_field = await page.getByLabel('Account', { exact: true }).count();
    out.secret_field = await page.getByLabel('Secret', { exact: true }).count();
    out.sign_in_button = await page.getByRole('button', { name: 'Sign in' }).count();
    out.alerts = await main.getByRole('alert').allTextContents();
  });
  await section('redirect', async (out) => {
    const r = await fetch(base + '/ui', { redirect: 'manual' });
    out.status = r.status;
    out.location = r.headers.get('location');
    out.csp = r.headers.get('content-security-policy');
    // Answers no page asks for: a file that is not there, a name outside the rule, a POST.
    out.probes = [];
    for (const [method, path] of [['GET', '/ui/console/no-such-page.js'],
      ['GET', '/ui/console/Upper.js'], ['POST', '/ui/']]) {
      const p = await fetch(base + path, { method, redirect: 'manual' });
      out.probes.push({ method, path, status: p.status,
        csp: p.headers.get('content-security-policy') });
    }
  });

  // Sign in with the form; the first sign-in offers a new secret.
  await section('login', async (out) => {
    await page.getByLabel('Account', { exact: true }).fill('admin');
    await page.getByLabel('Secret', { exact: true }).fill(config.secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const offer = page.getByLabel('New secret', { exact: true });
    const nav = page.getByRole('navigation');
    await offer.or(nav).first().waitFor();
    out.offer_shown = await offer.isVisible();
    out.offer_heading = await heading().textContent();
    if (out.offer_shown) {
      out.offer_text = (await main.innerText()).slice(0, 400);
      if (config.new_secret) {
        await offer.fill(config.new_secret);
        await page.getByLabel('Repeat the new secret').fill(config.new_secret);
        await page.getByRole('button', { name: 'Change secret' }).click();
        out.used = true;
      } else {
        await page.getByRole('button', { name: 'Not now' }).click();
        out.skipped = true;
      }
      await offer.waitFor({ state: 'detached' });
    }
    await nav.waitFor();
    out.heading = await heading().textContent();
    out.hash = await page.evaluate(() => location.hash);
    out.links = await nav.getByRole('link').allTextContents();
    out.signed_in_as = await page.locator('header').innerText().catch(() => null);
  });

  // Without a session, no flow can run: each says so at once instead of waiting out its waits.
  if (seen.login.error) {
    for (const f of flows) seen[f] = { error: 'not signed in' };
    flows.clear();
  }

  if (flows.has('chat')) {
    // The chat page's names: the select "Agent", the textarea "Message", the button "Send", the
    // logs "Tool steps" and "Messages", the status "Reply status", the list "Conversations".
    const log = (name) => main.getByRole('log', { name, exact: true });
    await section('chat', async (out) => {
      await open('chat', 'Chat');
      const { prompt, tool, reply } = config.chat;
      // When a step with the tool and the reply first show in their logs, in order.
      await page.evaluate(({ tool, reply }) => {
        const t0 = performance.now();
        window.__consoleSeen = [];
        const text = (name) =>
          document.querySelector(`[role="log"][aria-label="${name}"]`)?.textContent || '';
        const check = () => {
          const now = { step: text('Tool steps').includes(tool),
            reply: text('Messages').includes(reply) };
          for (const what of ['step', 'reply']) {
            if (now[what] && !window.__consoleSeen.some((s) => s.what === what))
              window.__consoleSeen.push({ what, ms: Math.round(performance.now() - t0) });
          }
        };
        new MutationObserver(check).observe(document.querySelector('main'),
          { subtree: true, childList: true, characterData: true });
      }, { tool, reply });
      const picker = main.getByLabel('Agent', { exact: true });
      out.agents = await picker.locator('option').allTextContents();
      await main.getByLabel('Message', { exact: true }).fill(prompt);
      await main.getByRole('button', { name: 'Send' }).click();
      const step = log('Tool steps').getByRole('listitem').filter({ hasText: tool }).first();
      await step.waitFor();
      out.step_text = (await step.innerText()).replace(/\s+/g, ' ').trim().slice(0, 200);
      await log('Messages').getByText(reply).waitFor();
      out.seen = await page.evaluate(() => window.__consoleSeen);
      out.status = await main.getByRole('status', { name: 'Reply status' }).textContent();
      out.live_regions = await main.locator('[aria-live], [role="status"], [role="log"]').count();
      out.hash = await page.evaluate(() => location.hash);
    });
    await section('reopen', async (out) => {
      const { prompt, reply } = config.chat;
      await page.goto(base + '/ui/#/chat');
      await page.reload();
      await page.locator('main h1', { hasText: 'Chat' }).first().waitFor();
      await settle();
      // The thread, from the conversation list: named by the prompt, or showing the reply.
      const words = escape(prompt.split(' ').slice(0, 3).join(' '));
      const entry = main.getByRole('list', { name: 'Conversations' }).getByRole('listitem')
        .filter({ hasText: new RegExp(`${words}|${escape(reply)}`, 'i') }).first();
      await entry.waitFor();
      out.entry = (await entry.innerText()).replace(/\s+/g, ' ').trim().slice(0, 200);
      await entry.getByRole('link').first().click();
      await log('Messages').getByText(reply).waitFor();
      out.reply_seen = true;
      out.prompt_seen = await log('Messages').getByText(prompt).count() > 0;
      out.hash = await page.evaluate(() => location.hash);
    });
  }

  if (flows.has('token')) {
    await section('token', async (out) => {
      await open('tokens', 'Tokens');
      await main.getByLabel('Name', { exact: true }).fill(config.token_name);
      await main.getByRole('button', { name: 'Create token' }).click();
      // Shown once, in a read-only field.
      const shown = main.getByLabel('New token', { exact: true });
      await shown.waitFor();
      const token = await shown.inputValue();
      out.token_length = token.length;
      out.before = await curlStatus('/api/v1/notes/list', token);
      // Revoke it in its row of the list (the page asks to confirm in the row).
      const row = main.getByRole('listitem').filter({ hasText: config.token_name });
      await row.getByRole('button', { name: `Revoke ${config.token_name}` }).click();
      await row.getByRole('button', { name: 'Confirm' }).click();
      await row.waitFor({ state: 'detached' });
      out.status = await main.getByRole('status').first().textContent();
      out.after = await curlStatus('/api/v1/notes/list', token);
      await page.reload();
      await page.locator('main h1', { hasText: 'Tokens' }).first().waitFor();
      await settle();
      out.shown_after_reload = (await main.innerText()).includes(token) ||
        await main.getByLabel('New token', { exact: true }).count() > 0;
    });
  }

  if (flows.has('explorer')) {
    await section('explorer', async (out) => {
      await open('services', 'Services');
      const { title, text } = config.note;
      // notes, then add, from the lists of services and methods.
      await main.getByRole('navigation', { name: 'Services' })
        .getByRole('link', { name: 'notes', exact: true }).click();
      await main.getByRole('link', { name: 'add', exact: true }).click();
      await main.getByRole('heading', { name: 'notes/add' }).waitFor();
      out.hash = await page.evaluate(() => location.hash);
      await main.getByLabel(/^title/).fill(title);
      await main.getByLabel(/^text/).fill(text);
      await main.getByRole('button', { name: 'Try it' }).click();
      const answer = main.getByRole('region', { name: 'Answer' });
      await answer.getByText(title).first().waitFor();
      out.answer = (await answer.innerText()).slice(0, 1000);
      const snippet = async (id) => (await main.locator(`#snippet-${id}`).textContent()) || '';
      const [curl, cli, mcp] = [await snippet('curl'), await snippet('cli'), await snippet('mcp')];
      out.commands = { curl, cli, mcp };
      out.snippets = {
        curl: /^curl /.test(curl) && curl.includes('/api/v1/notes/add') && curl.includes(title),
        cli: /^platform notes add /.test(cli) && cli.includes(title),
        mcp: mcp.includes('notes_add') && mcp.includes(base + '/mcp'),
      };
    });
    await section('notes', async (out) => {
      await open('notes', 'Notes');
      await main.getByRole('link', { name: config.note.title }).waitFor();
      out.note_shown = true;
    });
  }

  if (flows.has('csrf')) {
    await section('csrf', async (out) => {
      await open('notes', 'Notes');
      Object.assign(out, await page.evaluate(async () => {
        const post = async (title, header) => {
          const headers = { 'Content-Type': 'application/json' };
          if (header !== undefined) headers['X-CSRF-Token'] = header;
          const r = await fetch('/api/v1/notes/add', { method: 'POST', credentials: 'same-origin',
            headers, body: JSON.stringify({ title, text: 'from the page' }) });
          return { status: r.status, body: (await r.text()).slice(0, 300) };
        };
        const csrf = decodeURIComponent((document.cookie.split('; ')
          .find((c) => c.startsWith('platform_csrf=')) || '=').split('=')[1]);
        return {
          csrf_cookie: csrf.length,
          without: await post('csrf probe without', undefined),
          wrong: await post('csrf probe wrong', 'not-the-token'),
          with: await post('csrf probe with', csrf),
        };
      }));
    });
  }

  if (flows.has('pages')) {
    const axeSource = readFileSync(
      new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
    mkdirSync(config.artifacts, { recursive: true });
    seen.pages = {};
    // Each page by its id (its title is the id capitalised), and the agent's thread when the chat
    // flow ran (`chat-thread`).
    const shown = config.pages.map((id) =>
      ({ id, hash: id, title: id[0].toUpperCase() + id.slice(1) }));
    if (seen.chat && seen.chat.hash) {
      shown.push({ id: 'chat-thread', hash: seen.chat.hash.replace(/^#\//, ''), title: 'Chat' });
    }
    for (const { id, hash, title } of shown) {
      const out = {};
      seen.pages[id] = out;
      try {
        await page.setViewportSize({ width: 1280, height: 800 });
        await open(hash, title);
        out.heading = await heading().textContent();
        out.alerts = await main.getByRole('alert').allTextContents();
        out.desktop = `${config.artifacts}/${id}-1280.png`;
        await page.screenshot({ path: out.desktop, fullPage: true });
        // axe-core in the page. The console's CSP (script-src 'self') refuses an inline <script>,
        // so page.addScriptTag({content}) is blocked; the source is evaluated through the
        // DevTools protocol instead, which the page's policy does not govern (no bypassCSP).
        await page.evaluate(axeSource);
        const axe = await page.evaluate(async () => {
          const r = await window.axe.run(document, { resultTypes: ['violations'] });
          return {
            rules: r.violations.length + r.passes.length,
            violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
              targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })),
          };
        });
        out.axe_rules = axe.rules;
        out.axe_violations = axe.violations;
        out.axe_serious = axe.violations.filter((v) =>
          v.impact === 'serious' || v.impact === 'critical');
        await page.setViewportSize({ width: 390, height: 844 });
        await settle();
        out.phone = `${config.artifacts}/${id}-390.png`;
        await page.screenshot({ path: out.phone, fullPage: true });
        Object.assign(out, await page.evaluate(() => ({
          scroll_width: document.scrollingElement.scrollWidth, inner_width: window.innerWidth })));
      } catch (e) {
        out.error = short(e);
      }
    }
    // At phone width the navigation folds behind "Menu": it opens, and a link in it works.
    const nav = {};
    seen.phone_nav = nav;
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await open('chat', 'Chat');
      const console_ = page.getByRole('navigation', { name: 'Console' });
      const menu = console_.getByRole('button', { name: 'Menu' });
      nav.notes_visible_before = await console_.getByRole('link', { name: 'Notes' }).isVisible();
      await menu.click();
      nav.expanded = await menu.getAttribute('aria-expanded');
      await console_.getByRole('link', { name: 'Notes' }).click();
      await page.locator('main h1', { hasText: 'Notes' }).waitFor();
      nav.hash = await page.evaluate(() => location.hash);
    } catch (e) {
      nav.error = short(e);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  if (flows.has('signout')) {
    await section('signout', async (out) => {
      await open('notes', 'Notes');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Secret', { exact: true }).waitFor();
      out.heading = await heading().textContent();
      out.me = await page.evaluate(async () => (await fetch('/auth/me')).status);
      out.cookie = await page.evaluate(() => document.cookie);
    });
  }
  await context.close();
} catch (e) {
  seen.error = short(e);
}
await browser.close();
done({});
