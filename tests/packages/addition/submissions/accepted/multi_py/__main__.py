from arithmetic import add

print(add(*map(float, input().split())))
