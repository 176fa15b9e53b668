// The budget model of core's in-process gate (packages/core/src/internal/rate-limit.ts), as two Lua
// scripts run atomically by Redis, plus two rules that only many processes need: one probe at a time
// until a key's first answer, and a request granted near a window's end counting against the next. One hash per key; per window (b = burst, d = daily, c = configured)
// the fields <w>l (limit), <w>r (remaining), <w>t (reset, Unix ms). A window with a known length
// (burst: 1 s; configured) starts over by itself once its reset passes; the daily one becomes unknown.

/** Keys live two days past their last use (the daily window is the longest). */
const TTL_MS = 2 * 86_400_000;

/**
 * A request granted this close to its window's end may reach the server after the window turned, so it
 * also counts against the next window (field <w>n), in milliseconds.
 */
const BOUNDARY_MS = 500;

/**
 * Until the first answer for a key is reported (field `seen`), one request at a time goes out (the
 * probe, field `probe`: when it was granted); others ask again after this many milliseconds. So
 * processes that start together cannot all spend a budget they do not know yet.
 */
const PROBE_RETRY_MS = 25;

/** A probe whose answer never came (its process died) stops blocking others after this long. */
const PROBE_EXPIRY_MS = 2_000;

/**
 * KEYS[1] the budget; ARGV now, burst window length, configured limit and length ('' when none).
 * Returns 0 after taking one request from every window, else the milliseconds until the first is free.
 */
export const ACQUIRE_SCRIPT = `
local now = tonumber(ARGV[1])
local raw = redis.call('HGETALL', KEYS[1])
local s = {}
for i = 1, #raw, 2 do s[raw[i]] = tonumber(raw[i + 1]) end
if ARGV[3] ~= '' then s.cl = tonumber(ARGV[3]) end
local windows = { { 'b', tonumber(ARGV[2]) }, { 'd', nil }, { 'c', tonumber(ARGV[4]) } }
if s.seen == nil then
  if s.probe and now - s.probe < ${PROBE_EXPIRY_MS} then return ${PROBE_RETRY_MS} end
  redis.call('HSET', KEYS[1], 'probe', string.format('%d', now))
end
local wait = 0
for _, w in ipairs(windows) do
  local p, len = w[1], w[2]
  local l, r, t = s[p .. 'l'], s[p .. 'r'], s[p .. 't']
  if t == nil then
    if len and l then t = now + len; r = l end
  elseif now >= t then
    if len and l then
      local turns = math.floor((now - t) / len) + 1
      t = t + turns * len
      r = l
      if turns == 1 and s[p .. 'n'] then r = math.max(0, l - s[p .. 'n']) end
      s[p .. 'n'] = nil
    else
      r = nil; t = nil
    end
  end
  s[p .. 'r'] = r; s[p .. 't'] = t
  if r == 0 and t then wait = math.max(wait, t - now) end
end
if wait == 0 then
  for _, w in ipairs(windows) do
    local p, len = w[1], w[2]
    local f = p .. 'r'
    if s[f] then s[f] = math.max(0, s[f] - 1) end
    local t = s[p .. 't']
    if len and t and now >= t - ${BOUNDARY_MS} then s[p .. 'n'] = (s[p .. 'n'] or 0) + 1 end
  end
end
for _, f in ipairs({ 'bl', 'br', 'bt', 'bn', 'dl', 'dr', 'dt', 'cl', 'cr', 'ct', 'cn' }) do
  if s[f] then redis.call('HSET', KEYS[1], f, string.format('%d', s[f])) else redis.call('HDEL', KEYS[1], f) end
end
redis.call('PEXPIRE', KEYS[1], ${TTL_MS})
return math.ceil(wait)
`;

/**
 * KEYS[1] the budget; ARGV burst limit, remaining, reset (Unix ms), then the same for the daily
 * window ('' when the answer does not state it), then the burst window's length. A later window
 * replaces ours (a burst window keeps the requests already granted against it, field bn), the same
 * one keeps the lower count, an earlier one (a late answer) is ignored.
 */
export const REPORT_SCRIPT = `
redis.call('HSET', KEYS[1], 'seen', 1)
redis.call('HDEL', KEYS[1], 'probe')
for i, p in ipairs({ 'b', 'd' }) do
  local l, r, t = tonumber(ARGV[i * 3 - 2]), tonumber(ARGV[i * 3 - 1]), tonumber(ARGV[i * 3])
  if l then redis.call('HSET', KEYS[1], p .. 'l', l) end
  if r and t then
    local ours = tonumber(redis.call('HGET', KEYS[1], p .. 't'))
    if ours == nil or t > ours then
      if p == 'b' and ours and l and t - ours <= tonumber(ARGV[7]) then
        local borrowed = tonumber(redis.call('HGET', KEYS[1], 'bn')) or 0
        r = math.min(r, math.max(0, l - borrowed))
        redis.call('HDEL', KEYS[1], 'bn')
      end
      redis.call('HSET', KEYS[1], p .. 't', string.format('%d', t), p .. 'r', r)
    elseif t == ours then
      local left = tonumber(redis.call('HGET', KEYS[1], p .. 'r'))
      if left == nil or r < left then redis.call('HSET', KEYS[1], p .. 'r', r) end
    end
  end
end
redis.call('PEXPIRE', KEYS[1], ${TTL_MS})
return 0
`;
