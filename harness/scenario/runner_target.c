/*
 * runner_target.c - the target's lifecycle in a run: how long it may take,
 * a target that is gone or cannot be used, the gates after initialize
 * (versions, capabilities, roles) and its shutdown (see runner_int.h).
 */
#include "scenario/runner_int.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "core/clock.h"
#include "core/json.h"
#include "core/limits.h"
#include "core/version.h"
#include "scenario/fixtures.h"

/* The time the target gets to start and answer initialize. */
int mc__runner_startup_budget(const rctx_t *c)
{
    return c->o->startup_timeout_ms ? c->o->startup_timeout_ms : MC_DEFAULT_STARTUP_TIMEOUT_MS;
}

int mc__runner_time_left(rctx_t *c, int want)
{
    int64_t left = c->deadline - mc_now_ms();

    if (left <= 0)
        return 0;
    return want < left ? want : (int)left;
}

/* Counts the target as unusable for this run; gives up on it (see
 * mc_runner_shared_t) when no run has completed and enough have failed so,
 * or at once when final is set. */
void mc__runner_note_unusable(rctx_t *c, int final)
{
    mc_runner_shared_t *sh = c->o->shared;
    int n, expected = 0;

    if (c->unusable)
        return;
    c->unusable = 1;
    if (sh == NULL || c->o->stop == NULL)
        return;
    n = ++sh->unusable;
    if (sh->usable > 0 || (n < MC_EARLY_STOP_HANDSHAKE_FAILURES && !final))
        return;
    if (atomic_compare_exchange_strong(&sh->reason_set, &expected, 1)) {
        snprintf(sh->reason, sizeof(sh->reason), "%s", c->res->reason ? c->res->reason : "");
        sh->abort = 1;
    }
    *c->o->stop = 1;
}

/* Marks the target dead after EOF / a send failure / a flood; the scenario
 * is ERROR, its reason names the cause. */
void mc__runner_target_gone(rctx_t *c, int rc, const char *doing)
{
    char how[200];
    unsigned long long n = (unsigned long long)c->seq_in;

    if (c->dead)
        return;
    c->dead = 1;
    if (c->http_on && mc_http_sse_absent(c->http.http)) {
        mc_sresult_set(c->res, MC_SKIP,
                       "the server offers no HTTP+SSE transport, the HTTP transport of %s, at "
                       "the URL: %s",
                       c->version,
                       mc_http_failure(c->http.http) ? mc_http_failure(c->http.http) : "");
        return;
    }
    if (c->http_on) {
        char why[300];
        mc_http_describe(c->http.http, why, sizeof(why));
        mc_sresult_set(c->res, MC_ERROR, "the server stopped answering over HTTP while %s (%s)",
                       doing, why[0] ? why : "no HTTP answer");
        return;
    }
    if (rc == MC_EINTR) {
        mc_sresult_set(c->res, MC_ERROR, "the run was interrupted");
        return;
    }
    if (rc == MC_EFLOOD) {
        mc_sresult_set(c->res, MC_ERROR, "the server flooded the client while %s: %s", doing,
                       c->s.flood_desc);
        mc__runner_note_unusable(c, 0);
        return;
    }
    if (rc == MC_ETOOBIG) {
        mc_sresult_set(c->res, MC_ERROR,
                       "the server wrote a line over the %u-byte message limit and no answer "
                       "came while %s, after %llu message%s",
                       MC_MAX_MESSAGE_SIZE, doing, n, n == 1 ? "" : "s");
        return;
    }
    mc_proc_wait(&c->t.proc, 1000);
    mc_proc_describe(&c->t.proc, how, sizeof(how));
    if (c->t.proc.reaped)
        mc_sresult_set(
            c->res, MC_ERROR, "the server %s%s while %s, after %llu message%s%s",
            strncmp(how, "killed", 6) == 0 ? "was " : "", how, doing, n, n == 1 ? "" : "s",
            c->t.target_exited ? " (a process it left behind still held its stdout)" : "");
    else
        mc_sresult_set(c->res, MC_ERROR,
                       "the server %s while %s, after %llu message%s, though its process is "
                       "still running",
                       rc == MC_EEOF ? "closed its output" : "stopped reading", doing, n,
                       n == 1 ? "" : "s");
}

