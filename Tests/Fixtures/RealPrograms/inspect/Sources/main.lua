-- Runs inspect.lua's own busted spec, spec/inspect_spec.lua, unchanged, through busted.lua (our stand-in for busted).
require("busted").run({ "spec.inspect_spec" })
