return { greeting = "hello" }
