/*
 * runner_hold.c - a target process kept between the runs of one worker
 * (mc_runner_hold_t in runner.h): what its handshake left, replayed into
 * every later run on it; the move of a run onto it; the ping after a run
 * that decides whether it may be kept.
 */
#include "scenario/runner_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/json.h"
#include "core/limits.h"

struct mc__runner_hs {
    char asked[32];        /* the version the first run asked for */
    json_object *caps;     /* its client capabilities (a reference), or NULL */
    mc_tx_line_t *tx;      /* the handshake's transcript lines (owned copies) */
    size_t n_tx;
    mc_wire_finding_t *findings; /* the judge's findings after the handshake */
    size_t n_findings;
    uint64_t findings_dropped;
    const char *check_ids[MC_WIRE_MAX_CHECKS];
    uint64_t check_evals[MC_WIRE_MAX_CHECKS];
    size_t n_checks;
    uint64_t seq_all, seq_in, first_msg_seq;
    int64_t first_line_ms;
};

void mc__runner_hs_free(rctx_t *c)
{
    mc__runner_hs_t *hs = c->hs;
    size_t i;

    if (hs == NULL)
        return;
    for (i = 0; i < hs->n_tx; i++)
        free(hs->tx[i].line);
    free(hs->tx);
    free(hs->findings);
    json_object_put(hs->caps);
    free(hs);
    c->hs = NULL;
}

void mc__runner_hs_take(rctx_t *c, const char *asked)
{
    mc__runner_hs_t *hs = calloc(1, sizeof(*hs));
    const mc_scenario_result_t *r = c->res;
    size_t i;

    mc__runner_hs_free(c);
    if (hs == NULL)
        return;
    snprintf(hs->asked, sizeof(hs->asked), "%s", asked);
    hs->caps = json_object_get(c->sc->client_caps);
    hs->tx = calloc(r->n_tx + 1, sizeof(*hs->tx));
    hs->findings = calloc(c->j.w.n_findings + 1, sizeof(*hs->findings));
    if (hs->tx == NULL || hs->findings == NULL) {
        c->hs = hs;
        mc__runner_hs_free(c);
        return;
    }
    for (i = 0; i < r->n_tx; i++) {
        hs->tx[i] = r->tx[i];
        hs->tx[i].line = strdup(r->tx[i].line != NULL ? r->tx[i].line : "");
        if (hs->tx[i].line == NULL)
            break;
    }
    hs->n_tx = i;
    memcpy(hs->findings, c->j.w.findings, c->j.w.n_findings * sizeof(*hs->findings));
    hs->n_findings = c->j.w.n_findings;
    hs->findings_dropped = c->j.w.findings_dropped;
    memcpy(hs->check_ids, c->j.w.check_ids, sizeof(hs->check_ids));
    memcpy(hs->check_evals, c->j.w.check_evals, sizeof(hs->check_evals));
    hs->n_checks = c->j.w.n_checks;
    hs->seq_all = c->seq_all;
    hs->seq_in = c->seq_in;
    hs->first_msg_seq = c->first_msg_seq;
    hs->first_line_ms = c->first_line_ms;
    c->hs = hs;
}

/* True when the client capabilities a and b (NULL: none) are the same. */
static int same_caps(json_object *a, json_object *b)
{
    int ea = a == NULL || (json_object_is_type(a, json_type_object) &&
                           json_object_object_length(a) == 0);
    int eb = b == NULL || (json_object_is_type(b, json_type_object) &&
                           json_object_object_length(b) == 0);

    if (ea || eb)
        return ea && eb;
    return json_object_equal(a, b);
}

int mc__runner_hs_fits(const rctx_t *k, const mc_scenario_t *sc, const char *version)
{
    return k->hs != NULL && strcmp(k->hs->asked, version) == 0 &&
           same_caps(k->hs->caps, sc->client_caps);
}

/* Puts the kept handshake into c's result and judge, as the start of the
 * run's own traffic. */
static void replay(rctx_t *c)
{
    const mc__runner_hs_t *hs = c->hs;
    size_t i;

    for (i = 0; i < hs->n_tx; i++) {
        const mc_tx_line_t *t = &hs->tx[i];
        size_t n = c->res->n_tx;
        mc_sresult_tx(c->res, t->seq, t->t_ms, t->outbound, t->line, strlen(t->line));
        if (c->res->n_tx > n)
            c->res->tx[n].len = t->len;
    }
    memcpy(c->j.w.findings, hs->findings, hs->n_findings * sizeof(*hs->findings));
    c->j.w.n_findings = hs->n_findings;
    c->j.w.findings_dropped = hs->findings_dropped;
    memcpy(c->j.w.check_ids, hs->check_ids, sizeof(hs->check_ids));
    memcpy(c->j.w.check_evals, hs->check_evals, sizeof(hs->check_evals));
    c->j.w.n_checks = hs->n_checks;
    c->seq_all = hs->seq_all;
    c->seq_in = c->mark_in = hs->seq_in;
    c->first_msg_seq = hs->first_msg_seq;
    c->first_line_ms = hs->first_line_ms;
}

