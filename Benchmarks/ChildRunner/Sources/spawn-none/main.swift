// The baseline: a static Swift program that prints a line and starts nothing.
print("hello", CommandLine.arguments.count)
