long long square(long long n) { return n * n; }
