print("nine")
