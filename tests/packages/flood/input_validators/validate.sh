#!/bin/sh
# A number on a line of its own.
grep -qx '[0-9][0-9]*' && exit 42
exit 43