rctx_t *mc__runner_adopt(rctx_t *k, rctx_t *fresh)
{
    k->sc = fresh->sc;
    k->o = fresh->o;
    k->res = fresh->res;
    k->hold = fresh->hold;
    k->t0 = fresh->t0;
    k->deadline = fresh->deadline;
    k->step_timeout = fresh->step_timeout;
    /* The run is at the version the kept handshake negotiated. */
    free(k->res->version);
    k->res->version = strdup(k->version);
    mc_vars_free(&k->vars);
    k->vars = fresh->vars;
    mc_vars_init(&fresh->vars);
    mc__runner_inbox_free(&k->notes);
    mc__runner_inbox_free(&k->reqs);
    memset(k->resp_seqs, 0, sizeof(k->resp_seqs));
    k->resp_next = 0;
    k->dead = 0;
    k->unusable = 0;
    k->tokens = 0;
    k->taken_at_ms = -1;
    k->startup_owner = 0;
    k->reused = 1;
    k->stepped = 0;
    replay(k);
    json_object_put(fresh->answers);
    json_object_put(fresh->seen_reqs);
    mc_vars_free(&fresh->vars);
    free(fresh);
    return k;
}

int mc__runner_may_keep(rctx_t *c)
{
    mc_msg_t resp;
    size_t n_findings, n_checks;
    uint64_t evals[MC_WIRE_MAX_CHECKS];
    int rc, ok;

    /* A run whose steps never began (its roles unresolved) changed
     * nothing, whatever its steps would have done. */
    if ((!c->sc->chainable && c->stepped) || c->hs == NULL || !c->started || !c->session_ok ||
        c->dead || c->unusable || c->probe != NULL || c->behave != NULL ||
        c->res->verdict == MC_ERROR || (c->o->stop != NULL && *c->o->stop))
        return 0;
    /* stdio is ordered: once the ping is answered, every earlier request
     * has been answered too, and the process is alive. Neither the ping
     * nor what the judge makes of it is the run's. */
    n_findings = c->j.w.n_findings;
    n_checks = c->j.w.n_checks;
    memcpy(evals, c->j.w.check_evals, sizeof(evals));
    c->barrier = 1;
    mc_session_begin_step(&c->s);
    rc = mc_session_request(&c->s, "ping", NULL, c->step_timeout, &resp);
    mc__runner_drain(c);
    c->barrier = 0;
    ok = rc == MC_OK && resp.kind == MC_MSG_RESULT &&
         c->j.w.n_findings == n_findings;
    if (rc == MC_OK)
        mc_msg_free(&resp);
    c->j.w.n_findings = n_findings;
    c->j.w.n_checks = n_checks;
    memcpy(c->j.w.check_evals, evals, sizeof(evals));
    return ok;
}

int mc_runner_hold_fits(const mc_runner_hold_t *h, const mc_scenario_t *sc, const char *version)
{
    return h != NULL && h->c != NULL && sc->chainable && !(sc->state_changes & MC_STATE_FIRST) &&
           h->runs < MC_RUNNER_HOLD_MAX_RUNS && (sc->state_reads & h->dirty) == 0 &&
           mc__runner_hs_fits(h->c, sc, version);
}

int mc_runner_hold_takes(const mc_runner_hold_t *h, const mc_scenario_t *sc, const char *version)
{
    return h != NULL && h->c != NULL && sc->takes_held && (sc->state_reads & h->dirty) == 0 &&
           mc__runner_hs_fits(h->c, sc, version);
}

void mc_runner_hold_release(mc_runner_hold_t *h)
{
    rctx_t *c = h->c;

    if (c == NULL)
        return;
    h->c = NULL;
    h->runs = 0;
    h->dirty = 0;
    /* The owner's findings are in its checks already: what the shutdown
     * adds is new. */
    c->res = h->owner;
    h->owner = NULL;
    free(c->res->exit_desc);
    c->res->exit_desc = NULL;
    c->j.w.n_findings = 0;
    c->j.w.n_checks = 0;
    c->hold = NULL;
    mc__runner_end_ctx(c);
}

int mc__runner_take_spare(rctx_t *c)
{
    mc_runner_hold_t *h = c->hold;

    if (h == NULL || !h->spare_on)
        return -1;
    c->t = h->spare;
    memset(&h->spare, 0, sizeof(h->spare));
    h->spare_on = 0;
    return 0;
}

void mc__runner_start_spare(rctx_t *c, const mc_spawn_opts_t *so)
{
    mc_runner_hold_t *h = c->hold;
    mc_errbuf_t eb;

    if (h == NULL || h->spare_on || c->probe != NULL || c->behave != NULL ||
        (c->o->stop != NULL && *c->o->stop))
        return;
    mc_errbuf_clear(&eb);
    if (mc_stdio_start(&h->spare, so, &eb) == MC_OK)
        h->spare_on = 1;
}

void mc_runner_hold_end(mc_runner_hold_t *h)
{
    mc_runner_hold_release(h);
    if (!h->spare_on)
        return;
    /* It never served a run: nothing of its end is anyone's finding. */
    (void)mc_stdio_stop(&h->spare, MC_SHUTDOWN_LEARNED_GRACE_MS, MC_SHUTDOWN_TERM_GRACE_MS);
    mc_stdio_free(&h->spare);
    h->spare_on = 0;
}
