/* Tries to reach a server on the host's loopback (the port comes on stdin) and the outside
   world; prints CONNECTED for any connection made. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

static void try_connect(const char *address, int port) {
    struct sockaddr_in target = {.sin_family = AF_INET, .sin_port = htons(port)};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        perror("socket");
        return;
    }
    inet_pton(AF_INET, address, &target.sin_addr);
    if (connect(fd, (struct sockaddr *)&target, sizeof target) == 0) printf("CONNECTED %s:%d\n", address, port);
    else perror(address);
    close(fd);
}

int main(void) {
    int port;
    if (scanf("%d", &port) != 1) return 1;
    try_connect("127.0.0.1", port);
    try_connect("1.1.1.1", 53);
    return 0;
}
