/*
 * faults.c - the behaviour faults' hooks: which switch plugs into each hook
 * (RS_HOOK_MAP, faults.h), and the hooks that give a value. Nothing here
 * sends a message; the handlers ask, and do what the answer says.
 */
#include <unistd.h>

#include "refserver/internal.h"

/* The switch of each hook, in the order of rs_hook_t. */
static const rs_bug_t rs_hook_bugs[RS_HOOK_COUNT] = {
#define RS_HOOK_BUG(hook, bug, what) RS_BUG_##bug,
    RS_HOOK_MAP(RS_HOOK_BUG)
#undef RS_HOOK_BUG
};

int rs_fault_hook(const mc_refserver_t *rs, rs_hook_t hook)
{
    return hook >= 0 && hook < RS_HOOK_COUNT && rs->bug == rs_hook_bugs[hook];
}

mc_version_id_t rs_negotiated(const mc_refserver_t *rs, int v)
{
    switch (rs->bug) {
    case RS_BUG_VERSION_COUNTER_OFFER_UNSPOKEN: /* refuses its oldest, offers it for others */
        if (v == MC_V_2024_11_05)
            return RS_NEWEST_HANDSHAKE;
        if (v < 0)
            return MC_V_2024_11_05;
        break;
    case RS_BUG_VERSION_COUNTER_OFFER_OLDEST: /* offers its oldest for an unknown version */
        if (v < 0)
            return MC_V_2024_11_05;
        break;
    case RS_BUG_VERSION_NOT_ECHOED: /* answers a known version with another */
        if (v >= 0)
            return v == RS_NEWEST_HANDSHAKE ? MC_V_2025_06_18 : RS_NEWEST_HANDSHAKE;
        break;
    default:
        break;
    }
    return v < 0 ? RS_NEWEST_HANDSHAKE : (mc_version_id_t)v;
}

int64_t rs_next_request_id(mc_refserver_t *rs)
{
    if (rs->bug == RS_BUG_SERVER_ID_REUSE)
        return 1;
    return rs->next_out_id++;
}

uint32_t rs_task_number(const mc_refserver_t *rs, uint32_t serial)
{
    return rs->bug == RS_BUG_TASK_ID_REUSED ? 1u : serial;
}

uint32_t rs_cursor_check(const mc_refserver_t *rs, uint32_t h)
{
    return rs->bug == RS_BUG_CURSOR_PROCESS_BOUND ? h ^ (uint32_t)getpid() : h;
}

int64_t rs_poll_wait(const mc_refserver_t *rs, int64_t ms)
{
    return rs->bug == RS_BUG_TASKREQ_POLL_TOO_FAST ? RS_TASKREQ_FAST_POLL_MS : ms;
}

double rs_progress_value(const mc_refserver_t *rs, int step)
{
    if (rs->bug == RS_BUG_PROGRESS_NOT_INCREASING && step == 2)
        return 50.0;
    return step * 50.0;
}
