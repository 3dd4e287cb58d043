if vim.g.loaded_signs then
    return
end
vim.g.loaded_signs = true
