-- wrk script for scenario users-10k of Benchmarks/reads.sh: GET of a user's tab bar for BENCH_USERS distinct users
-- (default 10000) in turn, round-robin,
--   GET /v1/clients/ios-phone/users/u<N>/tabs?locale=en   for N = 0, 1, … BENCH_USERS - 1, 0, 1, …
-- the users Tests/Tools/BenchmarkSeeder writes. The requests are formatted once in init(), so that each costs wrk
-- what a fixed URL does; each wrk thread starts at its own offset.
--   BENCH_USERS=10000 wrk -t1 -c64 -d10s --latency -s Benchmarks/many-users.lua http://127.0.0.1:PORT

local users = tonumber(os.getenv("BENCH_USERS") or "10000")
local requests = {}
local next_index = 1
local threads = 0

function setup(thread)
  thread:set("offset", threads * 7919)
  threads = threads + 1
end

function init(args)
  for n = 0, users - 1 do
    requests[n + 1] = wrk.format("GET", string.format("/v1/clients/ios-phone/users/u%d/tabs?locale=en", n))
  end
  next_index = ((offset or 0) % users) + 1
end

function request()
  local request = requests[next_index]
  next_index = next_index % users + 1
  return request
end
