-- luacheck 551: a `;` that ends no statement.
print("a");;
