return { words = function(text) return { text } end }
