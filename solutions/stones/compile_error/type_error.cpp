#include <iostream>
int main() { int n; std::cin >> n; std::string s = n; std::cout << s; }
