-- luacheck 611: a line of nothing but whitespace.
print("a")
   
print("b")
