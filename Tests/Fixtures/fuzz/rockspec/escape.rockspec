os.execute("id > MARKER") io.open("/tmp/x", "w") require("os")
