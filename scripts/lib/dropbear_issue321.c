/*
 * Dropbear 2022.82 to 2024.85 ends the whole connection when a command exits while another
 * channel of the same connection is open but has not yet received its command (dropbear issue
 * 321, fixed in 2024.86 by 71521d1b; see docs/servers.md). This shows it with plain libssh2, no
 * rws: channel B is opened and left without a command, command A runs and exits, then B gets
 * its command.
 *
 * Exit status: 0 when the server ended the connection instead of running B's command (the defect
 * is there), 2 when B's command ran and printed its line (it is not), 1 when something else failed.
 *   cc -Wall -Werror -o issue321 scripts/lib/dropbear_issue321.c -lssh2
 *   BENCH_PORT=PORT BENCH_USER=USER BENCH_KEY=KEY BENCH_KEY_PUB=KEY.pub BENCH_KNOWN_HOSTS=FILE ./issue321
 */
#define _GNU_SOURCE
#include <libssh2.h>

#include "libssh2_common.h"

int main(void)
{
    LIBSSH2_SESSION *s;
    LIBSSH2_CHANNEL *a, *b;
    char buffer[256];
    ssize_t n;
    size_t got = 0;
    int rc;

    (void)now_ms; /* shared with the benchmarks, not needed here */
    connection_from_environment("22");
    if(libssh2_init(0))
        die("libssh2_init");
    s = connect_session();

    b = libssh2_channel_open_session(s);
    if(!b)
        die_ssh(s, "opening channel B");
    a = libssh2_channel_open_session(s);
    if(!a)
        die_ssh(s, "opening channel A");
    if(libssh2_channel_exec(a, "echo a"))
        die_ssh(s, "exec on A");
    while((n = libssh2_channel_read(a, buffer, sizeof buffer)) > 0)
        ;
    if(n < 0)
        die_ssh(s, "reading A");
    if(libssh2_channel_close(a) || libssh2_channel_wait_closed(a))
        die_ssh(s, "closing A");
    /* A has exited and the server has closed it; give it a moment to check its other channels. */
    usleep(200 * 1000);

    rc = libssh2_channel_exec(b, "echo b");
    if(rc == 0) {
        while((n = libssh2_channel_read(b, buffer + got, sizeof buffer - 1 - got)) > 0)
            got += (size_t)n;
        buffer[got] = 0;
        if(n == 0 && strcmp(buffer, "b\n") == 0) {
            printf("B's command ran and printed its line: this server does not have the defect\n");
            return 2;
        }
    }
    {
        char *message = NULL;
        libssh2_session_last_error(s, &message, NULL, 0);
        printf("the server ended the connection instead of running B's command (libssh2: %s)\n", message ? message : "");
    }
    return 0;
}
