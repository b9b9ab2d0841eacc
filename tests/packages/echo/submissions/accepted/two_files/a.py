print("not the entry point")
