---@class Account
---@field owner string
---@field balance number
local Account = {}
Account.__index = Account

---@param owner string
---@return Account
function Account.new(owner)
  return setmetatable({ owner = owner, balance = 0 }, Account)
end

---@param amount number
function Account:deposit(amount)
  self.balance = self.balance + amount
  self.lastDeposit = amount
end

---@param account Account
local function report(account)
  print(account.owner, account.balanse, account.lastDeposit)
end

report(Account.new("ann"))
