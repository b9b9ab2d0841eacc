print("hi there")
