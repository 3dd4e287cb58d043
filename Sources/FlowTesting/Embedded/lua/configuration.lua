-- flowpkg test's reading of busted's configuration, run in a bounded state (BustedConfiguration,
-- Swift): `.busted` evaluated with the functions a configuration uses and nothing that reaches
-- outside, and spec file names matched against busted's Lua patterns.
local mode = ...

local function strings(value)
  if type(value) == "string" then return { value } end
  if type(value) ~= "table" then return {} end
  local list = {}
  for _, item in ipairs(value) do
    if type(item) == "string" or type(item) == "number" then list[#list + 1] = tostring(item) end
  end
  return list
end

if mode == "busted" then
  local _, source, chunkName, task = ...
  local env = {
    string = string, table = table, math = math, pairs = pairs, ipairs = ipairs, type = type, next = next,
    tostring = tostring, tonumber = tonumber, select = select, error = error, assert = assert, pcall = pcall,
    setmetatable = setmetatable, getmetatable = getmetatable, rawget = rawget, rawset = rawset,
    os = { getenv = os.getenv, time = os.time, date = os.date, clock = os.clock },
  }
  local chunk, problem = load(source, "@" .. chunkName, "t", env)
  if not chunk then return nil, problem end
  budget_start()
  local ok, config = pcall(chunk)
  budget_stop()
  if not ok then return nil, tostring(config) end
  if type(config) ~= "table" then return nil, chunkName .. " must return a table of tasks, like { default = { ... } }" end
  local merged = {}
  for _, part in pairs({ [1] = config._all, [2] = config[task] }) do
    if type(part) == "table" then
      for key, value in pairs(part) do merged[key] = value end
    end
  end
  if task ~= "default" and type(config[task]) ~= "table" then
    return nil, chunkName .. " has no task '" .. task .. "'"
  end
  local result = {}
  for _, key in ipairs({ "ROOT", "pattern", "exclude-pattern", "tags", "exclude-tags", "filter", "filter-out" }) do
    local list = strings(merged[key])
    if key == "tags" or key == "exclude-tags" then
      local split = {}
      for _, item in ipairs(list) do
        for tag in item:gmatch("[^,]+") do split[#split + 1] = tag end
      end
      list = split
    end
    result[key] = list
  end
  for _, key in ipairs({ "lpath", "helper", "output", "seed" }) do
    local value = merged[key]
    if type(value) == "string" or type(value) == "number" then result[key] = tostring(value) end
  end
  for _, key in ipairs({ "shuffle", "recursive" }) do
    if type(merged[key]) == "boolean" then result[key] = merged[key] end
  end
  return result
end

if mode == "match" then
  -- Which names busted takes: a pattern found in the name, and no exclusion found in it.
  local _, names, patterns, excludes = ...
  local taken = {}
  for index, name in ipairs(names) do
    local keep = #patterns == 0
    for _, pattern in ipairs(patterns) do
      if name:find(pattern) then keep = true break end
    end
    for _, pattern in ipairs(excludes) do
      if pattern ~= "" and name:find(pattern) then keep = false break end
    end
    taken[index] = keep
  end
  return taken
end
