-- Runs middleclass's own busted specs, spec/*_spec.lua, unchanged, through busted.lua (our
-- stand-in for busted). metamethods_spec.lua loads its Lua 5.2 and 5.3 parts itself.
require("busted").run({
  "spec.class_spec",
  "spec.classes_spec",
  "spec.default_methods_spec",
  "spec.instances_spec",
  "spec.metamethods_spec",
  "spec.mixins_spec",
})
