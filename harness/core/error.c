#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *mc_strerror(int err)
{
    switch (err) {
    case MC_OK:
        return "success";
#define MC__XX(name, msg)                                                      \
    case MC_E##name:                                                           \
        return msg;
        MC_ERRNO_MAP(MC__XX)
#undef MC__XX
    default:
        return "unknown error";
    }
}

const char *mc_err_name(int err)
{
    switch (err) {
    case MC_OK:
        return "MC_OK";
#define MC__XX(name, msg)                                                      \
    case MC_E##name:                                                           \
        return "MC_E" #name;
        MC_ERRNO_MAP(MC__XX)
#undef MC__XX
    default:
        return "MC_EUNKNOWN";
    }
}

void mc_errbuf_clear(mc_errbuf_t *eb)
{
    if (eb == NULL)
        return;
    eb->msg[0] = '\0';
    eb->set = 0;
}

int mc_errbuf_set(mc_errbuf_t *eb, int err, const char *fmt, ...)
{
    va_list ap;
    size_t n;

    if (eb == NULL || eb->set)
        return err;
    va_start(ap, fmt);
    vsnprintf(eb->msg, sizeof(eb->msg), fmt, ap);
    va_end(ap);
    /* Keep messages single-line: strip trailing newlines. */
    n = strlen(eb->msg);
    while (n > 0 && (eb->msg[n - 1] == '\n' || eb->msg[n - 1] == '\r'))
        eb->msg[--n] = '\0';
    eb->set = 1;
    return err;
}
