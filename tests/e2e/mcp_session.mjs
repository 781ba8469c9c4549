// A scripted MCP session with the official TypeScript SDK client (@modelcontextprotocol/sdk):
// initialize, tools/list, tools/call (notes_add, notes_get), a call with progress, resources/list
// and resources/read, then DELETE. Prints one JSON summary line on stdout for
// tests/integration/mcp_e2e_test.cpp to check; exit 1 with the error on stderr when a step throws.
//
//   node mcp_session.mjs <url of /mcp> <bearer token>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token] = process.argv.slice(2);
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: "platform-e2e-session", version: "1.0.0" });
const summary = {};
try {
  await client.connect(transport);
  summary.server = client.getServerVersion();
  summary.protocolVersion = transport.protocolVersion;
  summary.session = Boolean(transport.sessionId);

  summary.tools = [];
  for (let cursor; ; ) {  // every page (tools/list answers 100 at a time)
    const page = await client.listTools(cursor ? { cursor } : undefined);
    summary.tools.push(...page.tools.map((t) => t.name));
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }

  const title = "sdk note";
  const added = await client.callTool({ name: "notes_add", arguments: { title, text: "from the TypeScript SDK" } });
  summary.added = { isError: added.isError ?? false, structured: added.structuredContent };
  const got = await client.callTool({ name: "notes_get", arguments: { title } });
  summary.got = { isError: got.isError ?? false, structured: got.structuredContent, text: got.content?.[0]?.text };

  const progress = [];
  const slow = await client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, {
    onprogress: (p) => progress.push(p.progress),
  });
  summary.progress = progress;
  summary.progressResult = slow.content;

  summary.resources = (await client.listResources()).resources.map((r) => r.uri);
  summary.read = (await client.readResource({ uri: "notes://sdk%20note" })).contents;

  await transport.terminateSession();
  await client.close();
  console.log(JSON.stringify(summary));
} catch (e) {
  console.error(`mcp_session: ${e?.stack ?? e}`);
  console.error(`summary so far: ${JSON.stringify(summary)}`);
  process.exit(1);
}
