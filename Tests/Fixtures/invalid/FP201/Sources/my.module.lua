return 1
