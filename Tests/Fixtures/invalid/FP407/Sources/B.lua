local A = require "A"
return { a = A }
