local Player = {}
Player.__index = Player

function Player.new(x, y)
    return setmetatable({ x = x, y = y, speed = 40 }, Player)
end

function Player:update(dt)
    if love.keyboard.isDown("right") then
        self.x = self.x + self.speed * dt
    end
end

return Player
