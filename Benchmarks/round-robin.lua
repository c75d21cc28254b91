-- Shared by the wrk scripts that send many distinct requests (many-users.lua, ofrep-bulk.lua), loaded with
-- dofile("Benchmarks/round-robin.lua") from the repository's root, where the benchmark scripts run wrk:
--   round_robin(count, format)
-- defines init() and request(): init() formats the requests once, format(n) for n = 0 … count - 1, so that each
-- costs wrk what a fixed request does; request() sends them in turn, starting at the thread's `offset` (0 unset).

function round_robin(count, format)
  local requests = {}
  local next_index = 1

  function init(args)
    for n = 0, count - 1 do
      requests[n + 1] = format(n)
    end
    next_index = ((offset or 0) % count) + 1
  end

  function request()
    local request = requests[next_index]
    next_index = next_index % count + 1
    return request
  end
end
