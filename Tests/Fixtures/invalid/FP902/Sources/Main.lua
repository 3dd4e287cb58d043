local Shapes = require "Shapes"
print(Shapes.square(2), Shapes.square("3"))
print(Shapes.square("three"))
