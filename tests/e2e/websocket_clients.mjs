// WebSocket clients (npm `ws`) against a running host, for tests/integration/websocket_test.cpp.
//
//   node websocket_clients.mjs <scenario> <port> [arg]
//
// Each scenario prints one JSON line with what the clients saw; the C++ test asserts on it. No
// scenario waits a fixed time: each step waits for an event (open, a message, a close), and the
// whole run is bounded by a deadline that prints what was seen so far.
//   live      alice and bob join one room (the sse plugin's `room`, hold_ms 50, so its calls end
//             and are resumed all the time); bob says a message each time alice receives the
//             previous one, until alice has received one from a resumed call ("from" > 0) and two
//             more after it: {alice: [chunks], bob_replies: [replies]}
//   too_big   a message of arg bytes (over the limit): {close: code}
//   refused   a handshake that must fail, to the path in arg: {status, body}
//   origin    a cookie session with Origin arg (and a token client with the same Origin):
//             {cookie: {status} | {open: true}, token: {open: true} | {status}}
//   chat      the chat service: bob follows a public room, ann joins it and posts {message} over
//             her socket; once bob has it, ann and then bob send themselves a notification
//             (notify/send over HTTP) and bob's socket waits for one; then carol, no member, tries
//             the group room whose id is arg:
//             {bob: [chunks], ann_replies: [replies], notified: [statuses],
//              carol: {status, body} | {open: true}}
//   proxied   (a host with --handler web) a ws echo server of this script, registered as the node
//             of service `echo`, reached through the host at /echo/socket: sends "ping me",
//             {echo: text, upstream_path, close: code}
import WebSocket, { WebSocketServer } from 'ws';

const [scenario, port, arg] = process.argv.slice(2);
// WS_BASE (e.g. wss://127.0.0.1:<port>, trusted through NODE_EXTRA_CA_CERTS) replaces ws://.
const base = process.env.WS_BASE || `ws://127.0.0.1:${port}`;
const seen = {};
const done = (result) => {
  console.log(JSON.stringify(result));
  process.exit(0);
};
setTimeout(() => done({ timeout: true, ...seen }), 20000).unref();

// Opens a socket; resolves on open, or with the refused handshake's {status, body}. `onMessage`
// (text of each message) is attached before the handshake: the host sends the 101 with the
// stream's first chunk, often in one read, and `ws` delivers that message in the same tick as
// 'open', before an awaited connect() could attach a handler.
function connect(path, headers = {}, onMessage = null) {
  return new Promise((resolve) => {
    const ws = new WebSocket(base + path, { headers });
    if (onMessage) ws.on('message', (m) => onMessage(m.toString()));
    ws.on('open', () => resolve({ ws }));
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    ws.on('error', (e) => resolve({ error: e.message }));
  });
}

async function live() {
  const room = `/api/v1/sse/room?room=live-${process.pid}&hold_ms=50`;
  seen.bob_replies = [];
  const bob = await connect(room, { Authorization: 'Bearer bob' }, (m) => {
    const msg = JSON.parse(m);
    if (msg.reply || msg.error) seen.bob_replies.push(msg);
  });
  if (!bob.ws) return done({ bob });
  seen.alice = [];
  let after_resume = -1;
  const alice = await connect(room, { Authorization: 'Bearer alice' }, (m) => {
    const msg = JSON.parse(m);
    seen.alice.push(msg);
    if (after_resume < 0 && msg.from > 0) after_resume = 0;
    else if (after_resume >= 0) after_resume++;
    if (after_resume >= 2) return done(seen);
    bob.ws.send(JSON.stringify({ text: `message ${seen.alice.length + 1}` }));
  });
  if (!alice.ws) return done({ alice });
  bob.ws.send(JSON.stringify({ text: 'message 1' }));
}

