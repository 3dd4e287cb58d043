local names = require("names")
print(names.cafe, #names.cafe)
