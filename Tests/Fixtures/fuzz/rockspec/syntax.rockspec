build = { type = 
