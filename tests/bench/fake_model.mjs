// A scripted OpenAI-compatible model on loopback, for the agent scenario of tests/bench/run. No
// packages: node:http only. POST <anything>/chat/completions answers, from the request alone (no
// state, so any number of asks may run at once):
//   - when the last message is not a tool result: one tool call, TOOL with ARGS_JSON (default
//     notes_list {}), finish_reason "tool_calls";
//   - when it is a tool result (role "tool"): the text "done", finish_reason "stop".
// So every agent ask is two completions and one tool call through the host's dispatcher. A request
// that offers no tool named TOOL is answered with the text "no tool TOOL" (the bench then sees the
// wrong text and says so). Any other path: 404.
//   node fake_model.mjs [TOOL [ARGS_JSON]]   -> prints "listening 127.0.0.1:<port>"
import http from "node:http";

const tool = process.argv[2] || "notes_list";
const args = process.argv[3] || "{}";
let served = 0;

function completion(message, finish) {
  return JSON.stringify({
    id: `chatcmpl-bench-${++served}`, object: "chat.completion", created: 1767225600, model: "bench-fake",
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
}

function answer(request) {
  const messages = Array.isArray(request.messages) ? request.messages : [];
  const last = messages[messages.length - 1] || {};
  if (last.role === "tool") return completion({ role: "assistant", content: "done" }, "stop");
  const offered = (request.tools || []).some((t) => t?.function?.name === tool);
  if (!offered) return completion({ role: "assistant", content: `no tool ${tool}` }, "stop");
  return completion({ role: "assistant", content: null, tool_calls: [
    { id: `call_${served + 1}`, type: "function", function: { name: tool, arguments: args } }] }, "tool_calls");
}

const server = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => { body += chunk; });
  req.on("end", () => {
    if (req.method !== "POST" || !req.url.split("?")[0].endsWith("/chat/completions")) {
      res.writeHead(404, { "Content-Type": "application/json" }).end('{"error":{"message":"not found"}}');
      return;
    }
    let text;
    try {
      text = answer(JSON.parse(body));
    } catch (e) {
      res.writeHead(400, { "Content-Type": "application/json" })
        .end(JSON.stringify({ error: { message: `fake model: ${e.message}`, type: "invalid_request_error" } }));
      return;
    }
    res.writeHead(200, { "Content-Type": "application/json" }).end(text);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => console.log(`listening 127.0.0.1:${server.address().port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
