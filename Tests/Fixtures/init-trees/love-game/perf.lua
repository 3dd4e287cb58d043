-- A benchmark run by hand with luajit: not part of the game.
local started = os.clock()
local total = 0
for i = 1, 1000000 do
    total = total + i % 7
end
print(("%d in %.3f s"):format(total, os.clock() - started))
