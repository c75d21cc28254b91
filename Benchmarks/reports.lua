-- wrk script for Benchmarks/rollouts.py: apps' reports of tab opens, POST /v1/clients/bench-rollouts/reports with
-- {"version": 1, "tabs": {"shop": {"opened": 3, "failed": 0}}}, each connection waiting BENCH_REPORT_DELAY_MS (default
-- 2) between its requests, so that -c4 posts about 1,400 a second beside the GETs rather than as many as it can.
-- With BENCH_REPORT_FLOOR=1 it sends GET /healthz at that pace instead: what a second client at that rate costs
-- with no report to handle (the floor).
--   BENCH_REPORT_DELAY_MS=2 wrk -t1 -c4 -d10s -s Benchmarks/reports.lua http://127.0.0.1:PORT

if os.getenv("BENCH_REPORT_FLOOR") == "1" then
  wrk.method = "GET"
  wrk.path = "/healthz"
else
  wrk.method = "POST"
  wrk.path = "/v1/clients/bench-rollouts/reports"
  wrk.body = '{"version":1,"tabs":{"shop":{"opened":3,"failed":0}}}'
  wrk.headers["Content-Type"] = "application/json"
end

local wait = tonumber(os.getenv("BENCH_REPORT_DELAY_MS") or "2")

function delay()
  return wait
end
