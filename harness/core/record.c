#include "core/record.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mc_record_free(mc_record_t *r)
{
    if (r == NULL)
        return;
    free(r->data);
    r->data = NULL;
    r->len = 0;
}

int mc_record_on_get_stream(const mc_record_t *r)
{
    return r != NULL && r->facts.stream == MC_STREAM_GET && r->facts.resumes == 0;
}

const char *mc_record_stream_name(mc_stream_kind_t k)
{
    switch (k) {
    case MC_STREAM_POST:
        return "POST";
    case MC_STREAM_GET:
        return "GET";
    case MC_STREAM_SSE:
        return "SSE";
    case MC_STREAM_NONE:
        break;
    }
    return "";
}

/* Appends to buf at *n what fmt makes, while there is room. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void put(char *buf, size_t cap, int *n, const char *fmt, ...)
{
    va_list ap;
    int k;

    if (*n < 0 || (size_t)*n >= cap)
        return;
    va_start(ap, fmt);
    k = vsnprintf(buf + *n, cap - (size_t)*n, fmt, ap);
    va_end(ap);
    *n = k < 0 ? -1 : *n + k;
}

size_t mc_record_facts_text(const mc_record_facts_t *f, char *buf, size_t cap)
{
    int n = 0;

    if (cap == 0)
        return 0;
    buf[0] = '\0';
    if (f == NULL || f->stream == MC_STREAM_NONE)
        return 0;
    if (cap > MC_RECORD_FACTS_TEXT)
        cap = MC_RECORD_FACTS_TEXT;
    put(buf, cap, &n, "%s#%u %ld %s", mc_record_stream_name(f->stream), f->num, f->status,
        f->ctype[0] ? f->ctype : "(no content type)");
    if (f->resumes != 0)
        put(buf, cap, &n, " resumes=POST#%u", f->resumes);
    if (f->session_id[0])
        put(buf, cap, &n, " session=%s", f->session_id);
    if (f->event_id[0])
        put(buf, cap, &n, " event-id=%s", f->event_id);
    return strlen(buf);
}