/* After a wait of the session: 0 to go on (OK, timeout), else the target is
 * gone (the scenario ends, -1). */
int mc__runner_wait_ok(rctx_t *c, int rc, const char *doing)
{
    if (rc == MC_OK || rc == MC_ETIMEOUT)
        return 0;
    mc__runner_target_gone(c, rc, doing);
    return -1;
}

/* True when the server's capabilities hold the dotted path (e.g.
 * "resources.subscribe": an object member, or a true boolean). */
int mc__runner_server_has(json_object *caps, const char *path)
{
    char buf[128];
    char *seg, *dot;
    json_object *cur = caps;

    snprintf(buf, sizeof(buf), "%s", path);
    for (seg = buf; seg != NULL; seg = dot) {
        dot = strchr(seg, '.');
        if (dot != NULL)
            *dot++ = '\0';
        cur = mc_json_get(cur, seg);
        if (cur == NULL)
            return 0;
    }
    if (json_object_is_type(cur, json_type_boolean))
        return json_object_get_boolean(cur);
    return !json_object_is_type(cur, json_type_null);
}

/* ${server_versions_older}: the versions with an initialize handshake the
 * probe saw the server speak, but the newest of them, as a new array; empty
 * when the probe could not tell (sv NULL). NULL when out of memory. */
static json_object *older_spoken(const char *const *sv)
{
    json_object *v = json_object_new_array();
    const char *newest = NULL;
    const char *const *p;

    for (p = sv; v != NULL && p != NULL && *p != NULL; p++)
        if (mc_version_has(*p, MC_VF_INITIALIZE) && (newest == NULL || strcmp(*p, newest) > 0))
            newest = *p;
    for (p = sv; v != NULL && p != NULL && *p != NULL; p++)
        if (mc_version_has(*p, MC_VF_INITIALIZE) && strcmp(*p, newest) < 0)
            json_object_array_add(v, json_object_new_string(*p));
    return v;
}

void mc__runner_set_role_vars(rctx_t *c)
{
    json_object *v;

    if (c->o->roles != NULL) {
        json_object_object_foreach(c->o->roles, role, val)
        {
            char name[160];
            snprintf(name, sizeof(name), "role:%s", role);
            mc_vars_set(&c->vars, name, val);
        }
    }
    v = json_object_new_string(c->version);
    mc_vars_set(&c->vars, "version", v);
    json_object_put(v);
    v = json_object_new_array();
    if (v != NULL) {
        const char *const *sv = c->o->server_versions;
        for (sv = sv != NULL ? sv : mc_version_names(); *sv != NULL; sv++)
            if (c->o->server_versions != NULL || mc_version_has(*sv, MC_VF_INITIALIZE))
                json_object_array_add(v, json_object_new_string(*sv));
        mc_vars_set(&c->vars, "server_versions", v);
        json_object_put(v);
    }
    v = older_spoken(c->o->server_versions);
    if (v != NULL) {
        mc_vars_set(&c->vars, "server_versions_older", v);
        json_object_put(v);
    }
    /* ${initialize}: the result of the runner's handshake (of server/discover
     * at a stateless version), on a process of the run's own or one it
     * shares (the same version and client capabilities). */
    if (!c->sc->manual_init && c->session_ok && c->s.init_result != NULL)
        mc_vars_set(&c->vars, "initialize", c->s.init_result);
}

void mc__runner_fixture_opts(const rctx_t *c, mc_fixture_opts_t *fo, json_object *behaviours)
{
    memset(fo, 0, sizeof(*fo));
    fo->roles = c->o->roles;
    fo->safe_tools = c->o->safe_tools;
    fo->args = c->o->args;
    fo->call_tools = c->o->call_tools;
    fo->user_profile = c->o->user_profile;
    fo->behaviours = behaviours;
}

/*
 * Resolves the scenario's roles against what the server lists (after the
 * capability gate). Sets ${role:NAME} to each resolved value. Returns 0
 * when every role is offered; otherwise sets the verdict (NOT-VERIFIED for
 * a fixture the server does not offer, SKIP for a capability it does not
 * declare or a shape nothing it offers has) and returns -1.
 */
