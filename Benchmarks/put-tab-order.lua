-- wrk script for the durable-write scenario (Benchmarks/writes.py): every request is a
--   PUT /v1/clients/ios-phone/users/u<N>/tab-order
-- without If-Match, so every one is accepted and stored durably. Each wrk thread walks its own range of users,
-- u<t*100000> .. u<t*100000+99999>, one user per request in turn, so the requests in flight (at most one per
-- connection) never write the same user; each user always gets the same one of four valid bodies for the sample
-- config (home is locked and stays first; settings and downloads are hideable), consecutive requests alternate them.
-- Counts every answer that is not 200 (or PUT_EXPECTED_STATUS, below) and prints the count and the first such answer
-- in done(), next to wrk's own "Non-2xx or 3xx responses" line.
--   wrk -t1 -c64 -d10s --latency -s Benchmarks/put-tab-order.lua http://127.0.0.1:PORT
-- PUT_RESOURCE replaces the last segment `tab-order` and PUT_EXPECTED_STATUS the status counted as expected:
-- Benchmarks/replicas.py sends the same requests to a path no route takes (404) to measure what HTTP and the proxy
-- cost before any handler runs.

local users_per_thread = 100000
local resource = os.getenv("PUT_RESOURCE") or "tab-order"
local expected_status = tonumber(os.getenv("PUT_EXPECTED_STATUS") or "200")

local bodies = {
  '{"order":["home","search","favorites","library","downloads","profile","settings"],"hidden":[]}',
  '{"order":["home","profile","favorites","search"],"hidden":["settings"]}',
  '{"order":["home","library","search","downloads","profile"],"hidden":["settings"]}',
  '{"order":["home","favorites","profile","search","library","settings"],"hidden":["downloads"]}',
}

local threads = {}

-- Main state: numbers the threads so that each gets its own range of users.
function setup(thread)
  thread:set("thread_index", #threads)
  table.insert(threads, thread)
end

-- Thread state from here on.
local first_user = 0
local counter = 0
unexpected = 0
first_failure = ""

function init(args)
  first_user = thread_index * users_per_thread
  wrk.method = "PUT"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  local n = counter % users_per_thread
  counter = counter + 1
  local user = first_user + n
  return wrk.format(nil, "/v1/clients/ios-phone/users/u" .. user .. "/" .. resource, nil, bodies[user % #bodies + 1])
end

function response(status, headers, body)
  if status ~= expected_status then
    unexpected = unexpected + 1
    if first_failure == "" then
      first_failure = status .. " " .. (body or "")
    end
  end
end

-- Main state again: sums the threads' counts.
function done(summary, latency, requests)
  local total = 0
  local failure = ""
  for _, thread in ipairs(threads) do
    total = total + thread:get("unexpected")
    if failure == "" then
      failure = thread:get("first_failure")
    end
  end
  io.write(string.format("put-tab-order.lua: responses other than %d: %d\n", expected_status, total))
  if failure ~= "" then
    io.write(string.format("put-tab-order.lua: first response other than %d: %s\n", expected_status, failure))
  end
end
