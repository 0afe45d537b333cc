/* tilectl -- the command-line face of tilehybrid's pure functions.
 *
 *   tilectl topo     process grids (topology.h)
 *   tilectl balance  balancing factors for the funneled model (balance.h)
 *   tilectl scatter  load-balanced scatter distributions (scatterlb.h)
 *   tilectl plan     the plan: grid, tile height, predicted time (tiling.h)
 *
 * Run `tilectl <command> --help` for the options of each command. */
#include "cli.h"

static void usage(FILE *f)
{
    fputs("usage: tilectl <command> [options]\n"
          "  topo     communication-optimal process grid        (topology.h)\n"
          "  balance  master-thread balancing factors           (balance.h)\n"
          "  scatter  load-balanced MPI_Scatterv distribution   (scatterlb.h)\n"
          "  plan     grid, tile height, predicted time, memory (tiling.h)\n"
          "Run 'tilectl <command> --help' for the options of a command;\n"
          "'tilectl --version' prints the toolkit's version.\n"
          "Exit status: 0 ok, 1 no answer (see the command), 2 bad arguments.\n", f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "tilectl: missing command: topo, balance, scatter or plan "
                        "(see --help)\n");
        return 2;
    }
    if (strcmp(argv[1], "topo") == 0)
        return tilectl_topo(argc - 1, argv + 1);
    if (strcmp(argv[1], "balance") == 0)
        return tilectl_balance(argc - 1, argv + 1);
    if (strcmp(argv[1], "scatter") == 0)
        return tilectl_scatter(argc - 1, argv + 1);
    if (strcmp(argv[1], "plan") == 0)
        return tilectl_plan(argc - 1, argv + 1);
    if (strcmp(argv[1], "--version") == 0) {
        printf("tilectl %s\n", TILEHYBRID_VERSION);
        return cli_finish_output("--version");
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "tilectl: writing the help: %s\n", strerror(errno));
            return 1;
        }
        return 0;
    }
    fprintf(stderr, "tilectl: unknown command '%s': expected topo, balance, scatter or plan "
                    "(see --help)\n", argv[1]);
    return 2;
}