int mc__runner_resolve_roles(rctx_t *c)
{
    mc_fixture_opts_t fo;
    mc_offer_t offer;
    size_t i;
    int ret = 0;

    if (c->sc->n_roles == 0)
        return 0;
    mc__runner_fixture_opts(c, &fo, mc_json_get(c->o->behaviours, c->version));
    fo.server_caps = c->s.server_caps;
    fo.timeout_ms = c->step_timeout;
    mc_offer_init(&offer);
    for (i = 0; i < c->sc->n_roles && ret == 0; i++) {
        json_object *val = NULL;
        char why[512], name[160];
        int srv_rc = MC_OK;
        mc_role_status_t st = mc_fixture_resolve(&c->s, &offer, &fo, c->sc->roles[i], &val, why,
                                                 sizeof(why), &srv_rc);
        mc__runner_drain(c);
        switch (st) {
        case MC_ROLE_OFFERED:
            snprintf(name, sizeof(name), "role:%s", c->sc->roles[i]);
            mc_vars_set(&c->vars, name, val);
            json_object_put(val);
            break;
        case MC_ROLE_NO_CAPABILITY:
        case MC_ROLE_ABSENT:
            mc_sresult_set(c->res, MC_SKIP, "%s", why);
            ret = -1;
            break;
        case MC_ROLE_UNKNOWN:
            if (srv_rc == MC_EEOF || srv_rc == MC_EEXITED || srv_rc == MC_EFLOOD ||
                srv_rc == MC_EINTR || srv_rc == MC_ETOOBIG) {
                mc__runner_target_gone(c, srv_rc, "listing fixtures");
                ret = -1;
                break;
            }
            /* fall through */
        default:
            mc_sresult_set(c->res, MC_NOT_VERIFIED, "%s", why);
            free(c->res->role);
            c->res->role = strdup(c->sc->roles[i]);
            ret = -1;
        }
    }
    if (mc_offer_note(&offer)[0] != '\0') {
        free(c->res->fixtures);
        c->res->fixtures = strdup(mc_offer_note(&offer));
    }
    mc_offer_free(&offer);
    return ret;
}

/* The level class of lifecycle/shutdown/stdio at the run's version, as a bit
 * of mc_runner_shared_t.shutdown_noted: 2 from 2026-07-28, whose stdio page
 * asks the server to exit when its stdin closes (SHOULD), 1 before (INFO). */
static int shutdown_class(const rctx_t *c)
{
    return mc_version_has(c->version, MC_VF_STATELESS) ? 2 : 1;
}

/*
 * Reports, once per suite and level class, a target that had to be signalled
 * to stop (up to 2025-11-25 the shutdown sequence is the client's SHOULD: an
 * INFO observation; from 2026-07-28 the server's own SHOULD), and remembers
 * it so that later runs do not wait out the same grace again.
 */
static void note_shutdown(rctx_t *c, int sig, int stdin_grace, int term_grace)
{
    mc_runner_shared_t *sh = c->o->shared;
    char msg[300];
    int bit = shutdown_class(c);

    if (sig == 0)
        return;
    if (sh != NULL) {
        sh->ignores_eof = 1;
        if (sig == SIGKILL)
            sh->ignores_term = 1;
    }
    if (sig == SIGKILL)
        snprintf(msg, sizeof(msg),
                 "the server did not exit within %d ms of its stdin closing, nor within %d ms "
                 "of SIGTERM; it was killed with SIGKILL",
                 stdin_grace, term_grace);
    else
        snprintf(msg, sizeof(msg),
                 "the server did not exit within %d ms of its stdin closing; it was stopped "
                 "with SIGTERM",
                 stdin_grace);
    if (sh == NULL || (atomic_fetch_or(&sh->shutdown_noted, bit) & bit) == 0)
        mc__runner_check(c, "lifecycle/shutdown/stdio", 0, msg, "exit after stdin closes",
                         sig == SIGKILL ? "ignored stdin EOF and SIGTERM" : "ignored stdin EOF", "",
                         0, 0);
}

