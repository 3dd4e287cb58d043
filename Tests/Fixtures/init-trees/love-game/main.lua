require("util")
local Player = require("player")

local player
local image

function love.load()
    image = love.graphics.newImage("data/images/player.png")
    player = Player.new(10, 20)
end

function love.update(dt)
    player:update(dt)
end

function love.draw()
    love.graphics.draw(image, player.x, player.y)
end
