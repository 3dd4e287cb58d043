local config = require("signs.config")

local M = {}

function M.setup(options)
    config.apply(options)
    vim.api.nvim_create_user_command("Signs", function()
        vim.notify("signs: " .. tostring(config.enabled))
    end, {})
end

return M
