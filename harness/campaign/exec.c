#include "campaign/exec.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include "client/http.h"
#include "client/http_limits.h"
#include "client/httptarget.h"
#include "client/session.h"
#include "client/stdio.h"
#include "judge/judge.h"
#include "core/clock.h"
#include "core/json.h"
#include "core/limits.h"
#include "judge/builtin.h"
#include "scenario/instance.h"

extern char **environ;

/* Environment entries copied for the target at most. */
#define MAX_ENV 4096
/* Grace periods when a target is restarted (it is ours, not the user's). */
#define STOP_STDIN_GRACE_MS 300
#define STOP_TERM_GRACE_MS 300
/* Frames handled in one go between sends, and while settling. */
#define MAX_READY_FRAMES 256
/* Expected answers tracked per sequence. */
#define MAX_EXPECTED 64
/* Request ids remembered per process (a power of two; half of it is used). */
#define MAX_IDS 16384
/* Bytes of one line kept in a recorded trace. */
#define MAX_TRACE_LINE 65536

typedef struct expected {
    char id[64];  /* compact JSON of the id as sent */
    size_t elem;  /* sequence element that sent it */
    int answered;
    int cancelled;
} expected_t;

/* Ids sent twice that one sequence keeps apart; past that, no response of
 * the sequence is judged. */
#define MAX_DUP_IDS 64

typedef struct inline_rec {
    uint64_t seq;
    int response; /* a result or error */
    uint32_t idh; /* hash of the compact JSON of a response's id, 0 without one */
    char method[64];
} inline_rec_t;

struct mc_exec {
    mc_exec_opts_t o;
    json_object *client_caps;
    char **envp;
    mc_stdio_t t;
    mc_http_t *http;       /* over Streamable HTTP: the session's transport */
    mc_http_target_t ht;   /* over HTTP: the server this executor started */
    int ht_on;
    char url[512];         /* over HTTP: the endpoint in use */
    int running;
    int t_inited;
    mc_session_t s;
    int sess_ok;
    mc_judge_t j;          /* judges every line of the current process's session */
    int wire_ok;
    char version[32];
    uint64_t seqs_in_proc;
    uint64_t starts;
    int64_t t0;
    /* per sequence */
    mc_exec_outcome_t *cur;
    int record;
    size_t trace_cap;
    uint64_t seq_ctr;
    inline_rec_t *inl;
    size_t inl_n;
    uint32_t prev_state;
    expected_t exp[MAX_EXPECTED];
    size_t n_exp;
    int64_t last_heard;
    int cur_elem; /* the sequence element sent last, -1 before the first */
    uint32_t *ids; /* hashes of the request ids sent in this process */
    size_t n_ids;
    int reused;    /* this sequence sent an id used before in the process, or a
                      line that is not UTF-8: responses are not judged */
    int reused_all; /* of those, a cause that makes every response doubtful (a
                      line not UTF-8, a batch); else only the ids in dups are */
    uint32_t dups[MAX_DUP_IDS]; /* hashes of the ids this sequence sent again */
    size_t n_dups;
    json_object *answers; /* this sequence's answers: method -> answer element */
    int long_id;   /* this sequence sent an id past MC_HTTP_MAX_REQ_ID (unpaired over HTTP) */
    int reinit;    /* initialize was sent again in this process: what was negotiated
                      is anyone's guess, capability checks are not judged */
    /* coverage */
    int shm_id;
    uint8_t *map;
    uint8_t *virgin;
    size_t map_size;
    size_t cov_total;
    int instrumented;
};

static int id_reused(mc_exec_t *x, const char *id);
static void note_dup(mc_exec_t *x, const char *id);
static int utf8_ok(const char *s);

/* --- helpers ------------------------------------------------------------ */

static uint32_t hash_str(uint32_t h, const char *s)
{
    if (h == 0)
        h = 2166136261u;
    while (s != NULL && *s != '\0') {
        h ^= (unsigned char)*s++;
        h *= 16777619u;
    }
    h ^= 0xff;
    h *= 16777619u;
    return h;
}

static void add_state(mc_exec_t *x, uint32_t st)
{
    mc_exec_outcome_t *o = x->cur;

    if (o == NULL)
        return;
    if (o->ns < MC_EXEC_MAX_STATES)
        o->states[o->ns++] = st;
    /* The transition from the previous state is a state of its own, as in
     * stateful network fuzzers' state models. */
    if (x->prev_state != 0 && o->ns < MC_EXEC_MAX_STATES)
        o->states[o->ns++] = (x->prev_state * 2654435761u) ^ st ^ 0x5bd1e995u;
    x->prev_state = st;
}

static void compact(json_object *v, char *out, size_t n)
{
    const char *s =
        v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)
          : "null";
    snprintf(out, n, "%s", s);
}

static void trace_add(mc_exec_t *x, int outbound, const char *line, size_t len)
{
    mc_exec_outcome_t *o = x->cur;
    json_object *s;
    const char *js;
    size_t jl;
    char head[96];
    int hn;

    if (o == NULL || !x->record || line == NULL)
        return;
    s = json_object_new_string_len(line, (int)(len > MAX_TRACE_LINE ? MAX_TRACE_LINE : len));
    if (s == NULL)
        return;
    js = json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
    jl = strlen(js);
    hn = snprintf(head, sizeof(head), "{\"seq\": %llu, \"t_ms\": %lld, \"dir\": \"%s\", \"line\": ",
                  (unsigned long long)x->seq_ctr, (long long)(mc_now_ms() - x->t0),
                  outbound ? "out" : "in");
    if (hn > 0 && o->trace_len + (size_t)hn + jl + 3 <= MC_EXEC_MAX_TRACE) {
        if (o->trace_len + (size_t)hn + jl + 3 > x->trace_cap) {
            size_t nc = x->trace_cap ? x->trace_cap : 4096;
            char *nb;
            while (nc < o->trace_len + (size_t)hn + jl + 3)
                nc *= 2;
            nb = realloc(o->trace, nc);
            if (nb == NULL) {
                json_object_put(s);
                return;
            }
            o->trace = nb;
            x->trace_cap = nc;
        }
        memcpy(o->trace + o->trace_len, head, (size_t)hn);
        o->trace_len += (size_t)hn;
        memcpy(o->trace + o->trace_len, js, jl);
        o->trace_len += jl;
        memcpy(o->trace + o->trace_len, "}\n", 3);
        o->trace_len += 2;
    }
    json_object_put(s);
}

