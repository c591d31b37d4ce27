/*
 * shapefns.c - the transformations of the shape fault rows (shapes.c) that
 * belong to one feature: the related-task _meta and a task's id, the version
 * initialize echoes, sampling's progress tokens, the versions a stateless
 * error lists, a log message's level and data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refserver/shapes.h"

#define RELATED_TASK "io.modelcontextprotocol/related-task"

/* ---- tasks ---- */

/* A task's id as the number it is made from ("task-N-..." -> N). */
static void task_id_number(mc_refserver_t *rs, json_object *o, const rs_shape_fault_t *f)
{
    const char *id = mc__rs_get_str(o, "taskId");

    if (id != NULL && strncmp(id, "task-", 5) == 0)
        mc__rs_put(rs, o, "taskId", json_object_new_int64(strtoll(id + 5, NULL, 10)));
}

int mc__rs_fault_task_id_number(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_shape_visit(rs, msg, f->path, task_id_number, f);
    return 1;
}

/* The related-task _meta of the task o names (its taskId, or its first
 * task's), before nextCursor. */
static void add_related(mc_refserver_t *rs, json_object *o, const rs_shape_fault_t *f)
{
    const char *id = mc__rs_get_str(o, "taskId");
    json_object *tasks = NULL, *meta, *rel;

    if (id == NULL && json_object_object_get_ex(o, "tasks", &tasks) &&
        json_object_is_type(tasks, json_type_array) && json_object_array_length(tasks) > 0)
        id = mc__rs_get_str(json_object_array_get_idx(tasks, 0), "taskId");
    if (id == NULL)
        return;
    meta = json_object_new_object();
    rel = json_object_new_object();
    mc__rs_put_str(rs, rel, "taskId", id);
    mc__rs_put(rs, meta, RELATED_TASK, rel);
    mc__rs_shape_rebuild(rs, o, NULL, NULL, "nextCursor", "_meta", meta);
}

int mc__rs_fault_related(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_shape_visit(rs, msg, f->path, add_related, f);
    return 1;
}

/* The related-task _meta left out (and _meta with it when nothing else is
 * in it). */
static void drop_related(mc_refserver_t *rs, json_object *o, const rs_shape_fault_t *f)
{
    json_object *meta = NULL;

    if (!json_object_object_get_ex(o, "_meta", &meta) ||
        !json_object_is_type(meta, json_type_object))
        return;
    json_object_object_del(meta, RELATED_TASK);
    if (json_object_object_length(meta) == 0)
        json_object_object_del(o, "_meta");
}

int mc__rs_fault_unrelated(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_shape_visit(rs, msg, f->path, drop_related, f);
    return 1;
}

/* A task's progress reported under its task id, not the call's token. */
int mc__rs_fault_token_task_id(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *p = NULL, *meta = NULL, *rel = NULL;
    const char *id;

    if (json_object_object_get_ex(msg, "params", &p) &&
        json_object_object_get_ex(p, "_meta", &meta) &&
        json_object_object_get_ex(meta, RELATED_TASK, &rel) &&
        (id = mc__rs_get_str(rel, "taskId")) != NULL)
        mc__rs_put_str(rs, p, "progressToken", id);
    return 1;
}

/* initialize's counter-offer replaced by the version the client asked for,
 * which the server does not speak (rs->unspoken_version). */
int mc__rs_fault_echo_unspoken(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *r = NULL;

    if (rs->unspoken_version != NULL && json_object_object_get_ex(msg, "result", &r) &&
        json_object_object_get_ex(r, "protocolVersion", NULL))
        mc__rs_put_str(rs, r, "protocolVersion", rs->unspoken_version);
    return 1;
}

/* The progress tokens of a tool's sampling requests ("sampling-S-N") all
 * the same ("sampling-S-0"). */
int mc__rs_fault_token_shared(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *p = NULL, *meta = NULL;
    const char *t, *dash;

    if (!json_object_object_get_ex(msg, "params", &p) ||
        !json_object_object_get_ex(p, "_meta", &meta) ||
        (t = mc__rs_get_str(meta, "progressToken")) == NULL || strncmp(t, "sampling-", 9) != 0 ||
        (dash = strrchr(t, '-')) == NULL || dash < t + 9)
        return 1;
    {
        char buf[64];
        snprintf(buf, sizeof(buf), "%.*s0", (int)(dash - t + 1), t);
        mc__rs_put_str(rs, meta, "progressToken", buf);
    }
    return 1;
}

/* The member f->key of the objects at f->path: a list of the one version
 * f->text, or (f->text NULL) of every version the server speaks, the
 * session-based ones too. */
static void set_versions(mc_refserver_t *rs, json_object *o, const rs_shape_fault_t *f)
{
    json_object *a = json_object_new_array();
    const char *const *names = mc_version_names();
    size_t i;

    if (a == NULL) {
        rs->failed = 1;
        return;
    }
    if (f->text != NULL)
        json_object_array_add(a, json_object_new_string(f->text));
    for (i = 0; f->text == NULL && names[i] != NULL; i++)
        json_object_array_add(a, json_object_new_string(names[i]));
    mc__rs_put(rs, o, f->key, a);
}

int mc__rs_fault_versions(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    mc__rs_shape_visit(rs, msg, f->path, set_versions, f);
    return 1;
}

/* ---- logging ---- */

/* A log message's level as its index, once the client changed the level. */
int mc__rs_fault_level_number(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *p = NULL;
    const char *name;
    int i;

    if (rs->log_changes <= 0 || !json_object_object_get_ex(msg, "params", &p))
        return 1;
    name = mc__rs_get_str(p, "level");
    for (i = 0; name != NULL && i < RS_LOG_LEVELS; i++) {
        if (strcmp(mc__rs_log_level_name(i), name) == 0) {
            mc__rs_put(rs, p, "level", json_object_new_int(i)); /* name is gone now */
            break;
        }
    }
    return 1;
}

/* A credential in a log message's data (when the data is an object). */
int mc__rs_fault_log_secret(mc_refserver_t *rs, json_object *msg, const rs_shape_fault_t *f)
{
    json_object *p = NULL, *data = NULL;

    if (json_object_object_get_ex(msg, "params", &p) &&
        json_object_object_get_ex(p, "data", &data) && json_object_is_type(data, json_type_object))
        mc__rs_put_str(rs, data, "apiKey", "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c");
    return 1;
}

