print(getResource("h2g2", "txt"))
print(getResource("verse/ode", "txt"))
print(getResource("verse/old/sonnet", "txt"))
