-- wl.lua - lua workload: table-, string- and closure-heavy tasks.
-- Usage: lua5.4 wl.lua ROUNDS
-- Each round: generate records with our own LCG (math.random is seeded from
-- the clock in Lua 5.4, so it is not used), compile a small stack-machine
-- program from text and interpret it, count words with string.gmatch and
-- tables, sort with a comparator closure, build strings with string.format
-- and table.concat, and multiply big numbers held in arrays of digits.
-- Prints one checksum line per round.

local state = 987654321
local function rnd(n)
  state = (state * 1103515245 + 12345) % 2147483648
  return (state // 65536) % n
end

local syl = {"ka", "ri", "to", "me", "su", "lo", "an", "be", "ch", "de", "fi", "go", "hu", "ix"}
local words = {}
for i = 1, 2000 do
  local parts = {}
  for j = 1, 1 + rnd(4) do parts[j] = syl[rnd(#syl) + 1] end
  words[i] = table.concat(parts)
end

-- assembler + interpreter for a tiny stack machine ------------------------
local SOURCE = [[
  push 0 store acc push 1 store i
loop:
  load i push LIMIT gt jnz done
  load i load i mul push 7 mod load acc add store acc
  load i push 3 mod jnz skip
  load acc push 1000003 mod store acc
skip:
  load i push 1 add store i jmp loop
done:
  halt
]]

local function assemble(src)
  local code, labels, fix = {}, {}, {}
  for tok in src:gmatch("%S+") do
    local lbl = tok:match("^(%w+):$")
    if lbl then
      labels[lbl] = #code + 1
    else
      code[#code + 1] = tok
    end
  end
  for i, tok in ipairs(code) do
    local n = tonumber(tok)
    if n then code[i] = n elseif labels[tok] then code[i] = labels[tok] end
  end
  return code
end

local function run_vm(code)
  local stack, sp, mem, pc, steps = {}, 0, {}, 1, 0
  while true do
    local op = code[pc]
    steps = steps + 1
    if op == "push" then sp = sp + 1; stack[sp] = code[pc + 1]; pc = pc + 2
    elseif op == "load" then sp = sp + 1; stack[sp] = mem[code[pc + 1]] or 0; pc = pc + 2
    elseif op == "store" then mem[code[pc + 1]] = stack[sp]; sp = sp - 1; pc = pc + 2
    elseif op == "add" then stack[sp - 1] = stack[sp - 1] + stack[sp]; sp = sp - 1; pc = pc + 1
    elseif op == "mul" then stack[sp - 1] = stack[sp - 1] * stack[sp]; sp = sp - 1; pc = pc + 1
    elseif op == "mod" then stack[sp - 1] = stack[sp - 1] % stack[sp]; sp = sp - 1; pc = pc + 1
    elseif op == "gt" then stack[sp - 1] = (stack[sp - 1] > stack[sp]) and 1 or 0; sp = sp - 1; pc = pc + 1
    elseif op == "jnz" then
      local v = stack[sp]; sp = sp - 1
      if v ~= 0 then pc = code[pc + 1] else pc = pc + 2 end
    elseif op == "jmp" then pc = code[pc + 1]
    elseif op == "halt" then break
    else error("bad op " .. tostring(op)) end
  end
  return mem.acc, steps
end

-- big number multiplication (base 10^4 limbs) ------------------------------
local function bigmul(a, b)
  local r = {}
  for i = 1, #a + #b do r[i] = 0 end
  for i = 1, #a do
    local carry, ai = 0, a[i]
    for j = 1, #b do
      local t = r[i + j - 1] + ai * b[j] + carry
      r[i + j - 1] = t % 10000
      carry = t // 10000
    end
    r[i + #b] = r[i + #b] + carry
  end
  while #r > 1 and r[#r] == 0 do r[#r] = nil end
  return r
end

local function factorial_digits(n)
  local acc = {1}
  for k = 2, n do acc = bigmul(acc, {k % 10000, k // 10000}) end
  local s = {string.format("%d", acc[#acc])}
  for i = #acc - 1, 1, -1 do s[#s + 1] = string.format("%04d", acc[i]) end
  return table.concat(s)
end

-- records: text generation, word counting, sorting, formatting -------------
local function records(n)
  local lines = {}
  for i = 1, n do
    lines[i] = string.format("%05d;%s;%s;%d.%02d;%s", i, words[rnd(#words) + 1], words[rnd(64) + 1],
                             rnd(1000), rnd(100), words[rnd(300) + 1] .. " " .. words[rnd(300) + 1])
  end
  local text = table.concat(lines, "\n")
  local counts, recs = {}, {}
  for id, name, city, score, tags in text:gmatch("(%d+);(%w+);(%w+);([%d%.]+);([^\n]*)") do
    recs[#recs + 1] = {id = tonumber(id), name = name, city = city, score = tonumber(score)}
    for w in tags:gmatch("%a+") do counts[w] = (counts[w] or 0) + 1 end
  end
  table.sort(recs, function(x, y)
    if x.city ~= y.city then return x.city < y.city end
    if x.score ~= y.score then return x.score > y.score end
    return x.id < y.id
  end)
  local keys = {}
  for k in pairs(counts) do keys[#keys + 1] = k end
  table.sort(keys, function(x, y) if counts[x] ~= counts[y] then return counts[x] > counts[y] end return x < y end)
  local h = 0
  for i = 1, #recs do
    local r = recs[i]
    local s = r.city:upper() .. ":" .. r.name:gsub("[aeiou]", "*") .. "=" .. string.format("%.2f", r.score)
    for c = 1, #s, 3 do h = (h * 31 + s:byte(c)) % 4294967291 end
  end
  return h, keys[1], #keys
end

local rounds = tonumber(arg[1] or "1")
local code = assemble(SOURCE:gsub("LIMIT", "20000"))
local total = 0
for r = 0, rounds - 1 do
  local acc, steps = run_vm(code)
  local h, topword, nkeys = records(3000)
  local fact = factorial_digits(150 + r % 5)
  total = (total * 1000003 + acc + steps + h + #fact) % 4294967291
  print(string.format("round %d %d %d %d %s %d %d", r, acc, steps, h, topword, nkeys, #fact))
end
print("total " .. total)
