local Banner = {}
Banner.frame = "+"
return Banner
