/* tilectl topo -- placeholder until its header lands. */
#include "cli.h"

int tilectl_topo(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("topo", "not implemented yet");
}