/* The method a response answers, as the state model names it: a method the
 * negotiated version's schema does not define is "?", whatever its name.
 * The name is the fuzzer's own making (the mutator puts odd strings there),
 * so keying on it would make every mutated name a "new state" and flood the
 * corpus with entries the server treated alike. */
static const char *state_method(const mc_exec_t *x, const char *method)
{
    if (method == NULL)
        return "?";
    if (x->o.registry != NULL && x->version[0] != '\0' &&
        mc_registry_schema(x->o.registry, x->version) != NULL &&
        mc_registry_request_def(x->o.registry, x->version, method) == NULL)
        return "?";
    return method;
}

/* The state key of an inbound message: method x result kind x error code
 * for responses, the method for notifications and server requests. */
static uint32_t state_of(const mc_exec_t *x, const mc_wire_info_t *info)
{
    const mc_msg_t *m = &info->msg;
    uint32_t h = 0;
    char code[32];

    switch (m->kind) {
    case MC_MSG_RESULT:
        h = hash_str(hash_str(0, "result"), state_method(x, info->answered_method));
        if (json_object_is_type(m->result, json_type_object)) {
            json_object *ie = mc_json_get(m->result, "isError");
            if (ie != NULL && json_object_get_boolean(ie))
                h = hash_str(h, "isError");
            if (mc_json_get(m->result, "nextCursor") != NULL)
                h = hash_str(h, "nextCursor");
            if (json_object_object_length(m->result) == 0)
                h = hash_str(h, "empty");
        }
        return h;
    case MC_MSG_ERROR:
        snprintf(code, sizeof(code), "%lld", (long long)m->error_code);
        h = hash_str(hash_str(0, "error"), state_method(x, info->answered_method));
        return hash_str(h, code);
    case MC_MSG_NOTIFICATION:
        return hash_str(hash_str(0, "notification"), m->method);
    case MC_MSG_REQUEST:
        return hash_str(hash_str(0, "server-request"), m->method);
    default:
        return hash_str(0, "invalid");
    }
}

/* Whatever its envelope, a message carrying an id and no method answers
 * that id (a bad envelope is the wire checks' business, not a hang). */
static void mark_answered(mc_exec_t *x, json_object *root)
{
    char id[64];
    size_t i;

    if (!json_object_is_type(root, json_type_object) || mc_json_get(root, "method") != NULL ||
        mc_json_get(root, "id") == NULL)
        return;
    compact(mc_json_get(root, "id"), id, sizeof(id));
    for (i = 0; i < x->n_exp; i++)
        if (strcmp(x->exp[i].id, id) == 0) {
            x->exp[i].answered = 1;
            if (x->cur != NULL && x->exp[i].elem < sizeof(x->cur->answered))
                x->cur->answered[x->exp[i].elem] = 1;
        }
}

/* True when line is a JSON object with an id and no method: an answer,
 * whatever else is wrong with it. */
static int response_shaped(const char *line)
{
    json_object *root = line != NULL ? json_tokener_parse(line) : NULL;
    int r = json_object_is_type(root, json_type_object) && mc_json_get(root, "method") == NULL &&
            json_object_object_get_ex(root, "id", NULL);

    json_object_put(root);
    return r;
}

static void observe(void *ctx, int outbound, uint64_t seq, const char *line, size_t len, int kind,
                    unsigned flags)
{
    static const mc_wire_info_t none;
    mc_exec_t *x = ctx;
    const mc_wire_info_t *ip = x->s.in_judged != NULL ? x->s.in_judged : &none;
    const char *method;

    (void)seq;
    (void)kind;
    (void)flags;
    x->seq_ctr++;
    trace_add(x, outbound, line, len);
    if (outbound) {
        if (x->cur != NULL)
            x->cur->lines_out++;
        return;
    }
    if (x->cur != NULL)
        x->cur->lines_in++;
    x->last_heard = mc_now_ms();
    /* The session's judge (x->j) has judged the line; ip is what it made of it. */
    if (!ip->is_line) {
        json_object *root = line != NULL ? json_tokener_parse(line) : NULL;
        if (x->cur != NULL && x->cur_elem >= 0 && (size_t)x->cur_elem < sizeof(x->cur->replied) &&
            response_shaped(line))
            x->cur->replied[x->cur_elem] = 1;
        mark_answered(x, root);
        json_object_put(root);
        add_state(x, hash_str(0, "odd-frame"));
        return;
    }
    method = ip->msg.method ? ip->msg.method : ip->answered_method;
    if (x->inl != NULL) {
        inline_rec_t *r = &x->inl[x->inl_n % MC_EXEC_MAX_INLINES];
        r->seq = x->seq_ctr;
        r->response = ip->msg.kind == MC_MSG_RESULT || ip->msg.kind == MC_MSG_ERROR;
        r->idh = 0;
        if (r->response && ip->msg.id != NULL) {
            char idc[64];
            compact(ip->msg.id, idc, sizeof(idc));
            r->idh = hash_str(0, idc);
        }
        snprintf(r->method, sizeof(r->method), "%s", method ? method : "");
        x->inl_n++;
    }
    add_state(x, state_of(x, ip));
    if (x->o.learn != NULL) {
        if (ip->msg.kind == MC_MSG_RESULT && ip->answered_method != NULL)
            x->o.learn(x->o.learn_ctx, ip->answered_method, ip->msg.result);
        else if (ip->msg.kind == MC_MSG_NOTIFICATION && ip->msg.method != NULL)
            x->o.learn(x->o.learn_ctx, ip->msg.method, ip->msg.params);
    }
    /* A response, even one with a broken envelope (an error code that is
     * a string), answers what was sent last: its replay step expects an
     * answer, so that a server that answers correctly passes it. */
    if (x->cur != NULL && x->cur_elem >= 0 && (size_t)x->cur_elem < sizeof(x->cur->replied) &&
        (ip->msg.kind == MC_MSG_RESULT || ip->msg.kind == MC_MSG_ERROR ||
         (ip->msg.kind != MC_MSG_NOTIFICATION && ip->msg.kind != MC_MSG_REQUEST &&
          response_shaped(line))))
        x->cur->replied[x->cur_elem] = 1;
    mark_answered(x, ip->msg.root);
}

