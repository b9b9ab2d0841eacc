a, b = map(float, input().split())
print(f"{a + b:.10g}")