void mc__runner_finish_target(rctx_t *c)
{
    char tail[4096], how[200];
    int sig, stdin_grace = MC_SHUTDOWN_STDIN_GRACE_MS, term_grace = MC_SHUTDOWN_TERM_GRACE_MS;
    mc_runner_shared_t *sh = c->o->shared;
    int learned = 0;

    if (c->http_on) {
        mc_httprun_finish(&c->http, &c->j, c->res, c->seq_all, mc_now_ms() - c->t0);
        c->http_on = 0;
        return;
    }
    if (!c->started)
        return;
    /* A grace the target is known to ignore is not waited out again, once
     * the finding has been reported at the level of this run's version. */
    if (sh != NULL && sh->ignores_eof && (sh->shutdown_noted & shutdown_class(c)) != 0) {
        stdin_grace = MC_SHUTDOWN_LEARNED_GRACE_MS;
        learned = 1;
    }
    if (sh != NULL && sh->ignores_term)
        term_grace = MC_SHUTDOWN_LEARNED_GRACE_MS;
    /* An interrupted run ends within a second; a second interrupt at once. */
    if (c->o->stop != NULL && *c->o->stop) {
        stdin_grace = term_grace = *c->o->stop > 1 ? 0 : MC_SHUTDOWN_LEARNED_GRACE_MS;
        learned = 1;
    }
    sig = mc_stdio_stop(&c->t, stdin_grace, term_grace);
    if (!learned && c->session_ok)
        note_shutdown(c, sig, stdin_grace, term_grace);
    mc_proc_describe(&c->t.proc, how, sizeof(how));
    c->res->exit_desc = strdup(how);
    if (mc_ring_copy(&c->t.proc.err, tail, sizeof(tail)) > 0)
        c->res->stderr_tail = strdup(tail);
    /* A crash is never a pass, whatever the steps saw. */
    if (sig == 0 && c->t.proc.reaped && WIFSIGNALED(c->t.proc.status))
        mc_sresult_set(c->res, MC_ERROR, "the server crashed: %s", how);
    mc_stdio_free(&c->t);
    c->started = 0;
}

int mc__runner_start(rctx_t *c, int *rc)
{
    mc_spawn_opts_t so;
    mc_session_opts_t sopts;
    mc_link_t link;
    mc_errbuf_t eb;

    memset(&so, 0, sizeof(so));
    so.argv = c->o->argv;
    so.cwd = c->o->cwd;
    so.limits = c->o->limits;
    mc_errbuf_clear(&eb);
    if (c->o->url != NULL) {
        mc_link_t hl;
        if (mc_httprun_start(&c->http, c->o, c->version, &hl, &eb) != MC_OK) {
            mc_sresult_set(c->res, MC_ERROR, "%s", eb.msg);
            return -1;
        }
        c->http_on = 1;
        link = hl;
    } else {
        if (mc__runner_take_spare(c) != 0 && mc_stdio_start(&c->t, &so, &eb) != MC_OK) {
            mc_sresult_set(c->res, MC_ERROR, "%s", eb.msg);
            /* The command cannot run: no later run can do better. */
            mc__runner_note_unusable(c, 1);
            return -1;
        }
        c->started = 1;
        c->j.w.over_stdio = 1;
        link = mc_stdio_link(&c->t);
        mc__runner_start_spare(c, &so);
    }
    mc__runner_session_opts(c, &sopts);
    if (mc_session_init(&c->s, link, &sopts) != MC_OK) {
        *rc = MC_ENOMEM;
        return -1;
    }
    c->session_ok = 1;
    return 0;
}

/* The key a request's silence is remembered by: its method, and the tool
 * or prompt name or the resource URI its params name. */
void mc__runner_silence_key(const char *method, json_object *params, char *out, size_t n)
{
    const char *what = mc_json_get_str(params, "name");

    if (what == NULL)
        what = mc_json_get_str(params, "uri");
    snprintf(out, n, "%s %s", method, what != NULL ? what : "");
}

