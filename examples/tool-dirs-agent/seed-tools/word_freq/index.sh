#!/bin/bash
# Inputs arrive as INPUT_<NAME> variables (and as JSON in $TOOL_INPUT_FILE).
# Words, lower-cased, counted, then sorted: most frequent first, ties by word.
tr -cs 'A-Za-z' '\n' < "$INPUT_PATH" | tr 'A-Z' 'a-z' | grep -v '^$' | sort | uniq -c \
  | awk '{ print $1, $2 }' | sort -k1,1nr -k2,2 | head -n "$INPUT_TOP"
