#include "client/httptarget.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "client/http.h"
#include "client/http_limits.h"
#include "core/clock.h"

/* Bytes of the target's early output searched for its address. */
#define SCAN_BYTES 8192

/* Finds "http://HOST:PORT" in text; returns the port or -1. */
/* Fills pf with the target's open stdout and stderr; returns how many. */
static int target_pollfds(const mc_http_target_t *t, struct pollfd pf[2])
{
    int n = 0;

    if (t->proc.out_fd >= 0) {
        pf[n].fd = t->proc.out_fd;
        pf[n].events = POLLIN;
        n++;
    }
    if (t->proc.err_fd >= 0) {
        pf[n].fd = t->proc.err_fd;
        pf[n].events = POLLIN;
        n++;
    }
    return n;
}

static int find_port(const char *text)
{
    const char *p = text;

    while ((p = strstr(p, "http://")) != NULL) {
        const char *h = p + 7, *c;
        long port;
        char *end;
        if (*h == '[') {
            c = strchr(h, ']');
            c = c != NULL ? c + 1 : NULL;
        } else {
            c = h + strcspn(h, ":/ \t\r\n");
        }
        p += 7;
        if (c == NULL || *c != ':')
            continue;
        port = strtol(c + 1, &end, 10);
        if (end != c + 1 && port > 0 && port <= 65535)
            return (int)port;
    }
    return -1;
}

/* True when a TCP connection to host:port succeeds at once (loopback). */
static int port_open(const char *host, int port)
{
    struct sockaddr_in sa;
    struct sockaddr_in6 sa6;
    int fd, ok;

    memset(&sa, 0, sizeof(sa));
    memset(&sa6, 0, sizeof(sa6));
    if (strcmp(host, "localhost") == 0)
        host = "127.0.0.1";
    if (inet_pton(AF_INET, host, &sa.sin_addr) == 1) {
        sa.sin_family = AF_INET;
        sa.sin_port = htons((unsigned short)port);
        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return 0;
        ok = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
    } else if (inet_pton(AF_INET6, host, &sa6.sin6_addr) == 1) {
        sa6.sin6_family = AF_INET6;
        sa6.sin6_port = htons((unsigned short)port);
        fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return 0;
        ok = connect(fd, (struct sockaddr *)&sa6, sizeof(sa6)) == 0;
    } else {
        return 0;
    }
    close(fd);
    return ok;
}

