-- wrk script of the HTTP harness (benchmarks/run.sh). Every request is built by request(), so the driver does the
-- same work for every endpoint; only what the server does differs.
--
--   wrk -t2 -c16 -d10s -s bench.lua http://127.0.0.1:PORT -- <path> <mode> <tag> [token-file]
--
-- mode unique:    a fresh Idempotency-Key and body id per request (first-time requests, distinct lock keys)
-- mode duplicate: one fixed key and body for every request (after one warming request: all replays)
-- mode token:     like unique, plus a pre-issued Idempotency-Token per request, read from token-file; the lines are
--                 dealt to the threads round-robin so no token is sent twice
-- tag:            makes keys unique across runs (warm-up, repetitions)
--
-- done() prints one line: WRK_RESULT requests=.. duration_us=.. errors=.. p50_us=.. p99_us=..

local NOTE = "padding-to-a-typical-response-size-0123456789abcdefghijklmnopqrstuvwxyz"
local DUPLICATE_ID = "duplicate-0001"

local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("tid", thread_count)
end

local path, mode, prefix
local counter = 0
local tokens, token_count, token_next = {}, 0, 1
local headers = { ["Content-Type"] = "application/json" }

local function body(id)
  return '{"id":"' .. id .. '","item":"benchmark-widget","quantity":3,"amountCents":129900,'
      .. '"currency":"EUR","note":"' .. NOTE .. '"}'
end

function init(args)
  path = args[1] or "/baseline"
  mode = args[2] or "unique"
  prefix = (args[3] or "run") .. "-" .. tid .. "-"
  if mode == "token" then
    local threads = tonumber(args[5] or "2")
    local line_number = 0
    for line in io.lines(args[4]) do
      if line ~= "" then
        if line_number % threads == tid - 1 then
          token_count = token_count + 1
          tokens[token_count] = line
        end
        line_number = line_number + 1
      end
    end
  end
end

function request()
  counter = counter + 1
  local id = prefix .. counter
  if mode == "duplicate" then
    id = DUPLICATE_ID
  end
  headers["Idempotency-Key"] = id
  if mode == "token" then
    -- out of tokens: resend the last one, which answers 409 and shows up in the error count
    headers["Idempotency-Token"] = tokens[math.min(token_next, token_count)]
    token_next = token_next + 1
  end
  return wrk.format("POST", path, headers, body(id))
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRK_RESULT requests=%d duration_us=%d errors=%d p50_us=%d p99_us=%d\n",
      summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
      latency:percentile(50.0), latency:percentile(99.0)))
end
