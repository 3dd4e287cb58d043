-- luacheck 621: indentation with a space followed by a tab.
if #arg > 0 then
 	print("a")
end
