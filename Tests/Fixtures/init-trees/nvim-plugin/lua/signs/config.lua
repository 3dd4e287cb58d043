local M = { enabled = true }

function M.apply(options)
    for key, value in pairs(options or {}) do
        M[key] = value
    end
end

return M
