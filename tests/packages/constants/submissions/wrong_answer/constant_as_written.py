# A submission is judged as written, its constants not substituted, as BAPCtools judges it.
input()
print("{{factor}}")
