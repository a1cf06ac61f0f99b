/*
 * The command-line front end (src/cli/): its commands use the helpers every
 * subcommand shares (cmdline/cmdline.h). Not public API.
 */
#ifndef RV_CLI_H
#define RV_CLI_H

#include "cmdline/cmdline.h"

#endif
