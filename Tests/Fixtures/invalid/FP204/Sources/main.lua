print(getResource("a", "txt"))
return {}
