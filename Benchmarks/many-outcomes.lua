-- wrk script for Benchmarks/outcomes.py: GET of one client's default tab bar for BENCH_OUTCOMES distinct targeting
-- outcomes in turn, round-robin (formatted once, Benchmarks/round-robin.lua),
--   GET /v1/clients/bench-outcomes/tabs?attr.f0=<bit 0 of N>&…&attr.f12=<bit 12 of N>   for N = 0, 1, …
-- each asked for in brotli unless BENCH_CODING is empty. BENCH_OUTCOMES=1 asks for the last outcome (every tab
-- shown) on every request: the reference.
--   BENCH_OUTCOMES=8192 BENCH_CODING=br wrk -t1 -c64 -d10s --latency -s Benchmarks/many-outcomes.lua http://127.0.0.1:PORT

dofile("Benchmarks/round-robin.lua")

local count = tonumber(os.getenv("BENCH_OUTCOMES") or "8192")
local coding = os.getenv("BENCH_CODING") or "br"

round_robin(count, function(n)
  local outcome = count == 1 and 8191 or n
  local query = {}
  for bit = 0, 12 do
    query[#query + 1] = string.format("attr.f%d=%d", bit, math.floor(outcome / 2 ^ bit) % 2)
  end
  local headers = {}
  if coding ~= "" then
    headers["Accept-Encoding"] = coding
  end
  return wrk.format("GET", "/v1/clients/bench-outcomes/tabs?" .. table.concat(query, "&"), headers)
end)
