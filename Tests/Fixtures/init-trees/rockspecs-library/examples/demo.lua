print(require("tinylib").sum({ 1, 2 }))
