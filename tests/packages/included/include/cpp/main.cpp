// The problem's own main program: the submission defines long long square(long long).
#include <cstdio>
long long square(long long n);
int main() { long long n; if (scanf("%lld", &n) != 1) return 1; printf("%lld\n", square(n)); }
