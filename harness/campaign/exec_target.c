/*
 * exec_target.c - the target the executor runs sequences against: a
 * persistent server process over stdio, or an HTTP session (with the
 * server started here when there is a command).
 *
 * Promises: a start goes through the session prefix (initialize at the
 * requested version with the client's capabilities, then
 * notifications/initialized) with a fresh judge and fresh per-process
 * bookkeeping (ids sent, inbound records, the coverage map zeroed); a stop
 * ends the session and the process (as the spec advises: stdin closed,
 * then SIGTERM, then SIGKILL) and frees what the start made; a death is
 * told apart as a crash (a signal we did not send, or a sanitizer report,
 * with its signature) or an exit, with the stderr tail kept; the memory
 * oracle reads the resident size from /proc.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "campaign/exec_internal.h"
#include "client/http_limits.h"
#include "core/clock.h"
#include "core/json.h"

void mc_exec_stop(mc_exec_t *x)
{
    if (x->http != NULL) {
        long status = 0;
        /* The session ends with DELETE; a server we started stops too. */
        (void)mc_http_close(x->http, MC_HTTP_DELETE_TIMEOUT_MS, &status);
        mc_http_free(x->http);
        x->http = NULL;
        x->running = 0;
    }
    if (x->ht_on) {
        mc_http_target_stop(&x->ht, MC__EXEC_STOP_TERM_GRACE_MS, NULL, 0);
        x->ht_on = 0;
    }
    if (x->running) {
        mc_stdio_stop(&x->t, MC__EXEC_STOP_STDIN_GRACE_MS, MC__EXEC_STOP_TERM_GRACE_MS);
        x->running = 0;
    }
    if (x->sess_ok) {
        mc_session_free(&x->s);
        x->sess_ok = 0;
    }
    if (x->wire_ok) {
        mc_judge_free(&x->j);
        x->wire_ok = 0;
    }
    if (x->t_inited) {
        mc_stdio_free(&x->t);
        memset(&x->t, 0, sizeof(x->t));
        x->t_inited = 0;
    }
}

void mc__exec_stop_spare(mc_exec_t *x)
{
    if (!x->spare_on)
        return;
    mc_stdio_stop(&x->spare, MC__EXEC_STOP_STDIN_GRACE_MS, MC__EXEC_STOP_TERM_GRACE_MS);
    mc_stdio_free(&x->spare);
    memset(&x->spare, 0, sizeof(x->spare));
    x->spare_on = 0;
}

/* Starts the spare process when the options ask for one and the target is
 * known not to write the coverage map (a spare's start-up would otherwise
 * land in the map of the process in use). A spare that cannot be started
 * is no error: the next start spawns its own. */
static void start_spare(mc_exec_t *x, const mc_spawn_opts_t *so)
{
    mc_errbuf_t eb;

    if (!x->o.spare || x->spare_on || x->o.url != NULL)
        return;
    if (x->map != NULL) {
        const mc_exec_t *tw = x->o.twin;
        int seen = x->seqs_run > 0 || (tw != NULL && tw->seqs_run > 0);
        if (!seen || x->instrumented || (tw != NULL && tw->instrumented))
            return;
    }
    mc_errbuf_clear(&eb);
    if (mc_stdio_start(&x->spare, so, &eb) == MC_OK)
        x->spare_on = 1;
}

void mc__exec_drain_notes(mc_exec_t *x)
{
    mc_msg_t m;

    while (x->s.notes_count > 0 && mc_session_next_notification(&x->s, 0, &m) == MC_OK)
        mc_msg_free(&m);
}

/* Over HTTP: starts the server when there is a command (and waits until it
 * listens), then a transport for the endpoint. Every failure here is the
 * harness's (MC_ESPAWN): the target could not be reached at all. */
static int start_http(mc_exec_t *x, const mc_spawn_opts_t *so, mc_link_t *link, mc_errbuf_t *eb)
{
    mc_http_opts_t ho;

    snprintf(x->url, sizeof(x->url), "%s", x->o.url);
    if (x->o.argv != NULL && x->o.argv[0] != NULL) {
        if (mc_http_target_start(&x->ht, so, x->o.url, MC_HTTP_STARTUP_BUDGET_MS, eb) != MC_OK)
            return MC_ESPAWN;
        x->ht_on = 1;
        snprintf(x->url, sizeof(x->url), "%s", x->ht.url);
    }
    memset(&ho, 0, sizeof(ho));
    ho.url = x->url;
    ho.get_stream = 1;
    ho.allow_remote = x->o.allow_remote;
    x->http = mc_http_new(&ho, eb);
    if (x->http == NULL)
        return MC_ESPAWN;
    *link = mc_http_link(x->http);
    return MC_OK;
}

