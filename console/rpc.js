// rpc.js — what the operator pages need of the built-in services (auth, runtime, registry, ...)
// beyond api.js's rpc(): their paths (POST /<service>/<method>, outside the /api/v1 catalogue)
// and a streaming call to one (runtime/logs with follow), read as Server-Sent Events.
import { ApiError, cookie } from './api.js';

// The path of a built-in's method: "runtime", "plugins" → /runtime/plugins (a dotted relative
// name "a.b" is /a/b).
export function builtinPath(service, method) {
  return '/' + service.split('.').join('/') + '/' + method;
}

function failure(status, text) {
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = null; }
  const error = body && body.error;
  const message = (error && error.message) || (body && body.Detail) || (text || '').trim() ||
    `request failed (${status})`;
  return new ApiError(status, error && error.code, message);
}

// POST /<service>/<method> with Accept: text/event-stream: onChunk(object) per `data:` frame; an
// `event: error` frame rejects; an ordinary answer (nothing streamed) is one chunk. Resolves when
// the stream ends; abort with options.signal.
export async function rpcStream(service, method, args, onChunk, { signal } = {}) {
  const res = await fetch(builtinPath(service, method), {
    method: 'POST',
    credentials: 'same-origin',
    cache: 'no-store',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'text/event-stream',
      'X-CSRF-Token': cookie('platform_csrf'),
    },
    body: JSON.stringify(args || {}),
    signal,
  });
  if (!res.ok) throw failure(res.status, await res.text());
  if (!(res.headers.get('content-type') || '').startsWith('text/event-stream')) {
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
      let object;
      try { object = JSON.parse(data.join('\n')); } catch { continue; }
      if (event === 'error') throw new ApiError(500, object.code, object.message || 'the stream failed');
      onChunk(object);
    }
  }
}
