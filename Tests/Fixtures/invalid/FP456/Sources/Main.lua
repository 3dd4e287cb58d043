-- luacheck 541: an empty do..end block.
do
end
