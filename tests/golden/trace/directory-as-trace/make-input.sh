#!/bin/sh
# A directory given where a trace file is expected.
set -eu
mkdir input
