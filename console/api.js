// The console's only way to the server: the public HTTP API, signed in with the session cookie.
// Writes carry X-CSRF-Token (the value of the script-readable platform_csrf cookie); the session
// cookie itself is HttpOnly and never seen here.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || `request failed (${status})`);
    this.status = status;
    this.code = code || '';
  }
}

export function cookie(name) {
  const found = document.cookie.split('; ').find((c) => c.startsWith(name + '='));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : '';
}

function headers(extra = {}) {
  return { 'X-CSRF-Token': cookie('platform_csrf'), ...extra };
}

// The answer of a call: `data` on success; an ApiError naming the server's message otherwise
// (the /api/v1 envelope {"error": {code, message}}, the gateway's {Detail}, or the status).
async function answer(response, envelope = true) {
  const text = await response.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = null; }
  if (response.ok) return envelope && body && 'data' in body ? body.data : body;
  const error = body && body.error;
  const message = (error && error.message) || (body && body.Detail) || text.trim() ||
    `${response.status} ${response.statusText}`;
  throw new ApiError(response.status, error && error.code, message);
}

function path(service, method) {
  return `/api/v1/${encodeURIComponent(service)}/${encodeURIComponent(method)}`;
}

function query(args) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(args || {})) {
    if (v === undefined || v === null || v === '') continue;
    q.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const s = q.toString();
  return s ? '?' + s : '';
}

// POST /api/v1/<service>/<method> with a JSON body.
export async function call(service, method, args = {}) {
  return answer(await fetch(path(service, method), {
    method: 'POST', credentials: 'same-origin', cache: 'no-store',
    headers: headers({ 'Content-Type': 'application/json', Accept: 'application/json' }),
    body: JSON.stringify(args),
  }));
}

// GET /api/v1/<service>/<method>?<args>.
export async function get(service, method, args = {}) {
  return answer(await fetch(path(service, method) + query(args), {
    credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' },
  }));
}

// The path of a built-in service's method: ("runtime", "plugins") -> /runtime/plugins; a dotted
// relative name "a.b" is /a/b.
export function builtinPath(service, method) {
  return '/' + service.split('.').map(encodeURIComponent).join('/') + '/' +
    encodeURIComponent(method);
}

// A built-in service outside the catalogue (auth, registry, runtime, config...) through the
// gateway's micro-style route: POST /<service>/<method> with a JSON body; the answer as it is.
export async function rpc(service, method, args = {}) {
  return answer(await fetch(builtinPath(service, method), {
    method: 'POST', credentials: 'same-origin', cache: 'no-store',
    headers: headers({ 'Content-Type': 'application/json', Accept: 'application/json' }),
    body: JSON.stringify(args),
  }), false);
}

// Any same-origin URL (the short paths /agent, /work, /metrics): the response as text.
export async function raw(url, init = {}) {
  const response = await fetch(url, { credentials: 'same-origin', cache: 'no-store', ...init,
    headers: headers(init.headers || {}) });
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, '', text.trim() || response.statusText);
  return text;
}

// A streaming method over Server-Sent Events: onChunk(object) per `data:` frame; resolves when the
// stream ends; an `event: error` frame (a failure after the stream began) rejects. An ordinary
// answer (a failure, or a surface that does not stream) is given as one chunk.
export async function stream(service, method, args, onChunk, { signal, verb = 'POST' } = {}) {
  let url = path(service, method);
  if (verb === 'GET') url += query(args);
  return readEvents(url, verb === 'GET' ? undefined : args, onChunk, signal, true);
}

// The same for a built-in service's streaming method (POST /<service>/<method>: runtime/logs).
export async function rpcStream(service, method, args, onChunk, { signal } = {}) {
  return readEvents(builtinPath(service, method), args, onChunk, signal, false);
}

async function readEvents(url, args, onChunk, signal, envelope) {
  const init = { method: args === undefined ? 'GET' : 'POST', credentials: 'same-origin',
    cache: 'no-store', signal,
    headers: headers({ Accept: 'text/event-stream', 'Content-Type': 'application/json' }) };
  if (args !== undefined) init.body = JSON.stringify(args || {});
  const response = await fetch(url, init);
  if (!response.ok || !(response.headers.get('content-type') || '').startsWith('text/event-stream')) {
    const data = await answer(response, envelope);
    if (data !== undefined && data !== null) onChunk(data);
    return;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (!data.length) continue;
      let chunk;
      try { chunk = JSON.parse(data.join('\n')); } catch { continue; }
      if (event === 'error') {
        const e = chunk.error || chunk;
        throw new ApiError(e.status || 500, e.code, e.message || e.Detail || 'the stream failed');
      }
      onChunk(chunk);
    }
  }
}

// A streaming method over a WebSocket (same origin, the session cookie): each text message is
// parsed and given to onMessage; send() on the socket passes input when the method takes it.
export function socket(service, method, args, onMessage) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(`${scheme}//${location.host}${path(service, method)}${query(args)}`);
  ws.addEventListener('message', (ev) => {
    try { onMessage(JSON.parse(ev.data)); } catch { /* not JSON: ignored */ }
  });
  return ws;
}

// Sign in with the session cookie; the account on success.
export async function login(name, secret) {
  const response = await fetch('/auth/login', {
    method: 'POST', credentials: 'same-origin', cache: 'no-store',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ name, secret }),
  });
  const body = await answer(response, false);
  return body && body.account;
}

export async function logout() {
  await fetch('/auth/logout', { method: 'POST', credentials: 'same-origin', headers: headers() });
}

// The signed-in account, or null when signed out (or the session ended).
export async function me() {
  try {
    const data = await rpc('auth', 'me');
    return (data && data.account) || null;
  } catch (e) {
    if (e.status === 401 || e.status === 403) return null;
    throw e;
  }
}
