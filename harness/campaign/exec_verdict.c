/*
 * exec_verdict.c - the findings of one sequence.
 *
 * Promises: what the judge found in the sequence's lines and what the HTTP
 * transport saw of its rules become findings, each named by its check and
 * the method of the message involved, except what the client itself made
 * doubtful (an id or progress token sent twice, in this sequence or an
 * earlier one of the process, a line that is not UTF-8, a second
 * initialize; over HTTP a refused notification, an id too long to pair); a
 * request left unanswered is a hang (unless held: the server may be waiting
 * for an answer of the client's it could not read); a signature (check, method,
 * and for a death the sanitizer kind and top frames) is kept once per
 * sequence, within MC_EXEC_MAX_FINDINGS.
 */
#include <stdio.h>
#include <string.h>

#include "campaign/exec_internal.h"
#include "core/json.h"
#include "judge/builtin.h"

void mc__exec_add_finding(mc_exec_outcome_t *o, mc_find_kind_t kind, const char *check,
                          const char *method, const char *sigextra, const char *detail)
{
    mc_exec_finding_t *f;
    char sig[256];
    size_t i;

    snprintf(sig, sizeof(sig), "%s|%s|%s", check, method ? method : "", sigextra ? sigextra : "");
    for (i = 0; i < o->nf; i++)
        if (strcmp(o->f[i].sig, sig) == 0)
            return;
    if (o->nf >= MC_EXEC_MAX_FINDINGS)
        return;
    f = &o->f[o->nf++];
    f->kind = kind;
    snprintf(f->sig, sizeof(f->sig), "%s", sig);
    snprintf(f->check, sizeof(f->check), "%s", check);
    snprintf(f->method, sizeof(f->method), "%s", method ? method : "");
    snprintf(f->detail, sizeof(f->detail), "%s", detail ? detail : "");
}

void mc_exec_tail_signature(const char *tail, char *out, size_t n)
{
    const char *p, *kind = NULL;
    size_t o = 0, frames = 0;

    out[0] = '\0';
    if (tail == NULL)
        return;
    p = strstr(tail, "ERROR: AddressSanitizer: ");
    if (p != NULL)
        kind = p + strlen("ERROR: AddressSanitizer: ");
    else if ((p = strstr(tail, "runtime error: ")) != NULL)
        kind = p + strlen("runtime error: ");
    else if ((p = strstr(tail, "ERROR: LeakSanitizer: ")) != NULL)
        kind = p + strlen("ERROR: LeakSanitizer: ");
    if (kind != NULL) {
        while (kind[o] != '\0' && kind[o] != ' ' && kind[o] != '\n' && o + 1 < n) {
            out[o] = kind[o];
            o++;
        }
        out[o] = '\0';
    }
    /* Frames look like "    #0 0x4f2a1b in func_name file.c:12:3". */
    p = kind != NULL ? kind : tail;
    while (frames < 3 && (p = strstr(p, " in ")) != NULL) {
        const char *hash = p;
        const char *name = p + 4;
        size_t k = 0;
        /* Only lines that are stack frames count. */
        while (hash > tail && hash[-1] != '\n' && hash[-1] != '#')
            hash--;
        p = name;
        if (hash == tail || hash[-1] != '#')
            continue;
        if (o + 2 >= n)
            break;
        out[o++] = '|';
        while (name[k] != '\0' && name[k] != ' ' && name[k] != '\n' && o + 1 < n)
            out[o++] = name[k++];
        out[o] = '\0';
        frames++;
    }
}

/* True when a response (its inline record) may answer a request whose id
 * was sent twice, so that what it is judged against is anyone's guess. */
static int response_doubtful(const mc_exec_t *x, const mc__exec_inline_t *r)
{
    size_t i;

    if (x->reused_all || r->idk == MC__EXEC_KEY_NONE)
        return 1;
    for (i = 0; i < x->n_dups; i++)
        if (x->dups[i] == r->idk)
            return 1;
    return 0;
}

