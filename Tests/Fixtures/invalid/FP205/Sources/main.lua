print(getResource("h2g2", "txt"))
return {}
