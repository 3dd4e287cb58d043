package = "m"
version = "1.0-1"
build = { type = "make" }
