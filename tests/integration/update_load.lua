-- wrk script for tests/integration/runtime_update_load_test.cpp: GET the URL given to wrk (the hello
-- service's greet) on every connection, and count what came back.
--
--   wrk -t2 -c64 -d60s -s update_load.lua 'http://127.0.0.1:PORT/api/v1/hello/greet?name=Ada'
--
-- response() counts the answers outside 200-299 (wrk's own `status` error counts only >= 400) by
-- status, and the 2xx answers by the greeting's first word ("Hello", "Howdy", "Hi"; anything else
-- is "other"), so the test sees which builds served. done() prints one JSON line:
--   {"requests":N,"seconds":S,"connect":E,"read":E,"write":E,"timeout":E,"non2xx":N,
--    "statuses":{"503":N,...},"greetings":{"Hello":N,...},"p99_ms":X}
-- where connect/read/write/timeout are wrk's socket errors.

local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    non2xx = 0
    statuses = {}
    greetings = {}
end

function response(status, headers, body)
    if status < 200 or status > 299 then
        non2xx = non2xx + 1
        statuses[status] = (statuses[status] or 0) + 1
        return
    end
    local word = body and string.match(body, '"message"%s*:%s*"(%a+),') or "other"
    greetings[word] = (greetings[word] or 0) + 1
end

local function object(t)
    local parts = {}
    for k, n in pairs(t) do table.insert(parts, string.format('"%s":%d', tostring(k), n)) end
    table.sort(parts)
    return "{" .. table.concat(parts, ",") .. "}"
end

function done(summary, latency, requests)
    local bad, by_status, by_word = 0, {}, {}
    for _, thread in ipairs(threads) do
        bad = bad + (thread:get("non2xx") or 0)
        for status, n in pairs(thread:get("statuses") or {}) do
            by_status[status] = (by_status[status] or 0) + n
        end
        for word, n in pairs(thread:get("greetings") or {}) do
            by_word[word] = (by_word[word] or 0) + n
        end
    end
    local e = summary.errors
    io.write(string.format(
        '{"requests":%d,"seconds":%.2f,"connect":%d,"read":%d,"write":%d,"timeout":%d,' ..
        '"non2xx":%d,"statuses":%s,"greetings":%s,"p99_ms":%.2f}\n',
        summary.requests, summary.duration / 1e6, e.connect, e.read, e.write, e.timeout, bad,
        object(by_status), object(by_word), latency:percentile(99) / 1000))
end
