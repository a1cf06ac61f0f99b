/* Unguessable seat tokens and room ids: random bytes from the kernel. */
#include <stdio.h>
#include <sys/random.h>

#include "server/srv.h"

int srv_random_hex(char *out, size_t nbytes) {
    unsigned char buf[64];
    if (nbytes > sizeof buf) return -1;
    size_t got = 0;
    while (got < nbytes) {
        ssize_t n = getrandom(buf + got, nbytes - got, 0);
        if (n <= 0) return -1;
        got += (size_t)n;
    }
    for (size_t i = 0; i < nbytes; i++) sprintf(out + 2 * i, "%02x", buf[i]);
    out[2 * nbytes] = 0;
    return 0;
}
