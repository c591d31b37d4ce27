/*
 * inject.c - the violation switch table: lookup and --list-bugs output.
 */
#include <stdio.h>
#include <string.h>

#include "core/version.h"
#include "refserver/inject.h"
#include "refserver/internal.h"
#include "refserver/refserver.h"

typedef struct rs_bug_info {
    const char *name;
    const char *level;
    const char *rule;
    const char *ref;
} rs_bug_info_t;

/* Bytes of one --list-bugs line. */
#define RS_BUG_LINE_MAX 2048

static const rs_bug_info_t rs_bugs[] = {
    {"", "", "", ""},
#define RS__XX(id, name, level, rule, ref) {name, level, rule, ref},
    RS_BUG_MAP(RS__XX)
#undef RS__XX
};

/*
 * The versions a switch concerns: those the server speaks that have the
 * features the broken rule needs, from the version since on. A switch not
 * listed concerns every version the server speaks through initialize.
 */
static const struct {
    rs_bug_t bug;
    unsigned needs; /* MC_VF_* */
    mc_version_id_t since;
} rs_bug_versions[] = {
    {RS_BUG_BATCH_ANSWERED_WRONGLY, MC_VF_BATCH, MC_V_2024_11_05},
    /* The switched server does not speak its oldest version at all. */
    {RS_BUG_VERSION_COUNTER_OFFER_UNSPOKEN, 0, MC_V_2025_03_26},
    /* Up to 2025-06-18 the null-id answer JSON-RPC 2.0 asks for is one the
     * version's schema forbids: the rule is a MUST only from 2025-11-25. */
    {RS_BUG_PARSE_ERROR_CODE, 0, MC_V_2025_11_25},
    {RS_BUG_TOOL_STRUCTURED_NONCONFORMING, MC_VF_STRUCTURED, MC_V_2024_11_05},
    {RS_BUG_TOOL_STRUCTURED_TEXT_MISMATCH, MC_VF_STRUCTURED, MC_V_2024_11_05},
    {RS_BUG_ELICIT_NO_CAP, MC_VF_ELICIT_FORM, MC_V_2024_11_05},
    {RS_BUG_ELICIT_NESTED_SCHEMA, MC_VF_ELICIT_FORM, MC_V_2024_11_05},
    {RS_BUG_ELICIT_SENSITIVE, MC_VF_ELICIT_FORM, MC_V_2024_11_05},
    {RS_BUG_ELICIT_URL_NO_CAP, MC_VF_ELICIT_URL, MC_V_2024_11_05},
    {RS_BUG_ELICIT_URL_NO_ID, MC_VF_ELICIT_URL, MC_V_2024_11_05},
    {RS_BUG_ELICIT_COMPLETE_WRONG_ID, MC_VF_ELICIT_URL, MC_V_2024_11_05},
    {RS_BUG_URL_ERROR_NO_LIST, MC_VF_ELICIT_URL, MC_V_2024_11_05},
    /* The rule is written from 2025-11-25 on (client/elicitation#safe-url-handling). */
    {RS_BUG_ELICIT_FORM_URL, MC_VF_ELICIT_FORM, MC_V_2025_11_25},
    /* Completion scenarios need the capability flag to know the server completes. */
    {RS_BUG_COMPLETION_TOO_MANY, MC_VF_COMPLETIONS_CAP, MC_V_2024_11_05},
    {RS_BUG_COMPLETION_RENARROWED, MC_VF_COMPLETIONS_CAP, MC_V_2024_11_05},
    {RS_BUG_COMPLETIONS_CAP_UNDECLARED, MC_VF_COMPLETIONS_CAP, MC_V_2024_11_05},
    /* The rules of the stateless protocol. */
    {RS_BUG_RESULT_TYPE_MISSING, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_DISCOVER_MISSING, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_DISCOVER_LYING, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_LISTEN_NOT_OPTED_IN, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_LOG_WITHOUT_LEVEL, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_NOT_FOUND_OLD_CODE, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_INPUT_REQUIRED_EMPTY, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_VERSION_ERROR_LIST_DIFFERS, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_ERROR_CODE_UNDEFINED, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_LOG_META_LEVEL_INVALID_ACCEPTED, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_CACHE_TTL_NEGATIVE, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_STATELESS_SERVER_REQUEST, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_CANCELLED_NOT_LISTEN, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_INPUT_REQUEST_KIND, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_ERROR_CODE_LEGACY, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_INPUT_RESPONSES_UNCHECKED, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_INPUT_RESPONSES_MISSING_ERROR, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_INPUT_RESPONSES_UNKNOWN_REFUSED, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_DISCOVER_REQUIRED_FIRST, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_DISCOVER_CAPS_LACKING, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_LIST_REFUSED_DECLARED, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_CACHE_SCOPE_BY_PAGE, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_X_MCP_HEADER_NOT_TOKEN, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_X_MCP_HEADER_NUMBER, MC_VF_STATELESS, MC_V_2024_11_05},
    /* The stdio page of 2026-07-28 asks the server to exit when stdin closes. */
    {RS_BUG_STDIN_EOF_IGNORED, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_STATELESS_CANCELLED_ANSWERED, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_X_MCP_HEADER_NOT_STATIC, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_LIST_VARIES_AFTER_REQUEST, MC_VF_STATELESS, MC_V_2024_11_05},
    /* The tasks rules (2025-11-25). */
    {RS_BUG_TASK_CAP_UNDECLARED, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_ID_NOT_STRING, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_ID_REUSED, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_BEGINS_COMPLETED, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_TIME_NOT_ISO, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_GET_NO_TTL, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_RELATED_ON_OPS, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_RESULT_NO_RELATED, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_RESULT_NOT_UNDERLYING, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_LIST_NO_CURSOR, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_CANCEL_TERMINAL, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_CANCEL_STILL_WORKING, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_CANCELLED_COMPLETES, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_UNKNOWN_ID_INTERNAL, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_FORBIDDEN_RUN, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_REQUIRED_RUN, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_CALL_ANSWERED_PLAINLY, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_RELATED_META_WINS, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_UNDECLARED_REFUSED, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_ERROR_NOT_RETURNED, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_FAILED_NO_STATUS_MESSAGE, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_AUGMENTED_UNDECLARED, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_RESULT_NOT_BLOCKING, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_PROGRESS_TOKEN_CHANGED, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_PROGRESS_AFTER_TERMINAL, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_PROGRESS_NO_RELATED, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_STATUS_RELATED, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_INPUT_NOT_REQUIRED, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASK_ELICIT_NO_RELATED, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASKREQ_POLL_TOO_FAST, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASKREQ_STOPS_POLLING, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASKREQ_NO_PREEMPTIVE_RESULT, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASKREQ_RELATED_META, MC_VF_TASKS, MC_V_2024_11_05},
    {RS_BUG_TASKREQ_CURSOR_MODIFIED, MC_VF_TASKS, MC_V_2024_11_05},
    /* The _meta key name format is written from 2025-06-18 on (basic#_meta). */
    {RS_BUG_META_KEY_MALFORMED, 0, MC_V_2025_06_18},
    {RS_BUG_ERROR_CODE_MISUSED, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_META_TRACEPARENT_MALFORMED, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_RESULT_NO_SERVER_INFO, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_EXTENSION_ID_UNPREFIXED, MC_VF_STATELESS, MC_V_2024_11_05},
    /* Tool names are case-sensitive from 2025-11-25 on (server/tools#tool-names). */
    {RS_BUG_TOOL_NAME_CASE_FOLDED, 0, MC_V_2025_11_25},
    {RS_BUG_ELICIT_DECLINE_UNHANDLED, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_INPUT_REQUEST_KEY_DUPLICATED, MC_VF_STATELESS, MC_V_2024_11_05},
    /* The schema dialect's recommendation is written from 2025-11-25 on (basic#schema-dialect). */
    {RS_BUG_TOOL_SCHEMA_DRAFT07, 0, MC_V_2025_11_25},
    /* The switched server speaks the stateless version only. */
    {RS_BUG_INIT_ERROR_NO_VERSIONS, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_CLIENT_INFO_CHANGES_RESULT, MC_VF_STATELESS, MC_V_2024_11_05},
    {RS_BUG_CURSOR_PROCESS_BOUND, MC_VF_STATELESS, MC_V_2024_11_05},
    /* Icons are listed from 2025-11-25 on (basic/index#icons). */
    {RS_BUG_ICON_SRC_FILE, MC_VF_ICONS, MC_V_2024_11_05},
};

