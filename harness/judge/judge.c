#include "judge/judge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/builtin.h"

int mc_judge_init(mc_judge_t *j, mc_registry_t *reg)
{
    memset(j, 0, sizeof(*j));
    j->rep = malloc(sizeof(*j->rep));
    if (j->rep == NULL)
        return MC_ENOMEM;
    memset(j->rep, 0, sizeof(*j->rep));
    if (mc_wire_init(&j->w) != MC_OK) {
        free(j->rep);
        j->rep = NULL;
        return MC_ENOMEM;
    }
    j->reg = reg;
    return MC_OK;
}

void mc_judge_free(mc_judge_t *j)
{
    if (j->rep == NULL)
        return;
    mc_wire_free(&j->w);
    mc__judge_http_free(j);
    free(j->rep);
    j->rep = NULL;
}

void mc_judge_set_version(mc_judge_t *j, const char *version)
{
    snprintf(j->version, sizeof(j->version), "%s", version != NULL ? version : "");
}

/* The number of the line being judged: the caller's, else the next one. */
static uint64_t number(mc_judge_t *j, uint64_t seq)
{
    if (seq != 0)
        j->lines = seq;
    else
        j->lines = (j->counted != NULL ? *j->counted : j->lines) + 1;
    return j->lines;
}

void mc_judge_outbound(mc_judge_t *j, uint64_t seq, const char *line, size_t len)
{
    j->w.cur_seq = number(j, seq);
    mc_wire_outbound(&j->w, line, len);
}

void mc_judge_schema(mc_judge_t *j, const mc_wire_info_t *info)
{
    const char *method = info->msg.method ? info->msg.method : info->answered_method;
    const char *version = j->follow != NULL ? j->follow : j->version;
    mc_errbuf_t eb;
    size_t i;
    int rc;

    if (j->reg == NULL || version[0] == '\0' || info->msg.root == NULL ||
        mc_registry_schema(j->reg, version) == NULL)
        return; /* no schemas for this version: not judged by schema */
    if (info->msg.kind == MC_MSG_ERROR && info->msg.id == NULL)
        return; /* judged by the wire rules (see judge.h) */
    if (info->msg.kind == MC_MSG_RESULT && info->answered_unversioned)
        return; /* perhaps a legacy answer of a server of both eras (see mc_wire_info_t) */
    mc_schema_report_clear(j->rep);
    mc_errbuf_clear(&eb);
    rc = mc_registry_validate_message(j->reg, version, info->msg.root, info->answered_method,
                                      j->rep, &eb);
    if (rc == MC_OK) {
        mc_wire_pass(&j->w, mc_schema_check_for(method, NULL));
        return;
    }
    if (rc != MC_EINVALID)
        return;
    for (i = 0; i < j->rep->n_entries; i++) {
        const mc_schema_error_t *e = &j->rep->entries[i];
        if (e->severity != MC_SCHEMA_ERROR)
            continue;
        if (j->detail_at_instance)
            mc_wire_fail(&j->w, mc_schema_check_for(method, e->instance_path),
                         "%.60s %s at %.100s: %.200s", method ? method : "response",
                         mc_msg_kind_name(info->msg.kind), e->instance_path, e->message);
        else
            mc_wire_fail(&j->w, mc_schema_check_for(method, e->instance_path),
                         "%.60s %s: %.300s (schema %.120s)", method ? method : "response",
                         mc_msg_kind_name(info->msg.kind), e->message, e->schema_path);
        return;
    }
}

void mc_judge_inbound(mc_judge_t *j, uint64_t seq, int kind, unsigned flags, const char *data,
                      size_t len, mc_wire_info_t *out)
{
    mc_wire_info_t info;

    j->w.cur_seq = number(j, seq);
    mc_wire_inbound(&j->w, kind, flags, data, len, &info);
    if (info.is_line)
        mc_judge_schema(j, &info);
    if (out != NULL)
        *out = info;
    else
        mc_wire_info_free(&info);
}