/* True when check is one of the n names of k. */
static int named_in(const char *check, const char *const *k, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (strcmp(check, k[i]) == 0)
            return 1;
    return 0;
}

/* True for the wire checks that pair a server message with the request it
 * belongs to (by id or progress token): once the client has sent an id or
 * token twice, which request that is cannot be told. */
static int follows_requests(const char *check)
{
    static const char *const k[] = {"wire/single-response", "wire/response-id",
                                    "wire/progress-active-token", "wire/progress-increases",
                                    "wire/log-level", "wire/resource-updated-subscribed",
                                    "wire/no-response-to-notification",
                                    "wire/null-id-only-for-unreadable-requests"};

    return named_in(check, k, sizeof(k) / sizeof(k[0]));
}

/* True for the HTTP checks that pair a message with the stream of a
 * request by its id or progress token. */
static int pairs_streams(const char *check)
{
    static const char *const k[] = {"http/response-on-own-stream", "http/resume-own-stream",
                                    "http/stateless-response-ends-stream",
                                    "http/stateless-notification-related",
                                    "http/response-closes-stream",
                                    "http/message-on-one-stream",
                                    "http/request-stream-related",
                                    "http/get-stream-unrelated"};

    return named_in(check, k, sizeof(k) / sizeof(k[0]));
}

/*
 * Whether an HTTP finding of the transport says something about the server.
 * A POSTed notification or unreadable body refused with a 4xx status is no
 * fault: the transport page lets a server that cannot accept the input
 * answer with an HTTP error status. The transport pairs a response with its
 * stream by a request id of up to MC_HTTP_MAX_REQ_ID bytes and leaves a
 * longer one unpaired, so after such an id that match says nothing. A body without a readable request id
 * is not held to the rules of a request's answer.
 */
static int http_judged(const mc_exec_t *x, const char *check, long status, int request_unread)
{
    if (strcmp(check, "http/notification-202") == 0 && status / 100 == 4)
        return 0;
    if (strcmp(check, "http/response-on-own-stream") == 0 && x->long_id)
        return 0;
    /* Once the client sent an id or token twice in this process, or a line
     * that is not UTF-8 (whose id a server may read otherwise), which stream
     * a message belongs to cannot be told from its id or token. */
    if (pairs_streams(check) && (x->reused || x->n_doubt > 0 || x->doubt_all))
        return 0;
    /* A body that is no well-formed request (the transport read no id) is
     * malformed input: what status it gets is the JSON-RPC checks' business. */
    if (strcmp(check, "http/request-content-type") == 0 && request_unread)
        return 0;
    return 1;
}


/* True when what is said of inbound message r says nothing about the
 * server because of what an earlier sequence of the process sent: a
 * response with an id sent twice in the process, or a progress
 * notification whose token was (or that the judge could not follow),
 * judged by a check that pairs it with its request. Such a message may
 * come a sequence late (a second answer to a duplicated id, progress of a
 * request no one waited for), so the doubt lasts as long as the process. */
static int doubtful_in_process(const mc_exec_t *x, const mc__exec_inline_t *r, const char *check)
{
    if (r->response && r->idk != MC__EXEC_KEY_NONE && mc__exec_doubtful(x, r->idk))
        return 1;
    return r->tokk != MC__EXEC_KEY_NONE && follows_requests(check) &&
           mc__exec_doubtful(x, r->tokk);
}

/* True for the capability checks, which follow what the client declared
 * last: after a second initialize, whether or not the server took it. */
static int follows_declared(const char *check)
{
    return strcmp(check, "wire/negotiated-capabilities") == 0 ||
           strcmp(check, "wire/logging-capability") == 0 ||
           strcmp(check, "wire/elicitation-mode") == 0;
}

/* False for a check whose sentence binds the server with no MUST or
 * SHOULD (a MAY, or informational) at the version x speaks: breaking it is
 * INFO in a run, so it is no finding of a campaign either. Checks the
 * registry does not hold are kept. */
