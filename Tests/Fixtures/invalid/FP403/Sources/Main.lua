local A = require "A"
A.run()
