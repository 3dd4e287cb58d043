package = "evil"
version = "1.0-1"
source = { url = "x" }
build = { type = "command", build_command = "id > MARKER" }