int mc__exec_start(mc_exec_t *x, mc_errbuf_t *eb)
{
    mc_spawn_opts_t so;
    mc_session_opts_t sopts;
    mc_link_t link;
    int64_t began;
    int rc;

    memset(&so, 0, sizeof(so));
    so.argv = x->o.argv;
    so.cwd = x->o.cwd;
    so.limits = x->o.limits;
    so.envp = x->envp;
    memset(&x->t, 0, sizeof(x->t));
    if (mc_judge_init(&x->j, x->o.registry) != MC_OK)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    x->j.detail_at_instance = 1;
    x->wire_ok = 1;
    snprintf(x->version, sizeof(x->version), "%s", x->o.version);
    x->seq_ctr = 0;
    x->inl_n = 0;
    x->n_late_watch = 0; /* the ids of a new process start again */
    x->barrier_id[0] = '\0';
    x->proc_chatter = 0;
    mc__exec_feed_reset_process(x);
    mc__exec_cov_clear(x);
    if (x->o.url != NULL) {
        rc = start_http(x, &so, &link, eb);
        if (rc != MC_OK)
            return rc;
    } else {
        if (x->spare_on) {
            x->t = x->spare; /* started earlier: its start-up is behind it */
            memset(&x->spare, 0, sizeof(x->spare));
            x->spare_on = 0;
        } else {
            rc = mc_stdio_start(&x->t, &so, eb);
            if (rc != MC_OK)
                return rc;
        }
        x->t_inited = 1;
        link = mc_stdio_link(&x->t);
        start_spare(x, &so);
    }
    x->running = 1;
    x->starts++;
    memset(&sopts, 0, sizeof(sopts));
    sopts.observer = mc__exec_observe;
    sopts.observer_ctx = x;
    sopts.judge = &x->j;
    x->j.follow = x->version;
    x->j.counted = &x->seq_ctr;
    sopts.responder = mc__exec_respond;
    sopts.responder_ctx = x;
    if (mc_session_init(&x->s, link, &sopts) != MC_OK)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    x->sess_ok = 1;
    x->seqs_in_proc = 0;
    began = mc_now_ms();
    rc = mc_session_initialize(&x->s, x->o.version, x->client_caps,
                               x->o.hang_ms > MC_EXEC_START_MS ? x->o.hang_ms : MC_EXEC_START_MS,
                               eb);
    mc__exec_drain_notes(x);
    x->cnt.starts++;
    x->cnt.start_ms += (uint64_t)(mc_now_ms() - began);
    if (rc == MC_OK) {
        snprintf(x->version, sizeof(x->version), "%s", x->s.negotiated_version);
        if (x->http != NULL)
            mc_http_after_handshake(x->http); /* the GET stream, as a run opens it */
    }
    return rc;
}

json_object *mc__exec_ping_request(const mc_exec_t *x, const char *idtext)
{
    json_object *req = json_object_new_object(), *meta = mc_exec_request_meta(x), *params;

    if (req == NULL) {
        json_object_put(meta);
        return NULL;
    }
    json_object_object_add(req, "jsonrpc", json_object_new_string("2.0"));
    json_object_object_add(req, "id", json_object_new_string(idtext));
    json_object_object_add(req, "method",
                           json_object_new_string(meta != NULL ? "server/discover" : "ping"));
    if (meta != NULL && (params = json_object_new_object()) != NULL) {
        json_object_object_add(params, "_meta", json_object_get(meta));
        json_object_object_add(req, "params", params);
    }
    json_object_put(meta);
    return req;
}

/* Asks whether the server still serves: a ping, or at a stateless version
 * (which has no ping) a server/discover with the per-request _meta. Any
 * answer, an error too, says it does. */
int mc__exec_alive(mc_exec_t *x)
{
    char idtext[48];
    json_object *req;
    const char *line;
    mc_msg_t resp;
    int rc = MC_ENOMEM;

    snprintf(idtext, sizeof(idtext), "mcpcheck-alive-%llu", (unsigned long long)x->seq_ctr);
    req = mc__exec_ping_request(x, idtext);
    if (req != NULL) {
        line = json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN);
        rc = mc_session_raw_request(&x->s, line, strlen(line), mc_json_get(req, "id"),
                                    x->o.hang_ms, &resp);
    }
    json_object_put(req);
    mc__exec_drain_notes(x);
    if (rc != MC_OK)
        return 0;
    mc_msg_free(&resp);
    return 1;
}

