print(getResource("Logo", "png"))
return {}
