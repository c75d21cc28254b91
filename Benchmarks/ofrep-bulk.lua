-- wrk script for Benchmarks/ofrep.py: every request is the same OFREP bulk evaluation,
--   POST /ofrep/v1/evaluate/flags with the body in OFREP_BODY (one context, one user),
-- or, with BENCH_USERS=N, that body for N distinct users in turn, round-robin (its "bench-user" targetingKey made
-- "bench-user-0" … "bench-user-<N-1>"; formatted once, Benchmarks/round-robin.lua).
-- Otherwise only the request is set: with no request() or response() function wrk formats it once and reads the
-- answers without Lua, as it does for the GET it is compared with (a response() that checked each status cost wrk
-- CPU the GET's runs did not pay, on the cores the server shares). wrk counts answers other than 2xx and 3xx itself
-- ("Non-2xx or 3xx responses"), which ofrep.py's errors target requires to be 0.
--   OFREP_BODY='{"context":{…}}' [BENCH_USERS=10000] wrk -t1 -c64 -d10s --latency -s Benchmarks/ofrep-bulk.lua \
--     http://127.0.0.1:PORT

wrk.method = "POST"
wrk.path = "/ofrep/v1/evaluate/flags"
wrk.body = os.getenv("OFREP_BODY")
wrk.headers["Content-Type"] = "application/json"

local users = tonumber(os.getenv("BENCH_USERS") or "0")
if users > 0 then
  dofile("Benchmarks/round-robin.lua")
  round_robin(users, function(n)
    return wrk.format(nil, nil, nil, (string.gsub(wrk.body, '"bench%-user"', '"bench-user-' .. n .. '"')))
  end)
end
