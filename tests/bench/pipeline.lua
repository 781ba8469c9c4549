-- wrk script for the pipelined mode of tests/bench/gateway.sh: every write carries DEPTH requests
-- (default 8) for the URL's path, built once with wrk.format, so each is exactly what a plain wrk
-- run sends (request line, Host, any -H).
--
--   wrk -t2 -c32 -d5s --latency -s tests/bench/pipeline.lua http://127.0.0.1:8080/ -- 8
--
-- What wrk counts with it:
-- * wrk parses the first request() result to learn the depth (8 requests), keeps that many
--   answers pending per connection and counts every answer it parses, so Requests/sec is answers
--   per second and a missing answer is never counted.
-- * Latency is recorded once per batch: from the write of the 8 requests to the 8th answer.
-- * wrk's own percentiles are wrong here: its coordinated-omission correction takes the interval
--   per answer (not per batch) and adds samples below the histogram's minimum, which its
--   percentile walk then skips, so p90/p99 can print as 0. done() below prints p50/p99 over the
--   samples the histogram does hold (the measured batches plus the correction's extra samples, as
--   in every wrk percentile), on one line that gateway.sh reads:
--       pipeline samples=N p50_us=X p99_us=Y
-- A server that answers fewer than 8 leaves its connections waiting for good; gateway.sh probes
-- first (lib/probe.py) and does not time such a server.

local batch

function init(args)
    -- args[0] is the URL; what follows `--` starts at args[1].
    local depth = tonumber(args[1] or "8")
    if depth == nil or depth < 1 then
        error("pipeline.lua: the depth must be a positive number, got " .. tostring(args[1]))
    end
    batch = string.rep(wrk.format(nil, wrk.path), depth)
end

function request()
    return batch
end

function done(summary, latency, requests)
    -- latency(i) is the i-th distinct value (microseconds) and its count, in increasing order.
    local values, counts, total = {}, {}, 0
    for i = 1, #latency do
        local v, c = latency(i)
        values[i], counts[i] = v, c
        total = total + c
    end
    local function percentile(p)
        local rank, seen = math.max(1, math.ceil(total * p / 100)), 0
        for i = 1, #values do
            seen = seen + counts[i]
            if seen >= rank then return values[i] end
        end
        return 0
    end
    io.write(string.format("pipeline samples=%d p50_us=%d p99_us=%d\n",
        total, percentile(50), percentile(99)))
end
