/* Temporary: verify arrives with the mesh module. */
#include "cli/cli.h"
int cmd_verify(int argc, char **argv) { (void)argc; (void)argv; cli_error("verify: not built yet"); return CLI_FAIL; }
