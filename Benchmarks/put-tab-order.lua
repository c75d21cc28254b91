-- wrk script for the durable-write scenario (Benchmarks/writes.sh): every request is a
--   PUT /v1/clients/ios-phone/users/u<N>/tab-order
-- without If-Match, so every one is accepted and stored durably. Each wrk thread walks its own range of users,
-- u<t*100000> .. u<t*100000+99999>, one user per request in turn, so the requests in flight (at most one per
-- connection) never write the same user; each user always gets the same one of four valid bodies for the sample
-- config (home is locked and stays first; settings and downloads are hideable), consecutive requests alternate them.
-- Counts every answer that is not 200 and prints the count and the first such answer in done(), next to wrk's own
-- "Non-2xx or 3xx responses" line.
--   wrk -t1 -c64 -d10s --latency -s Benchmarks/put-tab-order.lua http://127.0.0.1:PORT

local users_per_thread = 100000

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
non_200 = 0
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
  return wrk.format(nil, "/v1/clients/ios-phone/users/u" .. user .. "/tab-order", nil, bodies[user % #bodies + 1])
end

function response(status, headers, body)
  if status ~= 200 then
    non_200 = non_200 + 1
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
    total = total + thread:get("non_200")
    if failure == "" then
      failure = thread:get("first_failure")
    end
  end
  io.write(string.format("put-tab-order.lua: non-200 responses: %d\n", total))
  if failure ~= "" then
    io.write(string.format("put-tab-order.lua: first non-200 response: %s\n", failure))
  end
end
