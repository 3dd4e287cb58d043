-- A busted output handler (busted -o THIS_FILE) that prints each outcome as
-- "status<TAB>full name" in the order busted reaches it: a test's end, and every error outside
-- a test. BustedParityTests reads it to compare flowpkg test with busted itself.
return function(options)
  local busted = require("busted")
  local handler = require("busted.outputHandlers.base")()
  busted.subscribe({ "test", "end" }, function(element, parent, status)
    io.write(status, "\t", handler.getFullName(element), "\n")
    return nil, true
  end)
  busted.subscribe({ "error" }, function(element)
    if element.descriptor ~= "it" then io.write("error\t", handler.getFullName(element), "\n") end
    return nil, true
  end)
  return handler
end
