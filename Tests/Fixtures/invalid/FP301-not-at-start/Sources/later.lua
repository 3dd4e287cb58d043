return { text = "done" .. }
