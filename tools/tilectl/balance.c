/* tilectl balance -- placeholder until its header lands. */
#include "cli.h"

int tilectl_balance(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("balance", "not implemented yet");
}