/* Reads what stdout has ready; appends to scan (bounded). Returns 0 at EOF. */
static int read_stdout(mc_proc_t *p, char *scan, size_t *scan_len)
{
    char buf[4096];
    ssize_t n;

    if (p->out_fd < 0)
        return 0;
    for (;;) {
        n = read(p->out_fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return 1;
        if (n == 0) {
            close(p->out_fd);
            p->out_fd = -1;
            return 0;
        }
        if (scan != NULL && *scan_len + 1 < SCAN_BYTES) {
            size_t k = (size_t)n;
            if (k > SCAN_BYTES - 1 - *scan_len)
                k = SCAN_BYTES - 1 - *scan_len;
            memcpy(scan + *scan_len, buf, k);
            *scan_len += k;
            scan[*scan_len] = '\0';
        }
    }
}

static void *drain_main(void *arg)
{
    mc_http_target_t *t = arg;

    while (!t->drain_stop) {
        struct pollfd pf[2];
        int n = 0;
        n = target_pollfds(t, pf);
        if (n == 0)
            break;
        if (poll(pf, (nfds_t)n, 100) <= 0)
            continue;
        pthread_mutex_lock(&t->mu);
        read_stdout(&t->proc, NULL, NULL);
        mc_proc_drain_stderr(&t->proc);
        pthread_mutex_unlock(&t->mu);
    }
    return NULL;
}

int mc_http_target_start(mc_http_target_t *t, const mc_spawn_opts_t *so, const char *url,
                         int budget_ms, mc_errbuf_t *eb)
{
    char host[256], scan[SCAN_BYTES], tail[1024];
    size_t scan_len = 0;
    int port, rc;
    int64_t deadline = mc_now_ms() + budget_ms;
    const char *path;

    memset(t, 0, sizeof(*t));
    scan[0] = '\0';
    rc = mc_http_url_check(url, 1, host, sizeof(host), &port, eb);
    if (rc != MC_OK)
        return rc;
    rc = mc_proc_spawn(&t->proc, so, eb);
    if (rc != MC_OK)
        return rc;
    path = strchr(url + 7, '/');
    for (;;) {
        struct pollfd pf[2];
        int n = 0, found = -1;
        if (port != 0 && port_open(host, port)) {
            snprintf(t->url, sizeof(t->url), "%s", url);
            break;
        }
        read_stdout(&t->proc, scan, &scan_len);
        mc_proc_drain_stderr(&t->proc);
        if (port == 0) {
            char err[SCAN_BYTES];
            found = find_port(scan);
            if (found < 0 && mc_ring_copy(&t->proc.err, err, sizeof(err)) > 0)
                found = find_port(err);
            if (found > 0) {
                char hb[300];
                if (strchr(host, ':') != NULL)
                    snprintf(hb, sizeof(hb), "[%s]", host);
                else
                    snprintf(hb, sizeof(hb), "%s", host);
                snprintf(t->url, sizeof(t->url), "http://%s:%d%s", hb, found, path ? path : "/");
                break;
            }
        }
        if (mc_proc_try_reap(&t->proc)) {
            char how[200];
            mc_proc_describe(&t->proc, how, sizeof(how));
            tail[0] = '\0';
            mc_ring_copy(&t->proc.err, tail, sizeof(tail));
            mc_errbuf_set(eb, MC_EEXITED, "the server %s before listening%s%.600s", how,
                          tail[0] ? "; stderr: " : "", tail);
            mc_proc_free(&t->proc);
            return MC_EEXITED;
        }
        if (mc_now_ms() >= deadline) {
            tail[0] = '\0';
            mc_ring_copy(&t->proc.err, tail, sizeof(tail));
            mc_errbuf_set(eb, MC_ETIMEOUT,
                          port == 0 ? "the server printed no http://HOST:PORT address within "
                                      "%d ms%s%.600s"
                                    : "nothing listened on the port within %d ms%s%.600s",
                          budget_ms, tail[0] ? "; stderr: " : "", tail);
            mc_proc_shutdown(&t->proc, 0, MC_SHUTDOWN_TERM_GRACE_MS);
            mc_proc_free(&t->proc);
            return MC_ETIMEOUT;
        }
        n = target_pollfds(t, pf);
        poll(pf, (nfds_t)n, 20);
    }
    t->started = 1;
    pthread_mutex_init(&t->mu, NULL);
    if (pthread_create(&t->drainer, NULL, drain_main, t) == 0)
        t->drainer_on = 1;
    return MC_OK;
}

int mc_http_target_alive(mc_http_target_t *t)
{
    int r;

    if (!t->started)
        return 0;
    pthread_mutex_lock(&t->mu);
    r = !mc_proc_try_reap(&t->proc);
    pthread_mutex_unlock(&t->mu);
    return r;
}

size_t mc_http_target_stderr(mc_http_target_t *t, char *buf, size_t cap)
{
    size_t n;

    if (!t->started)
        return 0;
    pthread_mutex_lock(&t->mu);
    n = mc_ring_copy(&t->proc.err, buf, cap);
    pthread_mutex_unlock(&t->mu);
    return n;
}

void mc_http_target_stop(mc_http_target_t *t, int term_grace_ms, char *how, size_t how_cap)
{
    if (!t->started) {
        if (how != NULL && how_cap > 0)
            how[0] = '\0';
        return;
    }
    if (t->drainer_on) {
        t->drain_stop = 1;
        pthread_join(t->drainer, NULL);
        t->drainer_on = 0;
    }
    mc_proc_shutdown(&t->proc, 0, term_grace_ms);
    if (how != NULL)
        mc_proc_describe(&t->proc, how, how_cap);
    mc_proc_free(&t->proc);
    pthread_mutex_destroy(&t->mu);
    t->started = 0;
}
