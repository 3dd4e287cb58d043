local count = 0
for i = 1, 10 do
  count = count + i
end
if count > 10 then
  print("big" .. )
end
