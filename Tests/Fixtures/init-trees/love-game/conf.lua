function love.conf(t)
    t.title = "Rescue"
    t.window.width = 256
    t.window.height = 200
end
