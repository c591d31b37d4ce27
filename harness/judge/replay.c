#include "judge/replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base64.h"
#include "core/frame.h"
#include "core/json.h"
#include "core/jsonfast.h"
#include "core/limits.h"
#include "core/version.h"

int mc_replay_init(mc_replay_t *rp, mc_registry_t *reg, const char *version)
{
    memset(rp, 0, sizeof(*rp));
    rp->tok = json_tokener_new_ex(MC_MAX_JSON_DEPTH);
    if (rp->tok == NULL)
        return MC_ENOMEM;
    if (mc_judge_init(&rp->j, reg) != MC_OK) {
        json_tokener_free(rp->tok);
        rp->tok = NULL;
        return MC_ENOMEM;
    }
    if (version != NULL) {
        rp->version_given = 1;
        mc_judge_set_version(&rp->j, version);
    }
    return MC_OK;
}

void mc_replay_free(mc_replay_t *rp)
{
    mc_judge_free(&rp->j);
    json_tokener_free(rp->tok);
    mc_json_keys_free(&rp->keys);
    free(rp->seq_line);
    memset(rp, 0, sizeof(*rp));
}

static int blank(const char *p, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\n')
            return 0;
    return 1;
}

static void note_line(mc_replay_t *rp, uint64_t seq, size_t line)
{
    if (rp->n_seq == rp->cap_seq) {
        size_t nc = rp->cap_seq ? rp->cap_seq * 2 : 256;
        uint64_t *nv;
        if (nc > MC_REPLAY_MAX_LINES)
            return;
        nv = realloc(rp->seq_line, nc * 2 * sizeof(*nv));
        if (nv == NULL)
            return;
        rp->seq_line = nv;
        rp->cap_seq = nc;
    }
    rp->seq_line[2 * rp->n_seq] = seq;
    rp->seq_line[2 * rp->n_seq + 1] = line;
    rp->n_seq++;
}

size_t mc_replay_line_of(const mc_replay_t *rp, uint64_t seq)
{
    size_t i;

    for (i = 0; i < rp->n_seq; i++)
        if (rp->seq_line[2 * i] == seq)
            return (size_t)rp->seq_line[2 * i + 1];
    return 0;
}

/* The version a message is judged at: the one given, else the one the
 * client asked for in initialize, then the one the server answered. */
static void set_version(mc_replay_t *rp, const char *v)
{
    mc_errbuf_t eb;

    if (rp->version_given || v == NULL || mc_version_find(v) == NULL)
        return;
    mc_judge_set_version(&rp->j, v);
    mc_errbuf_clear(&eb);
    if (rp->j.reg != NULL)
        mc_registry_load(rp->j.reg, rp->j.version, &eb); /* no schemas: not judged by schema */
}

