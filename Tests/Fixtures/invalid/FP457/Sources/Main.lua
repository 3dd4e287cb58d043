-- luacheck 542: an empty if branch.
local ready = os.time() > 0
if ready then
end
