# Prints the right answer; this comment is Latin-1, not UTF-8: café. Python reads a script
# as UTF-8 unless it declares another encoding, and does not run this one.
print("SK")
