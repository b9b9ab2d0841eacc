# The entry point sources the other script by a path relative to its own folder.
#
# @EXPECTED_RESULTS@: CORRECT

. ./greet.sh

read -r name
greet "$name"
