-- Runs rxi/json.lua's own test, test/test.lua, unchanged. Upstream runs it from its test/
-- folder, where it loads the library with loadfile("../json.lua"); a package has no files
-- beside it, so this start module serves that one path with require "json" (the same file)
-- under flowpkg run and stock lua5.4 alike.
local upstreamLoadfile = loadfile
function loadfile(path, ...)
  if path == "../json.lua" then
    return function() return require "json" end
  end
  return upstreamLoadfile(path, ...)
end

require "test.test"
