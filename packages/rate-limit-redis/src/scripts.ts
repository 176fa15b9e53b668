// The budget model of core's in-process gate (packages/core/src/internal/rate-limit.ts), as two Lua
// scripts run atomically by Redis, plus what only many processes need:
// - one clock: the scripts read Redis's `TIME`, so processes whose clocks disagree still agree on when
//   a window turns;
// - one probe at a time until a key's first answer;
// - a queue instead of a poll: when a window has nothing left, the request takes the next free slot
//   of the windows to come, in asking order (the queue's tail: the window it is in and the slots of
//   it taken), and is sent at its place in that window, without asking again;
// - exact times: a burst window's requests go out in asking order, spread over its first 250 ms (the
//   first half of its safe part);
// - a request granted near a window's end may reach the server after the window turned: it counts
//   against the next window too, until the answers show where it landed (each answer names its window).
//
// One hash per key. Per window (b = burst, c = configured, d = daily) the fields <w>l (limit), <w>r
// (remaining), <w>t (reset, Unix ms). The windows with a known length (burst: 1 s; configured) also
// keep <w>g (requests counted in the current window), <w>a (answers that named it), <w>z (those of
// them granted in its last ZONE_MS), the previous window's <w>pt, <w>pg, <w>pa, <w>pz, and the queue:
// <w>v<reset> (slots taken in the window to come that ends at <reset>, Unix ms) and <w>q (the reset of
// the queue's tail window). When a window opens, its slots become its first requests. Of the previous
// window's late grants, min(pz, pg - pa) may still land in the current one: that many are held back
// from it. A window with a known length starts over by itself once its reset passes; the daily one
// becomes unknown. After Redis was lost, x is how many processes shared the budget before, as those
// back from pacing alone say it, and xt when that word lapses (Unix ms).

/**
 * A key lives this long past the last reset it describes (the burst or configured window's end, the
 * daily quota's reset, a probe's expiry), and no longer: a blocked attempt writes no later reset, so
 * it never renews the key.
 */
const GRACE_MS = 2_000;

/**
 * A request granted this close to the burst window's end may reach the server after the window
 * turned (a busy machine delays sending), in milliseconds; it is held back from the next window until
 * its answer shows it landed in its own.
 */
export const ZONE_MS = 500;

/**
 * Until the first answer for a key is reported (field `seen`), one request at a time goes out (the
 * probe, field `probe`: when it was granted); others ask again after this many milliseconds. So
 * processes that start together cannot all spend a budget they do not know yet.
 */
const PROBE_RETRY_MS = 25;

/**
 * When the only thing keeping a request back is room held for the previous window's late grants,
 * ask again after this many milliseconds (their answers release it) rather than reserve a slot in
 * the next window.
 */
const HELD_RETRY_MS = 50;

/** A probe whose answer never came (its process died) stops blocking others after this long. */
const PROBE_EXPIRY_MS = 2_000;

/**
 * A process counts as sharing a budget while it asked for it within this many milliseconds (KEYS[2]
 * of the acquire script, which expires this long after the last ask).
 */
export const ACTIVE_MS = 2_000;

/** The most processes a budget's share is divided by (a reply naming more is refused). */
export const MAX_PROCESSES = 100_000;

/** The burst window's length (core's `BURST_WINDOW_MS`), in milliseconds. */
const BURST_LENGTH_MS = 1_000;

/**
 * The requests of a burst window go out at exact times in asking order, one every (safe part /
 * SPREAD_SHARE / limit) ms from its start (the safe part: before its last ZONE_MS), so they are
 * answered, and their callers ask again, in that order: a window's room goes round the callers
 * instead of to the fastest process. A slot not sent within that share of the safe part is given
 * back (`lastAt` in index.ts).
 */
export const SPREAD_SHARE = 2;

/** Fields of the windows with a known length, per window prefix (the queue's <w>v<reset> aside). */
const WINDOW_FIELDS = ["l", "r", "t", "g", "a", "z", "q", "pt", "pg", "pa", "pz"];
const FIELDS = [
  ...["b", "c"].flatMap((w) => WINDOW_FIELDS.map((f) => w + f)),
  ...["dl", "dr", "dt", "x", "xt"],
];

/**
 * Lua: the current time of Redis in Unix milliseconds, the hash of KEYS[1] as numbers in `s`, and its
 * queue in `queue` (per window prefix, the slots taken per window to come, by that window's reset).
 */
