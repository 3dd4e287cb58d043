local Player = {}
Player.__index = Player

function Player.new(x, y)
    return setmetatable({ x = x, y = y, speed = SPEED }, Player)
end

function Player:update(dt)
    if love.keyboard.isDown("right") then
        self.x = clamp(self.x + self.speed * dt, 0, 256)
    end
end

return Player