static void silence_lock(mc_runner_shared_t *sh)
{
    int expected = 0;

    while (!atomic_compare_exchange_weak(&sh->silent_lock, &expected, 1))
        expected = 0;
}

/* True when an earlier run of the suite waited a whole step for this
 * request in vain. */
int mc__runner_silence_known(rctx_t *c, const char *key)
{
    mc_runner_shared_t *sh = c->o->shared;
    int k, found = 0;

    if (sh == NULL)
        return 0;
    silence_lock(sh);
    for (k = 0; k < sh->n_silent && !found; k++)
        found = strcmp(sh->silent[k], key) == 0;
    atomic_store(&sh->silent_lock, 0);
    return found;
}

/* Remembers a request left unanswered for a whole step (while there is
 * room; past MC_RUNNER_SILENT_KEYS, later ones wait their full step). */
void mc__runner_silence_note(rctx_t *c, const char *key)
{
    mc_runner_shared_t *sh = c->o->shared;
    int k, found = 0;

    if (sh == NULL)
        return;
    silence_lock(sh);
    for (k = 0; k < sh->n_silent && !found; k++)
        found = strcmp(sh->silent[k], key) == 0;
    if (!found && sh->n_silent < MC_RUNNER_SILENT_KEYS)
        snprintf(sh->silent[sh->n_silent++], MC_RUNNER_SILENT_KEY_LEN, "%s", key);
    atomic_store(&sh->silent_lock, 0);
}

/* What a version probe's handshake found (c->probe). */
static void probe_outcome(rctx_t *c, int rc, const char *want_version, int startup,
                          const mc_errbuf_t *eb)
{
    mc_probe_t *p = c->probe;

    snprintf(p->why, sizeof(p->why), "%s", eb->msg);
    if (rc == MC_OK)
        p->answer_ms = mc_now_ms() - c->t0;
    if (rc == MC_OK)
        p->outcome =
            strcmp(c->s.negotiated_version, want_version) == 0 ? MC_PROBE_SPOKEN : MC_PROBE_COUNTER;
    else if (rc == MC_EPROTO)
        p->outcome = MC_PROBE_REFUSED;
    else if (rc == MC_ETIMEOUT)
        p->outcome = MC_PROBE_NO_ANSWER;
    else
        p->outcome = MC_PROBE_FAILED;
    p->silent = rc == MC_ETIMEOUT && c->first_line_ms < 0 && mc_now_ms() - c->t0 >= startup;
}

/* The runner's own initialize; 0 when it completed, else -1 with the
 * result saying why (and the target counted as unusable). */
static int initialize(rctx_t *c, const char *want_version)
{
    mc_errbuf_t eb;
    int startup = mc__runner_startup_budget(c);
    int rc;

    mc_errbuf_clear(&eb);
    rc = mc_session_initialize(&c->s, want_version, c->sc->client_caps,
                               mc__runner_time_left(c, startup), &eb);
    mc__runner_drain(c);
    if (c->probe != NULL)
        probe_outcome(c, rc, want_version, startup, &eb);
    if (rc != MC_OK && c->http_on && mc_http_sse_absent(c->http.http)) {
        /* The version's HTTP transport is not offered at the URL. */
        if (c->probe != NULL)
            c->probe->outcome = MC_PROBE_REFUSED;
        mc_sresult_set(c->res, MC_SKIP, "the server offers no HTTP+SSE transport, the HTTP "
                                        "transport of %s, at the URL: %s",
                       want_version, mc_http_failure(c->http.http) ? mc_http_failure(c->http.http)
                                                                   : "");
        return -1;
    }
    if (rc == MC_OK) {
        if (c->http_on)
            mc_http_after_handshake(c->http.http);
        return 0;
    }
    if (rc == MC_ETIMEOUT && c->probe != NULL && c->probe->server_up) {
        /* The server runs (another probe completed a handshake) and left
         * this request unanswered: a finding, not a failure to start. */
        mc__runner_check(c, "wire/single-response", 0, eb.msg, "a response", "(none)", "", 0, 0);
        mc_sresult_set(c->res, MC_FAIL,
                       "%s is not spoken: the server answered initialize at other versions but "
                       "left %s unanswered",
                       want_version, c->probe->method);
        return -1;
    }
    if (rc == MC_EPROTO && c->s.version_not_spoken) {
        /* An answer, not a failure: the server does not speak this version
         * (as the version probe finds it), so nothing at it can be tested. */
        mc_sresult_set(c->res, MC_SKIP, "the server does not speak %s: %s", want_version, eb.msg);
        c->unspoken = 1;
        return -1;
    }
    if (rc == MC_EEOF || rc == MC_EEXITED)
        mc__runner_target_gone(c, rc, "answering initialize");
    else if (rc == MC_EINTR)
        mc_sresult_set(c->res, MC_ERROR, "the run was interrupted");
    else if (c->http_on) {
        char why[300];
        mc_http_describe(c->http.http, why, sizeof(why));
        mc_sresult_set(c->res, MC_ERROR, "initialize failed: %s%s%s", eb.msg, why[0] ? "; " : "",
                       why);
    } else
        mc_sresult_set(c->res, MC_ERROR, "initialize failed: %s", eb.msg);
    /* A target silent for its whole start-up budget will not answer
     * the next time either: give up on it at once. */
    if (rc != MC_EINTR)
        mc__runner_note_unusable(c, rc == MC_ETIMEOUT && mc_now_ms() - c->t0 >= startup);
    return -1;
}

