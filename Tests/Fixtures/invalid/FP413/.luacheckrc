allow_defined = true
