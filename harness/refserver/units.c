/*
 * units.c - the public face of units.h: each function forwards to the
 * refserver's own code.
 */
#include "refserver/units.h"

#include "refserver/internal.h"

_Static_assert((int)MC_REFSERVER_LIST_RESOURCES == (int)RS_LIST_RESOURCES &&
                   (int)MC_REFSERVER_LIST_TEMPLATES == (int)RS_LIST_TEMPLATES &&
                   (int)MC_REFSERVER_LIST_PROMPTS == (int)RS_LIST_PROMPTS &&
                   (int)MC_REFSERVER_LIST_TOOLS == (int)RS_LIST_TOOLS,
               "the public list tags are the internal ones");

const char *mc_refserver_version(const mc_refserver_t *rs)
{
    return mc_version_name(rs->version);
}

int mc_refserver_page(mc_refserver_t *rs, mc_refserver_list_t list, json_object *id,
                      json_object *params, size_t total, size_t *start, size_t *end,
                      const char **cursor_in)
{
    return mc__rs_page(rs, (rs_list_t)list, id, params, total, start, end, cursor_in);
}

void mc_refserver_page_finish(mc_refserver_t *rs, mc_refserver_list_t list, json_object *result,
                              size_t end, size_t total, const char *cursor_in)
{
    mc__rs_page_finish(rs, (rs_list_t)list, result, end, total, cursor_in);
}

void mc_refserver_cursor_text(mc_refserver_t *rs, mc_refserver_list_t list, size_t offset,
                              char *out)
{
    mc__rs_cursor_text(rs, (rs_list_t)list, offset, out);
}

mc_refserver_root_t *mc_refserver_root_open(const char *dir, mc_errbuf_t *eb)
{
    return mc__rs_fileroot_open(dir, eb);
}

void mc_refserver_root_free(mc_refserver_root_t *root)
{
    mc__rs_fileroot_free(root);
}

size_t mc_refserver_root_count(const mc_refserver_root_t *root)
{
    return mc__rs_fileroot_count(root);
}

const char *mc_refserver_root_name(const mc_refserver_root_t *root, size_t i)
{
    return mc__rs_fileroot_name(root, i);
}

const char *mc_refserver_root_uri(const mc_refserver_root_t *root, size_t i, char *buf,
                                  size_t cap)
{
    return mc__rs_fileroot_uri(root, i, buf, cap);
}

int mc_refserver_root_read(const mc_refserver_root_t *root, const char *uri,
                           json_object **contents, char *why, size_t why_cap)
{
    return mc__rs_fileroot_read(root, uri, contents, why, why_cap);
}