/* The record of inbound line seq, or NULL when it is no longer held. */
static const inline_rec_t *inline_of_seq(const mc_exec_t *x, uint64_t seq)
{
    size_t i, n = x->inl_n < MC_EXEC_MAX_INLINES ? x->inl_n : MC_EXEC_MAX_INLINES;

    for (i = 0; i < n; i++) {
        const inline_rec_t *r = &x->inl[(x->inl_n - 1 - i) % MC_EXEC_MAX_INLINES];
        if (r->seq == seq)
            return r;
    }
    return NULL;
}

static void add_finding(mc_exec_outcome_t *o, mc_find_kind_t kind, const char *check,
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

int mc_exec_is_answer(json_object *el)
{
    json_object *with = mc_json_get(el, "with"), *err = mc_json_get(el, "error");

    if (!json_object_is_type(el, json_type_object) || mc_json_get_str(el, "answer") == NULL ||
        mc_json_get(el, "method") != NULL || (with == NULL) == (err == NULL))
        return 0;
    if (!json_object_is_type(with != NULL ? with : err, json_type_object))
        return 0;
    /* A scenario step would expand "${...}" in it: such a body is not an
     * answer the replay could give alike. */
    return strstr(json_object_to_json_string_ext(el, JSON_C_TO_STRING_PLAIN), "${") == NULL;
}

/* Answers a server request as the sequence's answer elements say, the way
 * the scenario runner answers an `answer` step (so that a finding replays
 * alike): an error with its code and message, or the result as given (an
 * accepted elicitation without content gets a valid instance of the
 * requestedSchema); the default responder otherwise. */
static void respond(void *ctx, mc_session_t *s, const mc_msg_t *request, mc_reply_t *reply)
{
    mc_exec_t *x = ctx;
    json_object *a = mc_json_get(x->answers, request->method), *with, *err;

    if (a == NULL) {
        mc_session_default_responder(NULL, s, request, reply);
        return;
    }
    with = mc_json_get(a, "with");
    err = mc_json_get(a, "error");
    if (err != NULL) {
        const char *msg = mc_json_get_str(err, "message");
        reply->error_code = mc_json_get_int(err, "code", MC_RPC_INTERNAL_ERROR);
        snprintf(reply->error_message, sizeof(reply->error_message), "%s",
                 msg != NULL ? msg : "error");
        return;
    }
    if (json_object_deep_copy(with, &reply->result, NULL) != 0)
        reply->result = NULL;
    mc_instance_fill_accept(request->method, request->params, reply->result);
}

/* --- target lifecycle ----------------------------------------------------- */

static int build_env(mc_exec_t *x)
{
    size_t n = 0, i, k = 0;
    char buf[64];

    while (environ[n] != NULL && n < MAX_ENV)
        n++;
    x->envp = calloc(n + 3, sizeof(char *));
    if (x->envp == NULL)
        return -1;
    for (i = 0; i < n; i++) {
        if (strncmp(environ[i], "__AFL_SHM_ID=", 13) == 0 ||
            strncmp(environ[i], "AFL_MAP_SIZE=", 13) == 0)
            continue;
        x->envp[k++] = environ[i]; /* borrowed: environ outlives us */
    }
    snprintf(buf, sizeof(buf), "__AFL_SHM_ID=%d", x->shm_id);
    x->envp[k++] = strdup(buf);
    snprintf(buf, sizeof(buf), "AFL_MAP_SIZE=%zu", x->map_size);
    x->envp[k++] = strdup(buf);
    x->envp[k] = NULL;
    return x->envp[k - 1] != NULL && x->envp[k - 2] != NULL ? 0 : -1;
}

int mc_exec_new(mc_exec_t **out, const mc_exec_opts_t *opts, mc_errbuf_t *eb)
{
    mc_exec_t *x = calloc(1, sizeof(*x));

    if (x == NULL)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    x->o = *opts;
    if (x->o.hang_ms <= 0)
        x->o.hang_ms = MC_EXEC_HANG_MS;
    if (x->o.settle_ms <= 0)
        x->o.settle_ms = MC_EXEC_SETTLE_MS;
    if (x->o.restart_every <= 0)
        x->o.restart_every = MC_EXEC_RESTART_EVERY;
    x->shm_id = -1;
    x->t0 = mc_now_ms();
    x->inl = calloc(MC_EXEC_MAX_INLINES, sizeof(*x->inl));
    x->ids = calloc(MAX_IDS, sizeof(*x->ids));
    x->client_caps = json_tokener_parse(
        "{\"roots\": {\"listChanged\": true}, \"sampling\": {}, \"elicitation\": {}}");
    if (x->inl == NULL || x->ids == NULL || x->client_caps == NULL) {
        mc_exec_free(x);
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    }
    if (x->o.coverage) {
        x->map_size = x->o.map_size ? x->o.map_size : MC_EXEC_MAP_SIZE;
        x->shm_id = shmget(IPC_PRIVATE, x->map_size, IPC_CREAT | IPC_EXCL | 0600);
        if (x->shm_id < 0) {
            mc_exec_free(x);
            return mc_errbuf_set(eb, MC_EIO, "cannot create the coverage map (shmget)");
        }
        x->map = shmat(x->shm_id, NULL, 0);
        /* Marked for removal now: it goes away with the last detach, even
         * if we are killed. */
        shmctl(x->shm_id, IPC_RMID, NULL);
        if (x->map == (void *)-1) {
            x->map = NULL;
            mc_exec_free(x);
            return mc_errbuf_set(eb, MC_EIO, "cannot attach the coverage map (shmat)");
        }
        x->virgin = calloc(1, x->map_size);
        if (x->virgin == NULL || build_env(x) != 0) {
            mc_exec_free(x);
            return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
        }
    }
    *out = x;
    return MC_OK;
}

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
        mc_http_target_stop(&x->ht, STOP_TERM_GRACE_MS, NULL, 0);
        x->ht_on = 0;
    }
    if (x->running) {
        mc_stdio_stop(&x->t, STOP_STDIN_GRACE_MS, STOP_TERM_GRACE_MS);
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

void mc_exec_free(mc_exec_t *x)
{
    if (x == NULL)
        return;
    mc_exec_stop(x);
    if (x->map != NULL)
        shmdt(x->map);
    if (x->envp != NULL) {
        size_t i;
        for (i = 0; x->envp[i] != NULL; i++)
            if (strncmp(x->envp[i], "__AFL_SHM_ID=", 13) == 0 ||
                strncmp(x->envp[i], "AFL_MAP_SIZE=", 13) == 0)
                free(x->envp[i]);
        free(x->envp);
    }
    free(x->virgin);
    free(x->inl);
    free(x->ids);
    json_object_put(x->answers);
    json_object_put(x->client_caps);
    free(x);
}

void mc_exec_outcome_free(mc_exec_outcome_t *out)
{
    free(out->trace);
    out->trace = NULL;
    out->trace_len = 0;
}

static void drain_notes(mc_exec_t *x)
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

static int start(mc_exec_t *x, mc_errbuf_t *eb)
{
    mc_spawn_opts_t so;
    mc_session_opts_t sopts;
    mc_link_t link;
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
    x->reinit = 0;
    memset(x->ids, 0, MAX_IDS * sizeof(*x->ids));
    x->n_ids = 0;
    id_reused(x, "1"); /* the session's initialize */
    if (x->map != NULL)
        memset(x->map, 0, x->map_size);
    if (x->o.url != NULL) {
        rc = start_http(x, &so, &link, eb);
        if (rc != MC_OK)
            return rc;
    } else {
        rc = mc_stdio_start(&x->t, &so, eb);
        if (rc != MC_OK)
            return rc;
        x->t_inited = 1;
        link = mc_stdio_link(&x->t);
    }
    x->running = 1;
    x->starts++;
    memset(&sopts, 0, sizeof(sopts));
    sopts.observer = observe;
    sopts.observer_ctx = x;
    sopts.judge = &x->j;
    x->j.follow = x->version;
    x->j.counted = &x->seq_ctr;
    sopts.responder = respond;
    sopts.responder_ctx = x;
    if (mc_session_init(&x->s, link, &sopts) != MC_OK)
        return mc_errbuf_set(eb, MC_ENOMEM, "out of memory");
    x->sess_ok = 1;
    x->seqs_in_proc = 0;
    rc = mc_session_initialize(&x->s, x->o.version, x->client_caps,
                               x->o.hang_ms > MC_EXEC_START_MS ? x->o.hang_ms : MC_EXEC_START_MS,
                               eb);
    drain_notes(x);
    if (rc == MC_OK) {
        snprintf(x->version, sizeof(x->version), "%s", x->s.negotiated_version);
        if (x->http != NULL)
            mc_http_after_handshake(x->http); /* the GET stream, as a run opens it */
    }
    return rc;
}

/* True when s is valid UTF-8 (no overlongs, surrogates or code points past
 * U+10FFFF): a line that is not cannot be read, so nothing in it is due. */
static int utf8_ok(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    while (*p != 0) {
        unsigned c = *p;
        size_t n, k;
        unsigned cp;
        if (c < 0x80) {
            p++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            n = 1;
            cp = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 2;
            cp = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 3;
            cp = c & 0x07;
        } else {
            return 0;
        }
        for (k = 1; k <= n; k++) {
            if ((p[k] & 0xc0) != 0x80)
                return 0;
            cp = (cp << 6) | (p[k] & 0x3f);
        }
        if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
            (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
            return 0;
        p += n + 1;
    }
    return 1;
}

/* Remembers an id sent in this process; returns 1 when it was sent before. */
static int id_reused(mc_exec_t *x, const char *id)
{
    uint32_t h = hash_str(0, id), mask = MAX_IDS - 1, i = h & mask, probes;

    if (h == 0)
        h = 1;
    for (probes = 0; probes < MAX_IDS / 2; probes++) {
        if (x->ids[i] == h)
            return 1;
        if (x->ids[i] == 0) {
            if (x->n_ids < MAX_IDS / 2) {
                x->ids[i] = h;
                x->n_ids++;
            }
            return 0;
        }
        i = (i + 1) & mask;
    }
    return 0;
}

/* Notes that this sequence sent id (compact JSON) again: the responses
 * with that id are not judged (which request they answer cannot be told);
 * past MAX_DUP_IDS, none are. */
static void note_dup(mc_exec_t *x, const char *id)
{
    x->reused = 1;
    if (x->n_dups < MAX_DUP_IDS)
        x->dups[x->n_dups++] = hash_str(0, id);
    else
        x->reused_all = 1;
}

/* True when a response (its inline record) may answer a request whose id
 * was sent twice, so that what it is judged against is anyone's guess. */
static int response_doubtful(const mc_exec_t *x, const inline_rec_t *r)
{
    size_t i;

    if (x->reused_all || r->idh == 0)
        return 1;
    for (i = 0; i < x->n_dups; i++)
        if (x->dups[i] == r->idh)
            return 1;
    return 0;
}

/* True when el is a request whose envelope makes an answer due. */
static int answer_due(json_object *el)
{
    json_object *id = mc_json_get(el, "id"), *params = mc_json_get(el, "params");
    const char *v = mc_json_get_str(el, "jsonrpc");

    if (id == NULL || !mc_jsonrpc_id_valid(id) || v == NULL || strcmp(v, "2.0") != 0 ||
        mc_json_get_str(el, "method") == NULL)
        return 0;
    if (json_object_is_type(id, json_type_double))
        return 0;
    return params == NULL || json_object_is_type(params, json_type_object) ||
           json_object_is_type(params, json_type_array);
}

/* The number n of a generated string id "sN" (N below the id stride, no
 * leading zero), or -1 for any other value. */
static int64_t gen_string_id(json_object *id)
{
    const char *s = json_object_is_type(id, json_type_string) ? json_object_get_string(id) : NULL;
    int64_t n = 0;
    size_t i;

    if (s == NULL || s[0] != 's' || s[1] < '0' || s[1] > '9' || (s[1] == '0' && s[2] != '\0'))
        return -1;
    for (i = 1; s[i] != '\0'; i++) {
        if (s[i] < '0' || s[i] > '9' || i > 9)
            return -1;
        n = n * 10 + (s[i] - '0');
    }
    return n < MC_EXEC_ID_STRIDE ? n : -1;
}

/* id moved by off: an integer in [0, MC_EXEC_ID_STRIDE) plus off, a
 * generated string id "sN" as "s(N+off)"; NULL for any other id (an odd
 * value the mutator chose stays as it is). */
static json_object *moved_id(json_object *id, int64_t off)
{
    int64_t n;
    char buf[32];

    if (json_object_is_type(id, json_type_int) && json_object_get_int64(id) >= 0 &&
        json_object_get_int64(id) < MC_EXEC_ID_STRIDE)
        return json_object_new_int64(json_object_get_int64(id) + off);
    if ((n = gen_string_id(id)) < 0)
        return NULL;
    snprintf(buf, sizeof(buf), "s%lld", (long long)(n + off));
    return json_object_new_string(buf);
}

/* Moves an id (or requestId) by off so sequences in one process do not
 * reuse ids: integers and the generator's string ids (moved_id). Returns a
 * new reference or a new reference to el. */
static json_object *offset_ids(json_object *el, int64_t off)
{
    json_object *c = NULL, *id, *p, *rid, *m;

    if (off == 0)
        return json_object_get(el);
    id = mc_json_get(el, "id");
    p = mc_json_get(el, "params");
    rid = mc_json_get(p, "requestId");
    if ((id == NULL || (m = moved_id(id, off)) == NULL) &&
        (rid == NULL || (m = moved_id(rid, off)) == NULL))
        return json_object_get(el);
    json_object_put(m);
    if (json_object_deep_copy(el, &c, NULL) != 0)
        return json_object_get(el);
    id = mc_json_get(c, "id");
    if (id != NULL && (m = moved_id(id, off)) != NULL)
        json_object_object_add(c, "id", m);
    p = mc_json_get(c, "params");
    rid = mc_json_get(p, "requestId");
    if (rid != NULL && (m = moved_id(rid, off)) != NULL)
        json_object_object_add(p, "requestId", m);
    return c;
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
    size_t i;

    for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
        if (strcmp(check, k[i]) == 0)
            return 1;
    return 0;
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
static int http_judged(const mc_exec_t *x, const mc_http_finding_t *hf)
{
    if (strcmp(hf->check, "http/notification-202") == 0 && strstr(hf->detail, " got 4") != NULL)
        return 0;
    if (strcmp(hf->check, "http/response-on-own-stream") == 0 && x->long_id)
        return 0;
    /* A body that is no well-formed request (the transport read no id) is
     * malformed input: what status it gets is the JSON-RPC checks' business. */
    if (strcmp(hf->check, "http/request-content-type") == 0 && strstr(hf->detail, "(request )"))
        return 0;
    return 1;
}

/* Pings the target with an id of the harness's own; 1 when it answers
 * within the hang budget. */
static int alive(mc_exec_t *x)
{
    char line[96], idtext[48];
    json_object *id;
    mc_msg_t resp;
    int rc;

    snprintf(idtext, sizeof(idtext), "mcpcheck-alive-%llu", (unsigned long long)x->seq_ctr);
    snprintf(line, sizeof(line), "{\"jsonrpc\":\"2.0\",\"id\":\"%s\",\"method\":\"ping\"}",
             idtext);
    id = json_object_new_string(idtext);
    if (id == NULL)
        return 0;
    rc = mc_session_raw_request(&x->s, line, strlen(line), id, x->o.hang_ms, &resp);
    json_object_put(id);
    drain_notes(x);
    if (rc != MC_OK)
        return 0;
    mc_msg_free(&resp);
    return 1;
}

static size_t outstanding(const mc_exec_t *x)
{
    size_t i, n = 0;

    for (i = 0; i < x->n_exp; i++)
        if (!x->exp[i].answered && !x->exp[i].cancelled)
            n++;
    return n;
}

/* note_death for an HTTP target: the server we started died, or the
 * endpoint stopped serving. */
static void note_death_http(mc_exec_t *x, mc_exec_outcome_t *out, const char *doing)
{
    char how[200], sig[200], detail[400];
    const char *failure = x->http != NULL ? mc_http_failure(x->http) : NULL;

    if (x->ht_on && !mc_http_target_alive(&x->ht)) {
        const mc_proc_t *p = &x->ht.proc;
        mc_proc_describe(p, how, sizeof(how));
        mc_http_target_stderr(&x->ht, out->tail, sizeof(out->tail));
        mc_exec_tail_signature(out->tail, sig, sizeof(sig));
        snprintf(detail, sizeof(detail), "the server %s while %s", how, doing);
        if (p->reaped && WIFSIGNALED(p->status) && p->signalled_by_us == 0) {
            char sname[32];
            snprintf(sname, sizeof(sname), "signal %d", WTERMSIG(p->status));
            add_finding(out, MC_FIND_CRASH, "process/crash", "", sig[0] ? sig : sname, detail);
        } else if (sig[0] != '\0') {
            add_finding(out, MC_FIND_CRASH, "process/crash", "", sig, detail);
        } else {
            add_finding(out, MC_FIND_EXIT, "process/exit", "", "", detail);
        }
        return;
    }
    snprintf(detail, sizeof(detail), "the endpoint stopped serving (%.200s) while %s",
             failure != NULL ? failure : "the session ended", doing);
    add_finding(out, MC_FIND_EXIT, "process/exit", "", "", detail);
}

static void note_death(mc_exec_t *x, mc_exec_outcome_t *out, const char *doing)
{
    char how[200], sig[200], detail[400];
    const mc_proc_t *p = &x->t.proc;

    if (x->o.url != NULL) {
        note_death_http(x, out, doing);
        return;
    }
    if (!mc_proc_wait(&x->t.proc, 500)) {
        /* Output closed but the process lives on: stop it. */
        mc_stdio_stop(&x->t, STOP_STDIN_GRACE_MS, STOP_TERM_GRACE_MS);
    }
    while (mc_proc_drain_stderr(&x->t.proc) > 0)
        ;
    mc_ring_copy(&p->err, out->tail, sizeof(out->tail));
    mc_proc_describe(p, how, sizeof(how));
    mc_exec_tail_signature(out->tail, sig, sizeof(sig));
    snprintf(detail, sizeof(detail), "the server %s while %s", how, doing);
    if (p->reaped && WIFSIGNALED(p->status) && p->signalled_by_us == 0) {
        char sname[32];
        snprintf(sname, sizeof(sname), "signal %d", WTERMSIG(p->status));
        add_finding(out, MC_FIND_CRASH, "process/crash", "", sig[0] ? sig : sname, detail);
    } else if (sig[0] != '\0') {
        /* A sanitizer report followed by a plain exit (exitcode=1). */
        add_finding(out, MC_FIND_CRASH, "process/crash", "", sig, detail);
    } else {
        add_finding(out, MC_FIND_EXIT, "process/exit", "", "", detail);
    }
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

/* AFL++'s hit-count buckets. */
static uint8_t bucket(uint8_t v)
{
    if (v == 0)
        return 0;
    if (v <= 3)
        return v == 3 ? 4 : v;
    if (v <= 7)
        return 8;
    if (v <= 15)
        return 16;
    if (v <= 31)
        return 32;
    if (v <= 127)
        return 64;
    return 128;
}

/* Reads the map after a sequence: returns the entries with new bits and
 * puts in *edges those hit for the first time. */
static size_t read_coverage(mc_exec_t *x, size_t *edges)
{
    size_t i, fresh = 0;
    const uint64_t *w = (const uint64_t *)x->map;

    for (i = 0; i < x->map_size / 8; i++) {
        size_t k;
        if (w[i] == 0)
            continue;
        x->instrumented = 1;
        for (k = i * 8; k < i * 8 + 8; k++) {
            uint8_t b = bucket(x->map[k]);
            if (b != 0 && (x->virgin[k] & b) != b) {
                if (x->virgin[k] == 0) {
                    x->cov_total++;
                    (*edges)++;
                }
                x->virgin[k] |= b;
                fresh++;
            }
        }
    }
    return fresh;
}

int mc_exec_run(mc_exec_t *x, json_object *seq, int fresh, int record, mc_exec_outcome_t *out,
                mc_errbuf_t *eb)
{
    size_t i, n0 = 0, nel = json_object_array_length(seq);
    int64_t off, began;
    int dead = 0, rc, stop_after = 0;
    char cancels[MAX_EXPECTED][64], idbuf[260];
    size_t n_cancel = 0;
    const char *doing = "handling the sequence";

    memset(out, 0, sizeof(*out));
    if (nel > sizeof(out->sent))
        nel = sizeof(out->sent); /* longer sequences are cut (MC_GEN_MAX_SEQ is far less) */
    x->cur = out;
    x->record = record;
    x->trace_cap = 0;
    x->prev_state = 0;
    x->n_exp = 0;
    x->cur_elem = -1;
    x->reused = 0;
    x->reused_all = 0;
    x->n_dups = 0;
    x->long_id = 0;
    json_object_put(x->answers);
    x->answers = NULL;
    if (x->running && (fresh || x->seqs_in_proc >= (uint64_t)x->o.restart_every ||
                       x->j.w.n_findings > MC_WIRE_MAX_FINDINGS / 2))
        mc_exec_stop(x);
    if (x->running) {
        n0 = x->j.w.n_findings;
        if (x->map != NULL)
            memset(x->map, 0, x->map_size);
        /* Each sequence is a step of its own for the session's flood guard:
         * counted over the process, a long-lived server's ordinary answers
         * would pass the guard's threshold after a few hundred sequences,
         * and every later wait would end as a "flood" without reading the
         * answers (false hangs, and nothing judged). */
        mc_session_begin_step(&x->s);
    } else {
        out->started = 1;
        rc = start(x, eb);
        if (rc == MC_ESPAWN || rc == MC_ENOMEM) {
            mc_exec_stop(x);
            x->cur = NULL;
            return rc;
        }
        if (rc == MC_EPROTO) {
            mc_exec_stop(x);
            x->cur = NULL;
            return rc;
        }
        if (rc == MC_ETIMEOUT) {
            add_finding(out, MC_FIND_HANG, "process/hang", "initialize", "",
                        "initialize was not answered within the start-up budget");
            stop_after = 1;
            goto judge;
        }
        if (rc != MC_OK) {
            dead = 1;
            doing = "answering initialize";
            goto judge;
        }
    }
    off = (int64_t)x->seqs_in_proc * MC_EXEC_ID_STRIDE;
    for (i = 0; i < nel && !dead; i++) {
        json_object *el = json_object_array_get_idx(seq, i), *sendv;
        const char *line, *method;
        size_t k;

        if (json_object_is_type(el, json_type_string)) {
            json_object *parsed = json_tokener_parse(json_object_get_string(el));
            sendv = json_object_get(el);
            line = json_object_get_string(el);
            /* A malformed line may still carry a readable id. */
            if (json_object_is_type(parsed, json_type_object) && mc_json_get(parsed, "id") != NULL) {
                char idc[MC_HTTP_MAX_REQ_ID + 2];
                compact(mc_json_get(parsed, "id"), idc, sizeof(idc));
                if (id_reused(x, idc))
                    note_dup(x, idc);
                if (strlen(idc) > MC_HTTP_MAX_REQ_ID)
                    x->long_id = 1;
            } else if (json_object_is_type(parsed, json_type_array)) {
                /* A batch: its requests' ids count as sent (the server may
                 * answer them), and a response with any of them, or one
                 * answering the batch as a whole, is not judged. */
                size_t b, nb = json_object_array_length(parsed);
                x->reused = 1;
                for (b = 0; b < nb && b < MAX_DUP_IDS; b++) {
                    json_object *bid = mc_json_get(json_object_array_get_idx(parsed, b), "id");
                    char idc[64];
                    if (bid == NULL)
                        continue;
                    compact(bid, idc, sizeof(idc));
                    (void)id_reused(x, idc);
                    note_dup(x, idc);
                }
            }
            json_object_put(parsed);
        } else if (mc_exec_is_answer(el)) {
            /* Not sent: how the client answers from here on. */
            if (x->answers == NULL)
                x->answers = json_object_new_object();
            if (x->answers != NULL)
                json_object_object_add(x->answers, mc_json_get_str(el, "answer"),
                                       json_object_get(el));
            if (i < sizeof(out->sent))
                out->sent[i] = 1;
            continue;
        } else if (json_object_is_type(el, json_type_object)) {
            method = mc_json_get_str(el, "method");
            if (method != NULL && strcmp(method, "tools/call") == 0 &&
                (x->o.allowed == NULL ||
                 !x->o.allowed(x->o.allowed_ctx, mc_json_get_str(mc_json_get(el, "params"), "name"))))
                continue; /* never a tool the user did not allow */
            sendv = offset_ids(el, off);
            line = json_object_to_json_string_ext(sendv, JSON_C_TO_STRING_PLAIN |
                                                             JSON_C_TO_STRING_NOSLASHESCAPE);
            if (mc_json_get(sendv, "id") != NULL) {
                char idc[64];
                compact(mc_json_get(sendv, "id"), idc, sizeof(idc));
                if (id_reused(x, idc))
                    note_dup(x, idc);
                if (strlen(idc) > MC_HTTP_MAX_REQ_ID)
                    x->long_id = 1;
            }
            if (method != NULL && strcmp(method, "initialize") == 0)
                x->reinit = 1;
            {
                /* A progress token sent twice in a process belongs to two
                 * requests (the client's fault): which one a notification
                 * is about is anyone's guess, as with a reused id. */
                json_object *tok = mc_json_get(mc_json_get(mc_json_get(sendv, "params"), "_meta"),
                                               "progressToken");
                if (tok != NULL) {
                    char tc[72], tv[64];
                    compact(tok, tv, sizeof(tv));
                    snprintf(tc, sizeof(tc), "token:%s", tv);
                    if (id_reused(x, tc))
                        x->reused = 1;
                }
            }
            if (answer_due(sendv) && utf8_ok(line) && x->n_exp < MAX_EXPECTED) {
                expected_t *e = &x->exp[x->n_exp++];
                compact(mc_json_get(sendv, "id"), e->id, sizeof(e->id));
                e->elem = i;
                e->answered = 0;
                /* An id named by an earlier cancellation is not held
                 * against the server either. */
                e->cancelled = 0;
                for (k = 0; k < n_cancel; k++)
                    if (strcmp(cancels[k], e->id) == 0)
                        e->cancelled = 1;
            }
            if (method != NULL && strcmp(method, "notifications/cancelled") == 0) {
                char rid[64];
                compact(mc_json_get(mc_json_get(sendv, "params"), "requestId"), rid, sizeof(rid));
                for (k = 0; k < x->n_exp; k++)
                    if (strcmp(x->exp[k].id, rid) == 0)
                        x->exp[k].cancelled = 1;
                if (n_cancel < MAX_EXPECTED)
                    memcpy(cancels[n_cancel++], rid, sizeof(rid));
            }
        } else {
            continue;
        }
        /* A line that is not UTF-8 may be read one way by the checker and
         * another by a lenient server: responses are not judged after it. */
        if (!utf8_ok(line))
            x->reused = x->reused_all = 1;
        if (i < sizeof(out->sent))
            out->sent[i] = 1;
        x->cur_elem = (int)i;
        rc = mc_session_send_raw(&x->s, line, strlen(line), x->o.hang_ms);
        json_object_put(sendv);
        if (rc == MC_ETIMEOUT) {
            add_finding(out, MC_FIND_HANG, "process/hang", "", "stdin",
                        "the server stopped reading its input");
            stop_after = 1;
            goto judge;
        }
        if (rc != MC_OK) {
            dead = 1;
            break;
        }
        for (k = 0; k < MAX_READY_FRAMES; k++) {
            rc = mc_session_poll_once(&x->s, 0);
            if (rc != MC_OK)
                break;
        }
        drain_notes(x);
        if (rc == MC_EEOF)
            dead = 1;
    }
    /* Wait for every answer due, as long as the server keeps talking. */
    began = x->last_heard = mc_now_ms();
    while (!dead && outstanding(x) > 0) {
        int64_t now = mc_now_ms(), left = x->last_heard + x->o.hang_ms - now;
        if (left <= 0 || now - began > 4 * (int64_t)x->o.hang_ms)
            break;
        rc = mc_session_poll_once(&x->s, left > MC_POLL_SLICE_MS ? MC_POLL_SLICE_MS : (int)left);
        drain_notes(x);
        if (rc == MC_EEOF)
            dead = 1;
    }
    if (!dead) {
        size_t k;
        for (k = 0; k < MAX_READY_FRAMES; k++) {
            rc = mc_session_poll_once(&x->s, x->o.settle_ms);
            if (rc == MC_EEOF)
                dead = 1;
            if (rc != MC_OK)
                break;
        }
        drain_notes(x);
    }
    if (!dead && x->o.url == NULL && (x->t.stdout_eof || x->s.eof || mc_proc_try_reap(&x->t.proc)))
        dead = 1;
    if (!dead && x->o.url != NULL &&
        (x->s.eof || (x->ht_on && !mc_http_target_alive(&x->ht)) ||
         (x->http != NULL && mc_http_failure(x->http) != NULL)))
        dead = 1;
    if (!dead && outstanding(x) > 0) {
        size_t k;
        for (k = 0; k < x->n_exp; k++)
            if (!x->exp[k].answered && !x->exp[k].cancelled) {
                json_object *el = json_object_array_get_idx(seq, x->exp[k].elem);
                const char *m = mc_json_get_str(el, "method");
                char detail[200];
                snprintf(detail, sizeof(detail), "%.80s (id %.40s) was not answered within %d ms",
                         m ? m : "a request", x->exp[k].id, x->o.hang_ms);
                add_finding(out, MC_FIND_HANG, "process/hang", m, "", detail);
                break;
            }
        /* A server that only ignored a message is still good for the next
         * sequence; one that answers no ping either is restarted. */
        if (!alive(x))
            stop_after = 1;
    }
judge:
    if (x->wire_ok) {
        for (i = n0; i < x->j.w.n_findings; i++) {
            const mc_wire_finding_t *f = &x->j.w.findings[i];
            const inline_rec_t *r = inline_of_seq(x, f->seq);
            /* Once the client has sent an id twice (which it must not do),
             * which request a response with that id answers is anyone's
             * guess: what is said of it says nothing about the server. The
             * responses to ids sent once are judged still (a sequence the
             * mutator gave one collision would else hide every finding in
             * its answers). */
            if (x->reused && (r == NULL || follows_requests(f->check) ||
                              (r->response && response_doubtful(x, r))))
                continue;
            /* After a second initialize the checker follows what the client
             * declared last, whether or not the server took it. */
            if (x->reinit && (strcmp(f->check, "wire/negotiated-capabilities") == 0 ||
                              strcmp(f->check, "wire/logging-capability") == 0 ||
                              strcmp(f->check, "wire/elicitation-mode") == 0))
                continue;
            add_finding(out, MC_FIND_CHECK, f->check, r != NULL ? r->method : "", "", f->detail);
        }
    }
    if (x->http != NULL) {
        /* What the transport saw of the HTTP rules in this sequence. */
        mc_http_finding_t hf;
        while (mc_http_take_finding(x->http, &hf))
            if (!hf.pass && http_judged(x, &hf))
                add_finding(out, MC_FIND_CHECK, hf.check, "", "", hf.detail);
        while (mc_http_take_note(x->http, idbuf, sizeof(idbuf)))
            ; /* the transcript notes are the runner's; nothing grows here */
    }
    if (dead && x->running) {
        note_death(x, out, doing);
        mc_exec_stop(x);
    }
    if (stop_after)
        mc_exec_stop(x);
    if (x->running && x->o.mem_limit_mb > 0 && (x->o.url == NULL || x->ht_on)) {
        uint64_t rss = rss_bytes(x->o.url == NULL ? x->t.proc.pid : x->ht.proc.pid);
        if (rss > x->o.mem_limit_mb * 1024u * 1024u) {
            char detail[160];
            snprintf(detail, sizeof(detail), "resident size %llu MiB, over the %llu MiB limit",
                     (unsigned long long)(rss >> 20), (unsigned long long)x->o.mem_limit_mb);
            add_finding(out, MC_FIND_MEMORY, "process/memory", "", "", detail);
            mc_exec_stop(x);
        }
    }
    if (x->map != NULL)
        out->new_cov = read_coverage(x, &out->new_edges);
    x->seqs_in_proc++;
    x->cur = NULL;
    return MC_OK;
}

size_t mc_exec_coverage(const mc_exec_t *x)
{
    return x->cov_total;
}

int mc_exec_instrumented(const mc_exec_t *x)
{
    return x->instrumented;
}

uint64_t mc_exec_starts(const mc_exec_t *x)
{
    return x->starts;
}

const char *mc_exec_version(const mc_exec_t *x)
{
    return x->version;
}

int64_t mc_exec_id_offset(const mc_exec_t *x)
{
    return x->running ? (int64_t)x->seqs_in_proc * MC_EXEC_ID_STRIDE : 0;
}
