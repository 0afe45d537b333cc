/* tilectl scatter -- placeholder until its header lands. */
#include "cli.h"

int tilectl_scatter(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("scatter", "not implemented yet");
}
