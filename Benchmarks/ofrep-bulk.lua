-- wrk script for Benchmarks/ofrep.sh: every request is the same OFREP bulk evaluation,
--   POST /ofrep/v1/evaluate/flags with the body in OFREP_BODY (one context, one user),
-- and every answer is expected to be 200 (counted otherwise, printed in done() with the first such answer).
--   OFREP_BODY='{"context":{…}}' wrk -t1 -c64 -d10s --latency -s Benchmarks/ofrep-bulk.lua http://127.0.0.1:PORT

wrk.method = "POST"
wrk.path = "/ofrep/v1/evaluate/flags"
wrk.body = os.getenv("OFREP_BODY")
wrk.headers["Content-Type"] = "application/json"

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

unexpected = 0
first_failure = ""

function response(status, headers, body)
  if status ~= 200 then
    if unexpected == 0 then first_failure = status .. " " .. body end
    unexpected = unexpected + 1
  end
end

function done(summary, latency, requests)
  local total = 0
  local first = ""
  for _, thread in ipairs(threads) do
    total = total + thread:get("unexpected")
    if first == "" then first = thread:get("first_failure") end
  end
  io.write(string.format("ofrep-bulk.lua: responses other than 200: %d\n", total))
  if total > 0 then io.write("ofrep-bulk.lua: first: " .. first .. "\n") end
end
