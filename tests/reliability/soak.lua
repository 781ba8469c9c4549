-- wrk script for tests/reliability/soak.sh: a mixed read/write load on the notes service.
--
--   wrk -t2 -c256 -d60s --latency --timeout 10s -s soak.lua http://127.0.0.1:PORT -- ACCOUNTS TITLES
--
-- Each thread walks a fixed cycle of ten requests: 5 × GET /api/v1/notes/get, 2 × GET
-- /api/v1/notes/list and 3 × POST /api/v1/notes/add (30% writes), spread over ACCOUNTS bearer
-- tokens (auth-noop: the token is the account id, `soak-1`…) and TITLES titles (`t0`…) per account.
-- soak.sh writes every (account, title) before the run, so every request must answer 2xx; the
-- writes rewrite those notes, so the data stays the same size however long the run is.
--
-- done() prints one line that soak.sh reads:
--   soak requests=N seconds=S rps=R p50_ms=X p99_ms=Y connect=E read=E write=E timeout=E non2xx=N statuses=CODE:N,…
-- where connect/read/write/timeout are wrk's socket errors and non2xx counts the answers outside
-- 200–299 (wrk's own `status` error counts only >= 400), with their statuses.

local threads = {}

function setup(thread)
    thread:set("id", #threads + 1)
    table.insert(threads, thread)
end

local cycle = {"get", "list", "add", "get", "get", "add", "list", "get", "add", "get"}
local accounts, titles, counter

function init(args)
    accounts = tonumber(args[1] or "4")
    titles = tonumber(args[2] or "32")
    if not accounts or accounts < 1 or not titles or titles < 1 then
        error("soak.lua: ACCOUNTS and TITLES must be positive numbers")
    end
    counter = id * 7919  -- threads start at different places of the cycle
    non2xx = 0
    statuses = {}
end

function request()
    counter = counter + 1
    local kind = cycle[counter % #cycle + 1]
    local account = "soak-" .. (counter % accounts + 1)
    local title = "t" .. (math.floor(counter / accounts) % titles)
    local headers = {["Authorization"] = "Bearer " .. account}
    if kind == "add" then
        headers["Content-Type"] = "application/json"
        local body = string.format('{"title":"%s","text":"written by wrk, request %d of thread %d; %s"}',
            title, counter, id, string.rep("x", 120))
        return wrk.format("POST", "/api/v1/notes/add", headers, body)
    elseif kind == "list" then
        return wrk.format("GET", "/api/v1/notes/list", headers)
    end
    return wrk.format("GET", "/api/v1/notes/get?title=" .. title, headers)
end

function response(status, headers, body)
    if status < 200 or status > 299 then
        non2xx = non2xx + 1
        statuses[status] = (statuses[status] or 0) + 1
    end
end

function done(summary, latency, requests)
    local bad, by_status = 0, {}
    for _, thread in ipairs(threads) do
        bad = bad + (thread:get("non2xx") or 0)
        for status, n in pairs(thread:get("statuses") or {}) do
            by_status[status] = (by_status[status] or 0) + n
        end
    end
    local parts = {}
    for status, n in pairs(by_status) do table.insert(parts, status .. ":" .. n) end
    table.sort(parts)
    local seconds = summary.duration / 1e6
    local e = summary.errors
    io.write(string.format(
        "soak requests=%d seconds=%.1f rps=%.0f p50_ms=%.2f p99_ms=%.2f connect=%d read=%d write=%d timeout=%d non2xx=%d statuses=%s\n",
        summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000,
        latency:percentile(99) / 1000, e.connect, e.read, e.write, e.timeout, bad,
        #parts > 0 and table.concat(parts, ",") or "none"))
end