static int binds_server(const mc_exec_t *x, const char *check)
{
    const mc_check_def_t *d = mc_builtin_check(check);
    mc_level_t level;

    if (d == NULL)
        d = mc_builtin_http_check(check);
    if (d == NULL)
        return 1;
    if (!mc_check_stands_at(d, x->version))
        return 0; /* a built-in check applies at exactly the versions it names */
    level = mc_check_level_for(d, x->version);
    return level == MC_LEVEL_MUST || level == MC_LEVEL_SHOULD;
}

void mc__exec_collect_findings(mc_exec_t *x, size_t n0, mc_exec_outcome_t *out)
{
    size_t i;

    if (x->wire_ok) {
        for (i = n0; i < x->j.w.n_findings; i++) {
            const mc_wire_finding_t *f = &x->j.w.findings[i];
            const mc__exec_inline_t *r;
            if (mc_judge_is_http_check(f->check))
                continue; /* below, with the transport's */
            r = mc__exec_inline_of_seq(x, f->seq);
            /* Once the client has sent an id twice (which it must not do),
             * which request a response with that id answers is anyone's
             * guess: what is said of it says nothing about the server. The
             * responses to ids sent once are judged still (a sequence the
             * mutator gave one collision would else hide every finding in
             * its answers). */
            if (x->reused && (r == NULL || follows_requests(f->check) ||
                              (r->response && response_doubtful(x, r))))
                continue;
            if (r != NULL && doubtful_in_process(x, r, f->check))
                continue;
            if ((x->reinit && follows_declared(f->check)) || !binds_server(x, f->check))
                continue;
            mc__exec_add_finding(out, MC_FIND_CHECK, f->check, r != NULL ? r->method : "", "",
                                 f->detail);
        }
    }
    if (x->http != NULL) {
        char note[260];
        while (mc_http_take_note(x->http, note, sizeof(note)))
            ; /* the transcript notes are the runner's; nothing grows here */
    }
    for (i = n0; x->wire_ok && i < x->j.w.n_findings; i++) {
        /* What the judge made of the HTTP transport's records in this
         * sequence, after the wire rules' findings. */
        const mc_wire_finding_t *f = &x->j.w.findings[i];
        if (mc_judge_is_http_check(f->check) &&
            http_judged(x, f->check, f->status, f->request_unread) &&
            binds_server(x, f->check))
            mc__exec_add_finding(out, MC_FIND_CHECK, f->check, "", "", f->detail);
    }
}

void mc__exec_note_hang(mc_exec_t *x, json_object *seq, mc_exec_outcome_t *out)
{
    size_t k;

    for (k = 0; k < x->n_exp; k++)
        if (!x->exp[k].answered && !x->exp[k].cancelled && !x->exp[k].held) {
            json_object *el = json_object_array_get_idx(seq, x->exp[k].elem);
            const char *m = mc_json_get_str(el, "method");
            char detail[320];
            int known = mc__exec_known_dropped(x, x->exp[k].shape);
            if (x->barrier_answered && !x->waited_out)
                snprintf(detail, sizeof(detail),
                         "%.80s (id %.40s) was not answered, though a ping sent after it was%s",
                         m ? m : "a request", x->exp[k].id,
                         known ? " (a request of its shape went unanswered for the whole hang "
                                 "budget before)"
                               : "");
            else
                snprintf(detail, sizeof(detail), "%.80s (id %.40s) was not answered within %d ms",
                         m ? m : "a request", x->exp[k].id, x->o.hang_ms);
            mc__exec_add_finding(out, MC_FIND_HANG, "process/hang", m, "", detail);
            if (out->nf > 0 && strcmp(out->f[out->nf - 1].check, "process/hang") == 0)
                out->f[out->nf - 1].at_barrier = x->barrier_answered && !x->waited_out && !known;
            return;
        }
}