async function tooBig() {
  const name = `big-${process.pid}`;
  // Something is said first (over plain HTTP), so alice's stream opens at once with it.
  const said = await fetch(`http://127.0.0.1:${port}/api/v1/sse/say`, {
    method: 'POST',
    headers: { Authorization: 'Bearer bob', 'Content-Type': 'application/json' },
    body: JSON.stringify({ room: name, text: 'hi' }),
  });
  if (said.status !== 200) return done({ say: said.status });
  const alice = await connect(`/api/v1/sse/room?room=${name}&hold_ms=2000`, {
    Authorization: 'Bearer alice',
  });
  if (!alice.ws) return done({ alice });
  alice.ws.on('close', (code) => done({ close: code }));
  alice.ws.send(JSON.stringify({ text: 'x'.repeat(Number(arg)) }));
}

async function refused() {
  const r = await connect(arg, { Authorization: 'Bearer alice' });
  if (r.ws) return done({ open: true });
  done(r);
}

async function origin() {
  const path = `/api/v1/sse/room?room=origin-${process.pid}&hold_ms=0`;
  const result = {};
  for (const [who, headers] of [
    ['cookie', { Cookie: 'platform_session=alice', Origin: arg }],
    ['token', { Authorization: 'Bearer alice', Origin: arg }],
  ]) {
    const r = await connect(path, headers);
    if (r.ws) r.ws.terminate();
    result[who] = r.ws ? { open: true } : r;
  }
  done(result);
}

async function proxied() {
  // A ws echo server of our own, registered (as admin) as the one node of service `echo`.
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.on('listening', resolve));
  server.on('connection', (ws, req) => {
    seen.upstream_path = req.url;
    ws.on('message', (m) => ws.send(`echo: ${m}`));
  });
  const registered = await fetch(`http://127.0.0.1:${port}/registry/register`, {
    method: 'POST',
    headers: { Authorization: 'Bearer admin', 'Content-Type': 'application/json' },
    body: JSON.stringify({
      service: {
        name: 'go.core.api.echo',
        endpoints: [],
        nodes: [{ id: 'echo-1', address: `127.0.0.1:${server.address().port}` }],
      },
    }),
  });
  if (registered.status !== 200) return done({ register: registered.status });
  const r = await connect('/echo/socket?x=1', {}, (m) => {
    seen.echo = m;
    r.ws.close(1000, 'done');
  });
  if (!r.ws) return done(r);
  r.ws.on('close', (code) => done({ ...seen, close: code }));
  r.ws.send('ping me');
}

async function chat() {
  const room = `/api/v1/chat/live?room=ws-${process.pid}`;
  seen.bob = [];
  seen.ann_replies = [];
  seen.notified = [];
  const notify = async (who, title) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/notify/send`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${who}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title, body: `from ${who}` }),
    });
    seen.notified.push(res.status);
  };
  const finish = async () => {
    const carol = await connect(`/api/v1/chat/live?room=${arg}`, { Authorization: 'Bearer carol' });
    if (carol.ws) carol.ws.terminate();
    done({ ...seen, carol: carol.ws ? { open: true } : carol });
  };
  const bob = await connect(room, { Authorization: 'Bearer bob' }, (m) => {
    const msg = JSON.parse(m);
    seen.bob.push(msg);
    if (msg.type === 'message') notify('ann', 'for ann').then(() => notify('bob', 'for bob'));
    if (msg.type === 'notification') finish();
  });
  if (!bob.ws) return done({ bob });
  const ann = await connect(room, { Authorization: 'Bearer ann' }, (m) => {
    const msg = JSON.parse(m);
    if (msg.reply || msg.error) seen.ann_replies.push(msg);
  });
  if (!ann.ws) return done({ ann });
  ann.ws.send(JSON.stringify({ message: 'hello over a socket' }));
}

const scenarios = { live, chat, too_big: tooBig, refused, origin, proxied };
if (!scenarios[scenario]) {
  console.error(`unknown scenario ${scenario}`);
  process.exit(2);
}
scenarios[scenario]();