int mc__runner_gate_negotiated(rctx_t *c)
{
    const mc_scenario_t *sc = c->sc;
    char why[200];
    size_t i, n;

    if (!mc_scenario_applies(sc, c->version)) {
        mc_sresult_set(c->res, MC_SKIP,
                       "the server negotiated %s, outside the scenario's "
                       "versions",
                       c->version);
        return -1;
    }
    if (mc_scenario_version_gap(sc, c->version, why, sizeof(why))) {
        mc_sresult_set(c->res, MC_SKIP, "the server negotiated %s: %s", c->version, why);
        return -1;
    }
    n = sc->requires_caps != NULL ? json_object_array_length(sc->requires_caps) : 0;
    for (i = 0; i < n; i++) {
        const char *cap = json_object_get_string(json_object_array_get_idx(sc->requires_caps, i));
        if (!mc__runner_server_has(c->s.server_caps, cap)) {
            mc_sresult_set(c->res, MC_SKIP,
                           "the server does not declare the \"%s\" "
                           "capability",
                           cap);
            return -1;
        }
    }
    return 0;
}

int mc__runner_reconnect(rctx_t *c)
{
    int rc = MC_OK;

    if (!c->session_ok)
        return -1;
    mc_session_begin_step(&c->s);
    rc = mc_session_poll(&c->s, 0);
    mc__runner_drain(c);
    if (rc != MC_EEOF && mc__runner_wait_ok(c, rc, "reading the last messages before reconnecting"))
        return -1;
    mc__runner_finish_target(c);
    mc_session_free(&c->s);
    c->session_ok = 0;
    /* The stopped target's exit and stderr are not the run's: the last
     * target's are (a crash is already the result's ERROR). */
    free(c->res->exit_desc);
    free(c->res->stderr_tail);
    c->res->exit_desc = c->res->stderr_tail = NULL;
    if (mc__runner_start(c, &rc) != 0)
        return -1;
    if (c->sc->manual_init)
        return 0;
    return mc__runner_handshake(c, c->version);
}

int mc__runner_handshake(rctx_t *c, const char *want_version)
{
    const char *tr = mc_json_get_str(mc_json_get(c->sc->doc.root, "requires"), "transport");

    if (tr != NULL && strcmp(tr, c->http_on ? "http" : "stdio") != 0) {
        mc_sresult_set(c->res, MC_SKIP, "the scenario is for the %s transport", tr);
        return -1;
    }
    if (c->sc->manual_init)
        return 0;
    if (initialize(c, want_version) != 0)
        return -1;
    snprintf(c->version, sizeof(c->version), "%s", c->s.negotiated_version);
    free(c->res->version);
    c->res->version = strdup(c->version);
    mc__runner_caps_note(c);
    return mc__runner_gate_negotiated(c);
}