static const char *str_at(json_object *o, const char *a, const char *b)
{
    json_object *v = NULL;

    if (!json_object_object_get_ex(o, a, &v))
        return NULL;
    if (b != NULL && (!json_object_is_type(v, json_type_object) ||
                      !json_object_object_get_ex(v, b, &v)))
        return NULL;
    return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* Parses "POST#3" / "GET#4" / "SSE#1" into *kind and *num; 0 when s is none. */
static int stream_of(const char *s, mc_stream_kind_t *kind, unsigned *num)
{
    static const struct {
        const char *p;
        mc_stream_kind_t k;
    } names[] = {{"POST#", MC_STREAM_POST}, {"GET#", MC_STREAM_GET}, {"SSE#", MC_STREAM_SSE}};
    size_t i;

    for (i = 0; s != NULL && i < sizeof(names) / sizeof(names[0]); i++) {
        size_t n = strlen(names[i].p);
        char *end;
        unsigned long v;
        if (strncmp(s, names[i].p, n) != 0)
            continue;
        v = strtoul(s + n, &end, 10);
        if (end == s + n || *end != '\0' || v > 0xFFFFFFFFul)
            return 0;
        *kind = names[i].k;
        *num = (unsigned)v;
        return 1;
    }
    return 0;
}

/*
 * The records of a message received over Streamable HTTP, rebuilt from the
 * facts the trace keeps beside it ("http": its stream, the POST a GET
 * resumes, its SSE event id), go to the judge's http rules as the transport
 * handed them live: the SSE event, then the message as it arrived. The
 * HTTP+SSE transport of 2024-11-05 (stream "SSE#n") has none of these
 * rules.
 */
static void feed_http(mc_replay_t *rp, json_object *facts, const char *data, size_t len)
{
    const char *stream = str_at(facts, "stream", NULL);
    const char *resumes = str_at(facts, "resumes", NULL);
    const char *eid = str_at(facts, "event_id", NULL);
    mc_record_t r;
    mc_record_stream_t st;
    mc_stream_kind_t rk;
    unsigned rn = 0;

    memset(&r, 0, sizeof(r));
    memset(&st, 0, sizeof(st));
    if (!stream_of(stream, &r.facts.stream, &r.facts.num))
        return;
    rp->http_frames++;
    if (r.facts.stream == MC_STREAM_SSE) {
        rp->sse_frames++;
        return;
    }
    if (resumes != NULL && stream_of(resumes, &rk, &rn))
        r.facts.resumes = rn;
    if (rp->j.w.stateless || mc_version_has(rp->j.version, MC_VF_STATELESS))
        st.flags |= MC_RS_STATELESS;
    r.facts.st = &st;
    if (eid != NULL && eid[0] != '\0') {
        snprintf(r.facts.event_id, sizeof(r.facts.event_id), "%s", eid);
        st.flags |= MC_RS_DATA;
        st.event = "";
        r.what = MC_REC_SSE_EVENT;
        mc_judge_http(&rp->j, &r, NULL);
    }
    r.what = MC_REC_MESSAGE;
    r.kind = MC_FRAME_LINE;
    r.data = (char *)data; /* borrowed for the call */
    r.len = len;
    mc_judge_http(&rp->j, &r, NULL);
}

/* An outbound message: judged, and the version learned from it when the
 * trace has to tell it (a stateless request's _meta, or initialize). */
static void replay_out(mc_replay_t *rp, uint64_t seq, const char *data, size_t len)
{
    json_object *m = NULL;

    rp->j.w.cur_seq = seq; /* the trace's number, whatever it is */
    mc_wire_outbound(&rp->j.w, data, len);
    if (rp->j.version[0] == '\0' && rp->j.w.stateless)
        set_version(rp, rp->j.w.version);
    if (rp->j.version[0] == '\0' &&
        mc_json_parse(data, len, MC_MAX_JSON_DEPTH, &m, NULL) == MC_OK) {
        const char *method = str_at(m, "method", NULL);
        if (method != NULL && strcmp(method, "initialize") == 0) {
            json_object *params = NULL;
            if (json_object_object_get_ex(m, "params", &params))
                set_version(rp, str_at(params, "protocolVersion", NULL));
        }
    }
    json_object_put(m);
}

/* An inbound message: judged, with the HTTP facts recorded beside it. */
static void replay_in(mc_replay_t *rp, json_object *rec, uint64_t seq, const char *data,
                      size_t len)
{
    mc_wire_info_t info;
    json_object *facts = NULL;
    unsigned flags = memchr(data, '\0', len) != NULL ? MC_FRAME_F_NUL : 0;

    rp->j.w.cur_seq = seq;
    if (json_object_object_get_ex(rec, "http", &facts) &&
        json_object_is_type(facts, json_type_object))
        feed_http(rp, facts, data, len);
    /* The schema check waits for the version an initialize result names. */
    mc_wire_inbound(&rp->j.w, len == 0 ? MC_FRAME_EMPTY : MC_FRAME_LINE, flags, data, len, &info);
    if (info.is_line) {
        if (info.answered_method != NULL && strcmp(info.answered_method, "initialize") == 0 &&
            info.msg.kind == MC_MSG_RESULT)
            set_version(rp, str_at(info.msg.root, "result", "protocolVersion"));
        mc_judge_schema(&rp->j, &info);
    }
    mc_wire_info_free(&info);
}

/* Judges one trace record. Returns MC_OK, or MC_EINVALID when rec is none. */
static int replay_record(mc_replay_t *rp, json_object *rec, size_t line, mc_replay_skip_t *skip)
{
    json_object *dir = NULL, *txt = NULL, *seqv = NULL, *b64 = NULL, *trunc = NULL;
    unsigned char *raw = NULL;
    const char *data;
    size_t len;
    uint64_t seq;
    int out;

    if (!json_object_is_type(rec, json_type_object) ||
        !json_object_object_get_ex(rec, "dir", &dir) ||
        !json_object_object_get_ex(rec, "line", &txt) ||
        !json_object_is_type(txt, json_type_string) || !json_object_is_type(dir, json_type_string))
        return MC_EINVALID;
    if (strcmp(json_object_get_string(dir), "note") == 0) {
        /* The HTTP transport's notes, and exchanges outside the session. */
        rp->notes++;
        return MC_OK;
    }
    out = strcmp(json_object_get_string(dir), "out") == 0;
    if (!out && strcmp(json_object_get_string(dir), "in") != 0)
        return MC_EINVALID;
    if (!out && json_object_get_string_len(txt) > 6 &&
        strncmp(json_object_get_string(txt), "(http", 5) == 0) {
        rp->notes++; /* a trace written before notes had their own "dir" */
        return MC_OK;
    }
    seq = json_object_object_get_ex(rec, "seq", &seqv) ? (uint64_t)json_object_get_int64(seqv)
                                                       : (uint64_t)line;
    data = json_object_get_string(txt);
    len = (size_t)json_object_get_string_len(txt);
    if (json_object_object_get_ex(rec, "raw_b64", &b64) &&
        json_object_is_type(b64, json_type_string)) {
        size_t blen = (size_t)json_object_get_string_len(b64);
        long k;
        raw = malloc(blen + 1);
        if (raw == NULL)
            return MC_EINVALID;
        k = mc_base64_decode(json_object_get_string(b64), blen, raw, blen);
        if (k < 0) {
            free(raw);
            return MC_EINVALID;
        }
        data = (const char *)raw;
        len = (size_t)k;
    }
    note_line(rp, seq, line);
    rp->j.w.cur_seq = seq;
    rp->messages++;
    if (json_object_object_get_ex(rec, "truncated_from", &trunc)) {
        uint64_t full = (uint64_t)json_object_get_int64(trunc);
        if (!out && full > MC_MAX_MESSAGE_SIZE) {
            mc_wire_inbound(&rp->j.w, MC_FRAME_OVERSIZE, 0, NULL, (size_t)full, NULL);
        } else if (skip != NULL) {
            /* Only the first bytes were kept: the message cannot be judged. */
            rp->skipped++;
            skip->skipped = 1;
            skip->seq = seq;
            skip->kept = len;
            skip->full = full;
        } else {
            rp->skipped++;
        }
    } else if (out) {
        replay_out(rp, seq, data, len);
    } else {
        replay_in(rp, rec, seq, data, len);
    }
    free(raw);
    return MC_OK;
}

int mc_replay_line(mc_replay_t *rp, const char *p, size_t n, size_t line, mc_replay_skip_t *skip)
{
    json_object *rec = NULL;
    int rc;

    if (skip != NULL)
        memset(skip, 0, sizeof(*skip));
    if (blank(p, n))
        return MC_OK;
    if (n > (size_t)INT32_MAX)
        return MC_EINVALID;
    /* The record is released below, before the key buffer is used again. */
    if (mc_json_fast_parse(p, n, MC_MAX_JSON_DEPTH, &rp->keys, &rec) == MC_OK) {
        rc = replay_record(rp, rec, line, skip);
    } else {
        json_tokener_reset(rp->tok);
        rec = json_tokener_parse_ex(rp->tok, p, (int)n);
        if (rec == NULL || json_tokener_get_error(rp->tok) != json_tokener_success)
            rc = MC_EINVALID;
        else
            rc = replay_record(rp, rec, line, skip);
    }
    json_object_put(rec);
    return rc;
}
