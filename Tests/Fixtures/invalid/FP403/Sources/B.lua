local C = require "C"
return { c = C }