const LOAD = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local raw = redis.call('HGETALL', KEYS[1])
local s = {}
local queue = { b = {}, c = {} }
-- The queue's fields as read (SAVE rewrites them); 'bv' and 'cv' (one count for the next window, as
-- the limiter kept it before the queue) are read as nothing and deleted.
local read = {}
for i = 1, #raw, 2 do
  local p, e = string.match(raw[i], '^([bc])v(%d*)$')
  if p then
    read[#read + 1] = raw[i]
    if e ~= '' then queue[p][tonumber(e)] = tonumber(raw[i + 1]) end
  else
    s[raw[i]] = tonumber(raw[i + 1])
  end
end
local function held(p)
  if not s[p .. 'pz'] then return 0 end
  return math.min(s[p .. 'pz'], math.max(0, (s[p .. 'pg'] or 0) - (s[p .. 'pa'] or 0)))
end
-- The slots of the queue whose window has opened (it starts in the current window, whose reset is
-- <p>t) become the current window's first requests; those of windows already past are dropped.
local function settle(p, len)
  local t = s[p .. 't']
  for e, n in pairs(queue[p]) do
    if e < t + len then
      if e >= t then s[p .. 'g'] = (s[p .. 'g'] or 0) + n end
      queue[p][e] = nil
    end
  end
end
local function advance(p, t, len)
  -- Answers naming the window include the previous one's late grants (at most its pz): not ours.
  s[p .. 'pa'] = math.max(0, (s[p .. 'a'] or 0) - (s[p .. 'pz'] or 0))
  s[p .. 'pt'] = s[p .. 't']; s[p .. 'pg'] = s[p .. 'g'] or 0; s[p .. 'pz'] = s[p .. 'z'] or 0
  s[p .. 'g'] = 0; s[p .. 'a'] = 0; s[p .. 'z'] = 0
  s[p .. 't'] = t
  settle(p, len)
end
local function clear(p)
  for _, f in ipairs({ 'g', 'a', 'z', 'pt', 'pg', 'pa', 'pz' }) do s[p .. f] = nil end
end
-- A window whose limit or length is no longer known: its queue goes too.
local function forget(p)
  clear(p); queue[p] = {}; s[p .. 'q'] = nil
end
`;

/**
 * Lua: writes `s` and the queue back; the key expires GRACE_MS after the last reset it holds (the
 * queue's tail window's included).
 */
const SAVE = `
for _, f in ipairs({ ${FIELDS.map((f) => `'${f}'`).join(", ")} }) do
  if s[f] then redis.call('HSET', KEYS[1], f, string.format('%d', s[f])) else redis.call('HDEL', KEYS[1], f) end
end
for _, f in ipairs(read) do redis.call('HDEL', KEYS[1], f) end
local far = now
for p, slots in pairs(queue) do
  for e, n in pairs(slots) do
    if n > 0 then
      redis.call('HSET', KEYS[1], p .. 'v' .. string.format('%d', e), string.format('%d', n))
      if e > far then far = e end
    end
  end
end
for _, f in ipairs({ 'bt', 'ct', 'dt', 'bq', 'cq' }) do if s[f] and s[f] > far then far = s[f] end end
if s.bt and s.bl then far = math.max(far, s.bt + ${BURST_LENGTH_MS}) end
if s.probe and s.probe + ${PROBE_EXPIRY_MS} > far then far = s.probe + ${PROBE_EXPIRY_MS} end
redis.call('PEXPIRE', KEYS[1], math.floor(far - now + ${GRACE_MS}))
`;

/**
 * KEYS[1] the budget, KEYS[2] the processes using it; ARGV burst window length, configured limit and
 * length ('' when none), the asking process's id, the processes it last saw sharing the budget
 * before Redis was lost ('' unless it paced alone lately: see `x` below), and the requests it sent
 * alone in the burst window ending at the last ARGV (Unix ms; '' when none).
 * Returns { wait, reserved, burst kind, burst reset, configured kind, configured reset, processes
 * that asked in the last ACTIVE_MS (this one included) }: { 0, 0, … } after taking one request from
 * every window; { ms, 1, … } after taking a request whose time comes in `ms` (its place in the
 * current window, or the next slot of the queue: send then, without asking again; the four numbers
 * after it say what was taken, for a release: per window 1 and the current window's reset, or 2 and
 * the reset of the window to come);
 * { ms, 0, … } when there is no slot to take yet (ask again in `ms`).
 */
export const ACQUIRE_SCRIPT = `${LOAD}
-- The processes asking for this budget lately (KEYS[2], ARGV[4] this one's id): the share each
-- paces at alone when Redis is gone.
redis.call('ZADD', KEYS[2], now, ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - ${ACTIVE_MS})
redis.call('PEXPIRE', KEYS[2], ${ACTIVE_MS})
local active = redis.call('ZCARD', KEYS[2])
-- Processes back from pacing alone say how many shared the budget before (x, kept ACTIVE_MS after
-- the last such word). Until as many ask again, those not back may still pace alone at their share
-- of the burst limit (at least 1 a window each): that room is kept out of the burst window's.
if s.xt and now >= s.xt then s.x = nil; s.xt = nil end
local told = tonumber(ARGV[5])
if told then s.x = math.max(s.x or 0, math.min(told, ${MAX_PROCESSES})); s.xt = now + ${ACTIVE_MS} end
local function away(l)
  if not s.x or s.x <= active then return 0 end
  return math.min(l, (s.x - active) * math.max(1, math.floor(l / s.x)))
end
-- What a process back from pacing alone sent in the burst window ending at ARGV[7] (counted below).
local sentAlone, sentEnds = tonumber(ARGV[6]), tonumber(ARGV[7])
if ARGV[2] ~= '' then s.cl = tonumber(ARGV[2]) end
if s.seen == nil then
  if s.probe and now - s.probe < ${PROBE_EXPIRY_MS} then return { ${PROBE_RETRY_MS}, 0, 0, 0, 0, 0, active } end
  redis.call('HSET', KEYS[1], 'probe', string.format('%d', now))
  s.probe = now
end
local timed = { { 'b', tonumber(ARGV[1]), ${ZONE_MS} }, { 'c', tonumber(ARGV[3]), 0 } }
local blocked, at = 0, now
-- Per window: 'now' (a request of the current window) or the reset of the queue's window taken.
local slot = {}
for _, w in ipairs(timed) do
  local p, len = w[1], w[2]
  local l, t = s[p .. 'l'], s[p .. 't']
  if len and l then
    if t == nil then
      s[p .. 'r'] = l; forget(p); s[p .. 'g'] = 0; s[p .. 't'] = now + len
    elseif now >= t then
      local turns = math.floor((now - t) / len) + 1
      if turns == 1 then
        advance(p, t + len, len)
      else
        clear(p); s[p .. 'g'] = 0; s[p .. 't'] = t + turns * len; settle(p, len)
      end
      s[p .. 'r'] = math.max(0, l - s[p .. 'g'])
    end
    t = s[p .. 't']
    -- What a process back from pacing alone sent in this window counts in it (a window is named by
    -- its end: the process's clock, whole seconds as the service counts them, against the reset).
    if p == 'b' and sentAlone and sentEnds and math.abs(sentEnds - t) < len / 2 then
      local sent = math.max(0, math.min(sentAlone, l))
      s.bg = (s.bg or 0) + sent; s.br = math.max(0, (s.br or l) - sent)
    end
    -- The time of the n-th request of the window that ends at e: spread in the burst window only (a
    -- configured window may last minutes: its requests go at its start, in asking order).
    local function due(e, n)
      if p ~= 'b' then return e - len end
      return e - len + math.floor(n * math.floor((len - w[3]) / ${SPREAD_SHARE}) / l)
    end
    -- Room kept for processes pacing alone (the burst window only: they pace by its limit).
    local kept = p == 'b' and away(l) or 0
    if (s[p .. 'r'] or l) - held(p) - kept > 0 then
      slot[p] = 'now'
      -- Its place in the current window, once the window has started on this clock (a reset stated
      -- further ahead, a clock skew, is not waited for).
      if t - len <= now then at = math.max(at, due(t, s[p .. 'g'] or 0)) end
    elseif (s[p .. 'r'] or l) - kept > 0 then
      -- Room held back for the previous window's late grants: it returns as their answers come in.
      blocked = math.max(blocked, math.min(t, now + ${HELD_RETRY_MS}))
    else
      -- No room now: the next slot at the queue's tail. The window after the current one has room
      -- for the limit less what the current one's late grants may take of it; the later ones for
      -- the limit. The tail moves on to the next window once its window is full.
      local q = s[p .. 'q']
      if q == nil or q < t + len then q = t + len end
      local function room(e)
        if e < t + 2 * len then
          return l - kept - math.min(s[p .. 'z'] or 0, math.max(0, (s[p .. 'g'] or 0) - (s[p .. 'a'] or 0)))
        end
        return l - kept
      end
      for _ = 1, 3 do
        if (queue[p][q] or 0) < room(q) then break end
        q = q + len
      end
      if (queue[p][q] or 0) < room(q) then
        slot[p] = q; at = math.max(at, due(q, queue[p][q] or 0))
      else
        blocked = math.max(blocked, t)
      end
    end
  elseif t and now >= t then
    s[p .. 'r'] = nil; s[p .. 't'] = nil; forget(p)
  end
end
if s.dt and now >= s.dt then s.dr = nil; s.dt = nil end
if s.dr == 0 and s.dt then blocked = math.max(blocked, s.dt) end
for _, w in ipairs(timed) do
  local p = w[1]
  -- A slot the request would not be sent in (another window makes it wait past the slot's window,
  -- or into its last moments): nothing is taken, ask again then.
  local ends = slot[p] == 'now' and s[p .. 't'] or slot[p]
  if ends and at > now and at >= ends - w[3] then blocked = math.max(blocked, at) end
end
if blocked > 0 then
  -- Nothing is taken; the windows that turned are kept.
  ${SAVE}
  return { math.max(1, math.ceil(blocked - now)), 0, 0, 0, 0, 0, active }
end
local taken = {}
for _, w in ipairs(timed) do
  local p = w[1]
  taken[p] = { 0, 0 }
  if slot[p] == 'now' then
    s[p .. 'r'] = s[p .. 'r'] - 1; s[p .. 'g'] = (s[p .. 'g'] or 0) + 1
    if at == now and now >= s[p .. 't'] - w[3] then s[p .. 'z'] = (s[p .. 'z'] or 0) + 1 end
    taken[p] = { 1, s[p .. 't'] }
  elseif slot[p] then
    queue[p][slot[p]] = (queue[p][slot[p]] or 0) + 1; s[p .. 'q'] = slot[p]
    taken[p] = { 2, slot[p] }
  end
end
if s.dr then s.dr = math.max(0, s.dr - 1) end
${SAVE}
if at > now then return { math.ceil(at - now), 1, taken.b[1], taken.b[2], taken.c[1], taken.c[2], active } end
return { 0, 0, 0, 0, 0, 0, active }
`;

/**
 * KEYS[1] the budget; ARGV per timed window (burst, configured) what a reservation took (0 nothing,
 * 1 a request of the window ending then, 2 a slot of the queue's window ending then) and that
 * reset, then the two windows' lengths. Gives back what a call that will not be sent reserved: its
 * slot in the queue's window while that window is still to come, or the request it became once the
 * window opened; a window since gone is left alone.
 */
export const RELEASE_SCRIPT = `${LOAD}
local lengths = { b = tonumber(ARGV[5]), c = tonumber(ARGV[6]) }
for i, p in ipairs({ 'b', 'c' }) do
  local kind, e = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local len, l, t = lengths[p], s[p .. 'l'], s[p .. 't']
  local opened = kind == 1 and t == e
  if kind == 2 and len and t then
    if e >= t + len then
      if queue[p][e] then queue[p][e] = math.max(0, queue[p][e] - 1) end
    elseif e >= t then
      opened = true
    end
  end
  if opened and l then
    s[p .. 'g'] = math.max(0, (s[p .. 'g'] or 0) - 1); s[p .. 'r'] = math.min(l, (s[p .. 'r'] or 0) + 1)
  end
end
${SAVE}
return 0
`;

/**
 * KEYS[1] the budget; ARGV burst limit, remaining, reset (Unix ms), then the same for the daily
 * window ('' when the answer does not state it), then the burst window's length. An answer naming the
 * next burst window turns ours (the queue's slots that open in it and held-back grants stay counted); one naming the
 * same window keeps the lower count; one naming the previous window shows a late grant landed there
 * (releasing what was held back for it); an older one is ignored.
 */
export const REPORT_SCRIPT = `${LOAD}
redis.call('HSET', KEYS[1], 'seen', 1)
redis.call('HDEL', KEYS[1], 'probe')
s.probe = nil
local len = tonumber(ARGV[7])
local bl, br, bt = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if bl then s.bl = bl end
if br and bt and s.bl then
  local t = s.bt
  if t == nil or bt > t then
    if t and bt - t <= len then
      advance('b', bt, len)
      s.br = math.max(0, math.min(s.bl - s.bg, br + held('b')))
    else
      -- A window we knew nothing of: the server's count is all there is (this answer among it),
      -- or the queue's slots that open in it, when they are more.
      clear('b'); s.bt = bt; s.bg = 0; settle('b', len)
      s.br = math.max(0, math.min(br, s.bl - s.bg)); s.bg = math.max(s.bg, s.bl - br)
    end
    s.ba = 1
  elseif bt == t then
    s.br = math.min(s.br or br, br + held('b'))
    s.ba = (s.ba or 0) + 1
  elseif bt == s.bpt then
    s.bpa = (s.bpa or 0) + 1
  end
end
local dl, dr, dt = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
if dl then s.dl = dl end
if dr and dt then
  if s.dt == nil or dt > s.dt then s.dt = dt; s.dr = dr
  elseif dt == s.dt then s.dr = math.min(s.dr or dr, dr) end
end
${SAVE}
return 0
`;
