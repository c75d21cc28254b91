-- wrk script for scenario users-10k of Benchmarks/reads.py: GET of a user's tab bar for BENCH_USERS distinct users
-- (default 10000) in turn, round-robin,
--   GET /v1/clients/ios-phone/users/u<N>/tabs?locale=en   for N = 0, 1, … BENCH_USERS - 1, 0, 1, …
-- the users Tests/Tools/BenchmarkSeeder writes, formatted once (Benchmarks/round-robin.lua); each wrk thread starts
-- at its own offset.
--   BENCH_USERS=10000 wrk -t1 -c64 -d10s --latency -s Benchmarks/many-users.lua http://127.0.0.1:PORT

dofile("Benchmarks/round-robin.lua")

local threads = 0

function setup(thread)
  thread:set("offset", threads * 7919)
  threads = threads + 1
end

round_robin(tonumber(os.getenv("BENCH_USERS") or "10000"), function(n)
  return wrk.format("GET", string.format("/v1/clients/ios-phone/users/u%d/tabs?locale=en", n))
end)
