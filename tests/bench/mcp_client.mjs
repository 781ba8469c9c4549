// A minimal MCP client for tests/bench/mcp.sh: initialize, notifications/initialized, then
// CALLS tools/call requests with IN_FLIGHT outstanding at a time over keep-alive connections
// (undici's fetch), each answer checked (HTTP 200, a result without isError). Prints one JSON line:
//   {"calls","in_flight","seconds","calls_per_s","p50_ms","p99_ms","errors"}
//   node mcp_client.mjs URL TOKEN CALLS IN_FLIGHT TOOL ARGS_JSON
const [url, token, callsArg, inFlightArg, tool, argsJson] = process.argv.slice(2);
const calls = Number(callsArg), inFlight = Number(inFlightArg), args = JSON.parse(argsJson);
const base = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
if (token) base.Authorization = `Bearer ${token}`;

async function post(headers, message) {
  const r = await fetch(url, { method: "POST", headers: { ...base, ...headers }, body: JSON.stringify(message) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text };
}
function parse(text) {  // a JSON body, or the last `data:` line of an event stream
  if (text.startsWith("{")) return JSON.parse(text);
  const data = text.split("\n").filter((l) => l.startsWith("data: ")).pop();
  return JSON.parse(data.slice(6));
}

const init = await post({}, { jsonrpc: "2.0", id: 0, method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } } });
if (init.status !== 200) throw new Error(`initialize: HTTP ${init.status} ${init.text}`);
const session = { "Mcp-Session-Id": init.headers.get("mcp-session-id"), "MCP-Protocol-Version": "2025-11-25" };
await post(session, { jsonrpc: "2.0", method: "notifications/initialized" });

const latencies = [];
let errors = 0, next = 1;
async function worker() {
  while (next <= calls) {
    const id = next++;
    const t0 = performance.now();
    const r = await post(session, { jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: args } });
    latencies.push(performance.now() - t0);
    if (r.status !== 200 || parse(r.text).result?.isError !== undefined && parse(r.text).result.isError) errors++;
  }
}
const start = performance.now();
await Promise.all(Array.from({ length: inFlight }, worker));
const seconds = (performance.now() - start) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
console.log(JSON.stringify({ calls, in_flight: inFlight, seconds: +seconds.toFixed(3),
  calls_per_s: Math.round(calls / seconds), p50_ms: +pct(0.5).toFixed(2), p99_ms: +pct(0.99).toFixed(2), errors }));
