-- {{module}}: the module other projects require. Sources/{{modulePath}}/init.lua is module
-- {{module}}, as in Lua's own package.path; its parts live in modules below it.

local {{moduleLeaf}} = {
    version = "0.1.0",
    words = require("{{module}}.words"),
    wrap = require("{{module}}.wrap"),
}

return {{moduleLeaf}}
