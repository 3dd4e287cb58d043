local Banner = {}
function Banner.show(text)
  return "[" .. text .. "]"
end
return Banner
