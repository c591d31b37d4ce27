/*
 * tools_trigger.c - the tools that change what the server offers: the
 * watched resource's revision (and its notifications/resources/updated to
 * subscribers) and the dynamic resource, prompt and tool (with their
 * list_changed notifications).
 */
#include <stdio.h>

#include "refserver/internal.h"

int mc__rs_tool_trigger_update(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    char text[96];

    (void)reply;
    mc__rs_resources_touch(rs);
    snprintf(text, sizeof(text), "test://watched-resource is now at revision %u",
             (unsigned)rs->watched_rev);
    mc__rs_job_finish_text(rs, job, text, 0);
    return RS_STEP_DONE;
}

/* Flips a list toggle, announces the change and answers the call. */
static int trigger_list(mc_refserver_t *rs, rs_job_t *job, rs_list_t list, int *toggle,
                        const char *method, const char *what)
{
    char text[128];

    *toggle = !*toggle;
    mc__rs_fast_list_changed(rs, list);
    mc__rs_notify_change(rs, method, NULL, 1, NULL);
    snprintf(text, sizeof(text), "%s is now %s", what, *toggle ? "listed" : "gone");
    mc__rs_job_finish_text(rs, job, text, 0);
    return RS_STEP_DONE;
}

int mc__rs_tool_trigger_resources(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    (void)reply;
    return trigger_list(rs, job, RS_LIST_RESOURCES, &rs->dyn_resource,
                        "notifications/resources/list_changed", "test://dynamic-resource");
}

int mc__rs_tool_trigger_prompts(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    (void)reply;
    return trigger_list(rs, job, RS_LIST_PROMPTS, &rs->dyn_prompt,
                        "notifications/prompts/list_changed", "test_dynamic_prompt");
}

int mc__rs_tool_trigger_tools(mc_refserver_t *rs, rs_job_t *job, const rs_reply_t *reply)
{
    (void)reply;
    return trigger_list(rs, job, RS_LIST_TOOLS, &rs->dyn_tool, "notifications/tools/list_changed",
                        "test_dynamic_tool");
}