/* Writes the versions bug concerns into buf, comma-separated. */
static void bug_versions(rs_bug_t bug, char *buf, size_t n)
{
    unsigned needs = 0;
    int since = 0, v;
    size_t i, used = 0;

    for (i = 0; i < sizeof(rs_bug_versions) / sizeof(rs_bug_versions[0]); i++)
        if (rs_bug_versions[i].bug == bug) {
            needs = rs_bug_versions[i].needs;
            since = (int)rs_bug_versions[i].since;
        }
    buf[0] = '\0';
    /* The stateless version (served apart, modern.c) is concerned only by
     * the switches of its own rules. */
    for (v = since; v < MC_V_COUNT; v++) {
        const char *name = mc_version_name(v);
        int w;
        if (!mc_version_has(name, needs) ||
            (!mc__rs_handshake_version(v) && !(needs & MC_VF_STATELESS)))
            continue;
        w = snprintf(buf + used, n - used, "%s%s", used > 0 ? "," : "", name);
        if (w < 0 || (size_t)w >= n - used)
            return;
        used += (size_t)w;
    }
}

rs_bug_t mc__rs_bug_find(const char *name)
{
    int i;

    if (name == NULL)
        return RS_BUG_NONE;
    for (i = 1; i < RS_BUG_COUNT; i++)
        if (strcmp(rs_bugs[i].name, name) == 0)
            return (rs_bug_t)i;
    return RS_BUG_NONE;
}

const char *mc__rs_bug_name(rs_bug_t bug)
{
    if ((int)bug <= 0 || bug >= RS_BUG_COUNT)
        return "";
    return rs_bugs[bug].name;
}

int mc_refserver_bug_count(void)
{
    return RS_BUG_COUNT - 1;
}

void mc_refserver_list_bugs(void (*fn)(void *ctx, const char *line), void *ctx)
{
    char line[RS_BUG_LINE_MAX], vers[128];
    int i;

    for (i = 1; i < RS_BUG_COUNT; i++) {
        bug_versions((rs_bug_t)i, vers, sizeof(vers));
        snprintf(line, sizeof(line), "%s\t%s\t%s\t%s\t%s\t%s\t%s", rs_bugs[i].name,
                 rs_bugs[i].level, rs_bugs[i].rule, rs_bugs[i].ref, vers,
                 mc__rs_switch_catchers(rs_bugs[i].name), mc__rs_switch_where(rs_bugs[i].name));
        fn(ctx, line);
    }
}
