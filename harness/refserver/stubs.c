/* stubs.c - temporary: modules not written yet answer -32603. */
#include "refserver/internal.h"

#define STUB(fn)                                                                                   \
    void fn(mc_refserver_t *rs, json_object *id, json_object *params)                             \
    {                                                                                              \
        (void)params;                                                                              \
        mc__rs_error(rs, id, MC_RPC_INTERNAL_ERROR, "not implemented yet", NULL);                 \
    }
STUB(mc__rs_resources_list)
STUB(mc__rs_templates_list)
STUB(mc__rs_resources_read)
STUB(mc__rs_prompts_list)
STUB(mc__rs_prompts_get)
STUB(mc__rs_tools_list)
STUB(mc__rs_tools_call)
STUB(mc__rs_logging_set_level)
STUB(mc__rs_complete)
void mc__rs_resources_subscribe(mc_refserver_t *rs, json_object *id, json_object *params, int s)
{
    (void)s;
    (void)params;
    mc__rs_error(rs, id, MC_RPC_INTERNAL_ERROR, "not implemented yet", NULL);
}
void mc__rs_jobs_run(mc_refserver_t *rs) { (void)rs; }
void mc__rs_jobs_cancel(mc_refserver_t *rs, json_object *params) { (void)rs; (void)params; }
void mc__rs_jobs_free(mc_refserver_t *rs) { (void)rs; }
int64_t mc__rs_jobs_deadline(const mc_refserver_t *rs) { (void)rs; return -1; }
int mc__rs_client_request(mc_refserver_t *rs, rs_job_t *job, const char *method, json_object *params)
{
    (void)job;
    mc__rs_emit(rs, mc_jsonrpc_request(json_object_new_int64(rs->next_out_id++), method, params));
    return MC_OK;
}
void mc__rs_client_response(mc_refserver_t *rs, const mc_msg_t *msg) { (void)rs; (void)msg; }
struct rs_fileroot *mc__rs_fileroot_open(const char *dir, mc_errbuf_t *eb)
{
    (void)dir;
    mc_errbuf_set(eb, MC_EUNSUPPORTED, "--root is not implemented yet");
    return NULL;
}
void mc__rs_fileroot_free(struct rs_fileroot *fr) { (void)fr; }
