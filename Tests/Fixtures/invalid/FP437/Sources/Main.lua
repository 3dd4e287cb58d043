-- luacheck 341: a local indexed to set a field where it is always nil.
local options
options.verbose = true
options = {}
print(options)
