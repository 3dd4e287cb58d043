// The floor: a static Swift program that prints one line.
print("hello")
