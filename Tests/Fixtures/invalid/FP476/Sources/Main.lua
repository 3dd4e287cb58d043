-- luacheck 631: a line over the limit (120 characters unless .luacheckrc sets another).
print("this line is longer than one hundred and twenty characters, which is the limit unless the project's .luacheckrc sets another")
