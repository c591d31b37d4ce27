#include "cli/afldriver/area.h"

/* Defined by the AFL++ runtime afl-clang-fast links in. */
extern unsigned char *__afl_area_ptr;
extern unsigned int __afl_map_size;

unsigned char *mc_afl_area(size_t *n)
{
    *n = __afl_map_size;
    return __afl_area_ptr;
}
