// The peer for tests/bench/mcp.sh: the official TypeScript MCP SDK's Streamable HTTP server with
// the same tool the host serves (notes_get over an in-memory map, as the `test` profile's
// store-memory holds it), sessions on, JSON answers (enableJsonResponse) like the host's.
//   node mcp_node_server.mjs   -> prints "listening 127.0.0.1:<port>"
import http from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const notes = new Map([["bench", { title: "bench", text: "a note to read", created: "2026-01-01T00:00:00Z",
                                    updated: "2026-01-01T00:00:00Z" }]]);
const transports = new Map();

function serverForSession() {
  const server = new McpServer({ name: "node-peer", version: "1.0.0" });
  server.registerTool("notes_get", { description: "Read a note", inputSchema: { title: z.string().max(200) } },
    async ({ title }) => {
      const note = notes.get(title);
      if (!note) return { isError: true, content: [{ type: "text", text: `title: no note titled '${title}'` }] };
      return { content: [{ type: "text", text: JSON.stringify(note) }], structuredContent: note };
    });
  return server;
}

const httpServer = http.createServer(async (req, res) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  const message = body ? JSON.parse(body) : undefined;
  const sid = req.headers["mcp-session-id"];
  let transport = sid && transports.get(sid);
  if (!transport) {
    if (sid || message?.method !== "initialize") {
      res.writeHead(sid ? 404 : 400).end();
      return;
    }
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    await serverForSession().connect(transport);
  }
  await transport.handleRequest(req, res, message);
});
httpServer.keepAliveTimeout = 60000;
httpServer.listen(0, "127.0.0.1", () => console.log(`listening 127.0.0.1:${httpServer.address().port}`));
