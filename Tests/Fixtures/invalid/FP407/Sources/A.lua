local B = require "B"
return { b = B }
