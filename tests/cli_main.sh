#!/usr/bin/env bash
# The `renversi` dispatcher: help, version, unknown commands.
. "$(dirname "$0")/lib.sh"

expect_exit 0 "$RENVERSI" --help
expect_stdout_has "usage: renversi COMMAND" "$RENVERSI" --help
expect_exit 0 "$RENVERSI" --version
expect_stdout_has "renversi 0.1.0" "$RENVERSI" --version
expect_exit 2 "$RENVERSI"
expect_exit 2 "$RENVERSI" no-such-command
expect_stderr_has "unknown command 'no-such-command'" "$RENVERSI" no-such-command
expect_exit 2 "$RENVERSI" bench nothing
finish
