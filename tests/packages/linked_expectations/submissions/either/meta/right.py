n = int(input())
print(n * n)  # the entry point submissions.yaml names
