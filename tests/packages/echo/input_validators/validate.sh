#!/bin/sh
# An input validator in shell: a digit string is valid.
grep -qx '[0-9][0-9]*' && exit 42
exit 43
