local greeting = "hello"
local count = 3
print(count)
greeting()
