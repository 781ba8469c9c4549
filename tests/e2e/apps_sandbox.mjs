// Opens apps in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core; both
// installed by scripts/e2e-deps.sh), for tests/integration/apps_browser_test.cpp.
//
//   node apps_sandbox.mjs '<config JSON>'
//     {base: "http://127.0.0.1:<port>", id, secret,
//      apps: {<name>: <slug>, ...}, waits: {<name>: <number field of the result>}}
//
// Signs in the way the console does — the page's own fetch of POST /auth/login, so the browser
// keeps the session cookie (HttpOnly) and the CSRF cookie the answer sets — then opens each app at
// /ui/apps/<slug> and waits for its document (the sandboxed frame) to mark its result element
// `#result` with data-done. For an app named in `waits`, it then waits until the result's
// `violations` list is as long as the result's field of that name (the CSP reports of what the app
// tried; they come asynchronously). Requests to example.com are answered by a route of this script
// with 200, so one that left the page would succeed and be counted: nothing but the browser's own
// policy stops them.
//
// Prints one JSON line: {chromium, login: {status, body}, cookies: {session, csrf}, wrapper_cookie,
// apps: {<name>: {status, wrapper_csp, view, frame_url, result, violations_wait?} |
// {error, partial}},
// requests: [{url, failure | status} for each request outside base], example_hits: [urls],
// console: [texts]}. Every wait is bounded; a run past the deadline prints what it has with
// `timeout: true`.
import { chromium } from 'playwright-core';

import { launchChromium } from './chromium_launch.mjs';

const config = JSON.parse(process.argv[2]);
const wait = 30000;
const seen = { apps: {}, requests: [], example_hits: [], console: [] };
const done = (extra) => {
  console.log(JSON.stringify({ ...seen, ...extra }));
  process.exit(0);
};
setTimeout(() => done({ timeout: true }), 100000).unref();

const browser = await launchChromium(chromium);
seen.chromium = browser.version();
try {
  const context = await browser.newContext();
  // Requests for anywhere but the host: Chromium reports those its policy blocked too, failed with
  // the error text "csp"; one that got an answer is listed with its status.
  const outside = new Map();
  const note = (r, what) => {
    if (r.url().startsWith(config.base + '/')) return;
    if (!outside.has(r)) seen.requests.push(outside.set(r, { url: r.url() }).get(r));
    Object.assign(outside.get(r), what);
  };
  context.on('request', (r) => note(r, {}));
  context.on('requestfailed', (r) => note(r, { failure: r.failure()?.errorText ?? 'failed' }));
  context.on('response', (r) => note(r.request(), { status: r.status() }));
  await context.route(/^(https?|wss?):\/\/example\.com(\/|$)/, (route) => {
    seen.example_hits.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/plain', body: 'reached example.com' });
  });
  const page = await context.newPage();
  page.on('console', (m) => seen.console.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => seen.console.push(`pageerror: ${e.message}`));

  // Sign in from a page of the host, as the console's login does.
  await page.goto(config.base + '/health');
  seen.login = await page.evaluate(async ({ id, secret }) => {
    const r = await fetch('/auth/login', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id, secret }),
    });
    return { status: r.status, body: await r.text() };
  }, { id: config.id, secret: config.secret });
  const cookies = await context.cookies(config.base);
  seen.cookies = {
    session: cookies.find((c) => c.name === 'platform_session')?.value ?? null,
    csrf: cookies.find((c) => c.name === 'platform_csrf')?.value ?? null,
  };

  for (const [name, slug] of Object.entries(config.apps)) {
    const app = {};
    seen.apps[name] = app;
    try {
      const answer = await page.goto(`${config.base}/ui/apps/${slug}`);
      app.status = answer.status();
      app.wrapper_csp = answer.headers()['content-security-policy'] ?? null;
      // What the console's own page (the wrapper, same origin as the console) can read, and the
      // page's view token (which only the wrapper's script may read).
      seen.wrapper_cookie = await page.evaluate(() => document.cookie);
      app.view = await page.evaluate(() => document.getElementById('app').getAttribute('data-view'));
      await page.frameLocator('#app').locator('#result[data-done]').waitFor({ state: 'attached', timeout: wait });
      const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().endsWith(`/ui/apps/${slug}/frame`));
      app.frame_url = frame.url();
      const field = config.waits?.[name];
      if (field) {
        try {
          await frame.waitForFunction((f) => {
            const r = JSON.parse(document.getElementById('result').textContent);
            return r.violations.length >= r[f];
          }, field, { timeout: 5000 });
        } catch (e) {
          app.violations_wait = 'timeout';
        }
      }
      app.result = JSON.parse(await frame.evaluate(() => document.getElementById('result').textContent));
    } catch (e) {
      app.error = String(e && e.message || e).split('\n')[0];
      const frame = page.frames().find((f) => f.url().endsWith(`/ui/apps/${slug}/frame`));
      app.partial = await frame?.evaluate(() => document.getElementById('result')?.textContent).catch(() => null);
    }
  }
  await context.close();
} catch (e) {
  seen.error = String(e && e.message || e).split('\n')[0];
}
await browser.close();
done({});