/*
 * The finding of a server process p that ended while doing (out->tail
 * holds its stderr's tail; how says how it ended): a crash when a signal
 * not ours killed it or its stderr holds a sanitizer report (which may be
 * followed by a plain exit, exitcode=1), else an exit.
 */
static void add_death(const mc_proc_t *p, mc_exec_outcome_t *out, const char *how,
                      const char *doing)
{
    char sig[200], detail[400];

    mc_exec_tail_signature(out->tail, sig, sizeof(sig));
    snprintf(detail, sizeof(detail), "the server %s while %s", how, doing);
    if (p->reaped && WIFSIGNALED(p->status) && p->signalled_by_us == 0) {
        char sname[32];
        snprintf(sname, sizeof(sname), "signal %d", WTERMSIG(p->status));
        mc__exec_add_finding(out, MC_FIND_CRASH, "process/crash", "", sig[0] ? sig : sname, detail);
    } else if (sig[0] != '\0') {
        mc__exec_add_finding(out, MC_FIND_CRASH, "process/crash", "", sig, detail);
    } else {
        mc__exec_add_finding(out, MC_FIND_EXIT, "process/exit", "", "", detail);
    }
}

/* note_death for an HTTP target: the server we started died, or the
 * endpoint stopped serving. */
static void note_death_http(mc_exec_t *x, mc_exec_outcome_t *out, const char *doing)
{
    char how[200], detail[400];
    const char *failure = x->http != NULL ? mc_http_failure(x->http) : NULL;

    if (x->ht_on && !mc_http_target_alive(&x->ht)) {
        const mc_proc_t *p = &x->ht.proc;
        mc_proc_describe(p, how, sizeof(how));
        mc_http_target_stderr(&x->ht, out->tail, sizeof(out->tail));
        add_death(p, out, how, doing);
        return;
    }
    snprintf(detail, sizeof(detail), "the endpoint stopped serving (%.200s) while %s",
             failure != NULL ? failure : "the session ended", doing);
    mc__exec_add_finding(out, MC_FIND_EXIT, "process/exit", "", "", detail);
}

void mc__exec_note_death(mc_exec_t *x, mc_exec_outcome_t *out, const char *doing)
{
    char how[200];
    const mc_proc_t *p = &x->t.proc;

    if (x->o.url != NULL) {
        note_death_http(x, out, doing);
        return;
    }
    if (!mc_proc_wait(&x->t.proc, 500)) {
        /* Output closed but the process lives on: stop it. */
        mc_stdio_stop(&x->t, MC__EXEC_STOP_STDIN_GRACE_MS, MC__EXEC_STOP_TERM_GRACE_MS);
    }
    while (mc_proc_drain_stderr(&x->t.proc) > 0)
        ;
    mc_ring_copy(&p->err, out->tail, sizeof(out->tail));
    mc_proc_describe(p, how, sizeof(how));
    add_death(p, out, how, doing);
}

static uint64_t rss_bytes(pid_t pid)
{
    char path[64], buf[128];
    FILE *f;
    unsigned long long size = 0, res = 0;

    snprintf(path, sizeof(path), "/proc/%ld/statm", (long)pid);
    f = fopen(path, "r");
    if (f == NULL)
        return 0;
    if (fgets(buf, sizeof(buf), f) == NULL || sscanf(buf, "%llu %llu", &size, &res) != 2)
        res = 0;
    fclose(f);
    return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
}

int mc__exec_gone(mc_exec_t *x)
{
    if (x->o.url == NULL)
        return x->t.stdout_eof || x->s.eof || mc_proc_try_reap(&x->t.proc);
    return x->s.eof || (x->ht_on && !mc_http_target_alive(&x->ht)) ||
           (x->http != NULL && mc_http_failure(x->http) != NULL);
}

void mc__exec_check_memory(mc_exec_t *x, mc_exec_outcome_t *out)
{
    uint64_t rss;
    char detail[160];

    if (!x->running || x->o.mem_limit_mb == 0 || (x->o.url != NULL && !x->ht_on))
        return;
    rss = rss_bytes(x->o.url == NULL ? x->t.proc.pid : x->ht.proc.pid);
    if (rss <= x->o.mem_limit_mb * 1024u * 1024u)
        return;
    snprintf(detail, sizeof(detail), "resident size %llu MiB, over the %llu MiB limit",
             (unsigned long long)(rss >> 20), (unsigned long long)x->o.mem_limit_mb);
    mc__exec_add_finding(out, MC_FIND_MEMORY, "process/memory", "", "", detail);
    mc_exec_stop(x);
}
