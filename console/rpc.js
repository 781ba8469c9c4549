// rpc.js — calls to the host's built-in services (auth, runtime, registry, ...), which the
// catalogue (/api/v1/<service>/<method>, api.js) does not serve: they answer at
// POST /<service>/<method> on the same port, with the same session cookie and X-CSRF-Token, and
// their errors are {Id, Code, Detail, Status}. Used by the services, tokens, admin and runtime
// pages.

// An error with the server's message (Detail), as api.js's ApiError has.
export class RpcError extends Error {
  constructor(status, code, message) {
    super(message || `HTTP ${status}`);
    this.name = 'RpcError';
    this.status = status;
    this.code = code;
  }
}

function csrfToken() {
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === 'platform_csrf') return decodeURIComponent(v.join('='));
  }
  return '';
}

function headers(accept) {
  return {
    'Content-Type': 'application/json',
    Accept: accept,
    'X-CSRF-Token': csrfToken(),
  };
}

function errorOf(status, text) {
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  if (body && typeof body === 'object') {
    if (body.error && typeof body.error === 'object')
      return new RpcError(status, body.error.code || String(status), body.error.message);
    if (typeof body.Detail === 'string')
      return new RpcError(status, String(body.Status || status).toLowerCase(), body.Detail);
  }
  return new RpcError(status, String(status), text || `HTTP ${status}`);
}

// The path of a built-in's method: "runtime", "plugins" → /runtime/plugins (a dotted relative
// name "a.b" is /a/b).
export function builtinPath(service, method) {
  return '/' + service.split('.').join('/') + '/' + method;
}

// POST /<service>/<method> with `args` as JSON; resolves to the result object.
export async function rpc(service, method, args = {}) {
  const res = await fetch(builtinPath(service, method), {
    method: 'POST',
    credentials: 'same-origin',
    headers: headers('application/json'),
    body: JSON.stringify(args),
  });
  const text = await res.text();
  if (!res.ok) throw errorOf(res.status, text);
  return text ? JSON.parse(text) : {};
}

// A streaming built-in method (runtime/logs with follow): Server-Sent Events, onChunk(object)
// per `data:` frame; an `event: error` frame rejects. Resolves when the stream ends; abort with
// options.signal.
export async function rpcStream(service, method, args, onChunk, { signal } = {}) {
  const res = await fetch(builtinPath(service, method), {
    method: 'POST',
    credentials: 'same-origin',
    headers: headers('text/event-stream'),
    body: JSON.stringify(args),
    signal,
  });
  if (!res.ok) throw errorOf(res.status, await res.text());
  if (!(res.headers.get('content-type') || '').includes('text/event-stream')) {
    // Answered at once (nothing streamed): the whole result as one chunk.
    const text = await res.text();
    if (text) onChunk(JSON.parse(text));
    return;
  }
  const reader = res.body.getReader();
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
      let event = '';
      const data = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (!data.length) continue;
      const object = JSON.parse(data.join('\n'));
      if (event === 'error') throw new RpcError(0, object.code || 'error', object.message);
      onChunk(object);
    }
  }
}
