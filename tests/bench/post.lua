-- post.lua — wrk script for tests/bench/run: POST one JSON body per request and check every answer.
--
--   wrk -t1 -c8 -d5s --latency -s post.lua URL -- BODY [EXPECT]
--
-- BODY is sent with `Content-Type: application/json` (other headers with wrk's -H: the bearer
-- token, Mcp-Session-Id, ...). Every `@ID@` in BODY becomes a number unique to the request (thread
-- number × 10^9 + the thread's count), so JSON-RPC ids and titles never repeat. EXPECT, when given,
-- is a plain string each answer's body must contain; an answer that is not 200 or lacks it is
-- counted as a mismatch. done() prints one line tests/bench/run reads:
--     post checked=N mismatched=M first_mismatch=STATUS BODY-PREFIX
-- The check runs on every answer (so an MCP client here is a checking client, like mcp_client.mjs);
-- its cost is the same against every server, the constant one included.
local threads = {}
local counter = 1

function setup(thread)
    thread:set("tid", counter)
    counter = counter + 1
    table.insert(threads, thread)
end

function init(args)
    body = args[1] or error("post.lua: the body is the first argument after --")
    expect = args[2]
    if expect == "" then expect = nil end
    dynamic = body:find("@ID@", 1, true) ~= nil
    n = 0
    checked = 0
    mismatched = 0
    first_mismatch = ""
    -- wrk.format with a headers table sends those alone: start from wrk's (-H, Host) and add ours.
    headers = {}
    for name, value in pairs(wrk.headers) do headers[name] = value end
    headers["Content-Type"] = "application/json"
    fixed = wrk.format("POST", nil, headers, body)
end

function request()
    if not dynamic then return fixed end
    n = n + 1
    local id = tostring(tid * 1000000000 + n)
    return wrk.format("POST", nil, headers, (body:gsub("@ID@", id)))
end

function response(status, _, answer)
    checked = checked + 1
    if status ~= 200 or (expect and not answer:find(expect, 1, true)) then
        mismatched = mismatched + 1
        if first_mismatch == "" then
            first_mismatch = status .. " " .. answer:sub(1, 200):gsub("[\r\n]", " ")
        end
    end
end

function done()
    local total, bad, first = 0, 0, ""
    for _, thread in ipairs(threads) do
        total = total + thread:get("checked")
        bad = bad + thread:get("mismatched")
        if first == "" then first = thread:get("first_mismatch") end
    end
    io.write(string.format("post checked=%d mismatched=%d first_mismatch=%s\n", total, bad, first))
end
