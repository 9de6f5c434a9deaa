/*
 * shell_echo for libssh2_latency.c, as rws-bench's: a PTY and a login shell with the prompt "> ",
 * then `a` and DEL typed in turn, each timed until its echo (`a`, then a backspace) has arrived.
 * Static functions: include it in one translation unit, after libssh2_common.h.
 */
#ifndef RWS_LIBSSH2_LATENCY_SHELL_H
#define RWS_LIBSSH2_LATENCY_SHELL_H

/* The shell's output not yet matched by wait_for. */
static char g_term[65536];
static size_t g_termlen;

/* Reads the shell's output until `pattern` has arrived (blocking), and drops it and what came before. */
static void wait_for(LIBSSH2_SESSION *s, LIBSSH2_CHANNEL *ch, const char *pattern, size_t plen)
{
    for(;;) {
        ssize_t n;
        char *hit = memmem(g_term, g_termlen, pattern, plen);
        if(hit) {
            size_t end = (size_t)(hit - g_term) + plen;
            memmove(g_term, g_term + end, g_termlen - end);
            g_termlen -= end;
            return;
        }
        if(g_termlen == sizeof g_term)
            g_termlen = 0;
        n = libssh2_channel_read(ch, g_term + g_termlen, sizeof g_term - g_termlen);
        if(n <= 0)
            die_ssh(s, "shell read (or the shell ended)");
        g_termlen += (size_t)n;
    }
}

/* `warm` untimed keys, then `n` timed into `ms`. */
static void shell_echo(LIBSSH2_SESSION *s, double *ms, int n, int warm)
{
    static const char setup[] = "PS1='> '; echo RWS''READY\r";
    LIBSSH2_CHANNEL *ch = libssh2_channel_open_session(s);
    double t0;
    int i;
    if(!ch)
        die_ssh(s, "channel_open_session");
    if(libssh2_channel_request_pty_ex(ch, "xterm-256color", 14, NULL, 0, 80, 24, 0, 0))
        die_ssh(s, "request_pty");
    if(libssh2_channel_exec(ch, "exec \"${SHELL:-/bin/sh}\" -l"))
        die_ssh(s, "exec shell");
    if(libssh2_channel_write(ch, setup, sizeof setup - 1) != (ssize_t)(sizeof setup - 1))
        die_ssh(s, "shell write");
    wait_for(s, ch, "RWSREADY", 8);
    wait_for(s, ch, "> ", 2);
    for(i = 0; i < warm + n; i++) {
        int letter = i % 2 == 0;
        char key = letter ? 'a' : 0x7f, echo = letter ? 'a' : 0x08;
        t0 = now_ms();
        if(libssh2_channel_write(ch, &key, 1) != 1)
            die_ssh(s, "shell write");
        wait_for(s, ch, &echo, 1);
        if(i >= warm)
            ms[i - warm] = now_ms() - t0;
    }
    libssh2_channel_close(ch);
    libssh2_channel_free(ch);
}

#endif
