-- Latin-1 text, as older code bases keep it.
return { cafe = "café" }
