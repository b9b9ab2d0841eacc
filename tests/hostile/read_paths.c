/* Tries to read each path given on stdin (one per line): prints READ and the path for every
   file it could read a byte of and every directory it could list an entry of. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

static int readable(const char *path) {
    DIR *dir = opendir(path);
    if (dir) {
        struct dirent *entry;
        int found = 0;
        while ((entry = readdir(dir)) != NULL)
            found |= strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..");
        closedir(dir);
        return found;
    }
    FILE *file = fopen(path, "rb");
    if (!file) return 0;
    int byte = fgetc(file);
    fclose(file);
    return byte != EOF;
}

int main(void) {
    char path[4096];
    while (fgets(path, sizeof path, stdin)) {
        path[strcspn(path, "\n")] = 0;
        if (*path && readable(path)) printf("READ %s\n", path);
    }
    return 0;
}
