/* Placeholder until the schema validator lands; replaced by its own module. */
#include <stdio.h>

#include "cli/commands.h"

int mc_cmd_validate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mcpcheck validate: not available in this build\n");
    return MC_EXIT_INCOMPLETE;
}
