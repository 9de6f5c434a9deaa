/*
 * The connection set-up shared by the C references of rws's benchmarks (libssh2_latency.c,
 * libssh2_transfer.c), taken from ../shared/bench/clients/libssh2_bench.c's conn_open():
 * TCP_NODELAY, algorithm pinning from BENCH_KEX/BENCH_HOSTKEY/BENCH_CIPHER/BENCH_MAC, the host
 * key checked against BENCH_KNOWN_HOSTS, public key authentication. Static functions: include it
 * in one translation unit (after _GNU_SOURCE and the libssh2 headers).
 */
#ifndef RWS_LIBSSH2_COMMON_H
#define RWS_LIBSSH2_COMMON_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char *HOST, *USER, *KEY, *KEY_PUB, *KNOWN_HOSTS;
static int PORT;

static const char *env(const char *k, const char *d)
{
    const char *v = getenv(k);
    return (v && *v) ? v : d;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", program_invocation_short_name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

static void die_ssh(LIBSSH2_SESSION *s, const char *what)
{
    char *msg = NULL;
    int rc = libssh2_session_last_error(s, &msg, NULL, 0);
    die("%s failed: %d %s", what, rc, msg ? msg : "");
}

/* Where to connect, from BENCH_HOST (127.0.0.1), BENCH_PORT (default_port), BENCH_USER (root),
 * and BENCH_KEY, BENCH_KEY_PUB, BENCH_KNOWN_HOSTS, which must be set. */
static void connection_from_environment(const char *default_port)
{
    HOST = env("BENCH_HOST", "127.0.0.1");
    PORT = atoi(env("BENCH_PORT", default_port));
    USER = env("BENCH_USER", "root");
    KEY = env("BENCH_KEY", NULL);
    KEY_PUB = env("BENCH_KEY_PUB", NULL);
    KNOWN_HOSTS = env("BENCH_KNOWN_HOSTS", NULL);
    if(!KEY || !KEY_PUB || !KNOWN_HOSTS)
        die("set BENCH_KEY, BENCH_KEY_PUB and BENCH_KNOWN_HOSTS");
}

/* As conn_open() of libssh2_bench.c. */
static LIBSSH2_SESSION *connect_session(void)
{
    struct sockaddr_in sin;
    LIBSSH2_SESSION *s;
    int sock, one = 1;
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons((unsigned short)PORT);
    if(inet_pton(AF_INET, HOST, &sin.sin_addr) != 1)
        die("BENCH_HOST must be an IPv4 address: %s", HOST);
    sock = socket(AF_INET, SOCK_STREAM, 0);
    if(sock < 0)
        die("socket: %s", strerror(errno));
    setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if(connect(sock, (struct sockaddr *)&sin, sizeof sin) != 0)
        die("connect: %s", strerror(errno));
    s = libssh2_session_init();
    if(!s)
        die("session_init");
    libssh2_session_set_blocking(s, 1);
    {
        const char *kex = env("BENCH_KEX", NULL), *hk = env("BENCH_HOSTKEY", NULL),
                   *ci = env("BENCH_CIPHER", NULL), *mac = env("BENCH_MAC", NULL);
        if(kex && libssh2_session_method_pref(s, LIBSSH2_METHOD_KEX, kex))
            die_ssh(s, "method_pref KEX");
        if(hk && libssh2_session_method_pref(s, LIBSSH2_METHOD_HOSTKEY, hk))
            die_ssh(s, "method_pref HOSTKEY");
        if(ci && (libssh2_session_method_pref(s, LIBSSH2_METHOD_CRYPT_CS, ci) ||
                  libssh2_session_method_pref(s, LIBSSH2_METHOD_CRYPT_SC, ci)))
            die_ssh(s, "method_pref CRYPT");
        if(mac && (libssh2_session_method_pref(s, LIBSSH2_METHOD_MAC_CS, mac) ||
                   libssh2_session_method_pref(s, LIBSSH2_METHOD_MAC_SC, mac)))
            die_ssh(s, "method_pref MAC");
    }
    if(libssh2_session_handshake(s, sock))
        die_ssh(s, "handshake");
    {
        LIBSSH2_KNOWNHOSTS *kh = libssh2_knownhost_init(s);
        size_t len;
        int type, mask;
        const char *key = libssh2_session_hostkey(s, &len, &type);
        struct libssh2_knownhost *found = NULL;
        if(!kh || !key)
            die_ssh(s, "hostkey");
        if(libssh2_knownhost_readfile(kh, KNOWN_HOSTS, LIBSSH2_KNOWNHOST_FILE_OPENSSH) < 0)
            die_ssh(s, "knownhost_readfile");
        mask = LIBSSH2_KNOWNHOST_TYPE_PLAIN | LIBSSH2_KNOWNHOST_KEYENC_RAW;
        switch(type) {
        case LIBSSH2_HOSTKEY_TYPE_RSA: mask |= LIBSSH2_KNOWNHOST_KEY_SSHRSA; break;
        case LIBSSH2_HOSTKEY_TYPE_ED25519: mask |= LIBSSH2_KNOWNHOST_KEY_ED25519; break;
        case LIBSSH2_HOSTKEY_TYPE_ECDSA_256: mask |= LIBSSH2_KNOWNHOST_KEY_ECDSA_256; break;
        default: die("unexpected host key type %d", type);
        }
        if(libssh2_knownhost_checkp(kh, HOST, PORT, key, len, mask, &found) != LIBSSH2_KNOWNHOST_CHECK_MATCH)
            die("host key check failed against %s", KNOWN_HOSTS);
        libssh2_knownhost_free(kh);
    }
    if(libssh2_userauth_publickey_fromfile(s, USER, KEY_PUB, KEY, ""))
        die_ssh(s, "userauth_publickey_fromfile");
    return s;
}

#endif
