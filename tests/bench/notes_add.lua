-- notes_add.lua — wrk script for tests/bench/replicas.sh: POST /api/v1/notes/add with a new title
-- per request (a write, never an overwrite of a row another connection writes), as the bearer of
-- the token given after `--`, e.g.
--   wrk -t1 -c8 -d10s -s notes_add.lua http://127.0.0.1:PORT/api/v1/notes/add -- TOKEN run1
local threads = {}
local counter = 1

function setup(thread)
    thread:set("id", counter)
    counter = counter + 1
    table.insert(threads, thread)
end

function init(args)
    token = args[1]
    run = args[2] or "run"
    n = 0
    headers = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}
end

function request()
    n = n + 1
    local title = run .. "-" .. id .. "-" .. n
    return wrk.format("POST", nil, headers, '{"title":"' .. title .. '","text":"written by wrk"}')
end
