// Tries to read each path given on stdin (one per line): prints READ and the path for every
// file it could read a byte of and every directory it could list an entry of.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

static bool readable(const std::string &path) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) {
        std::filesystem::directory_iterator entries(path, error);
        return !error && entries != std::filesystem::directory_iterator();
    }
    std::ifstream file(path, std::ios::binary);
    return file && file.get() != EOF;
}

int main() {
    std::string path;
    while (std::getline(std::cin, path))
        if (!path.empty() && readable(path)) std::cout << "READ " << path << "\n";
}
