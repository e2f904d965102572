#!/usr/bin/env python3
"""The words of bench-cliffs.sh's hostile lines: the parser's own, with what joins them.

For each string literal of the parser's sources (what it looks for: markers, level tokens, message
families' words) and each of a few joiners, one row: a key, the unit a line repeats, and what ends
the line. CliffsBench (test scope) makes lines of each unit at four lengths and times the parser on
them: work linear in a line's length reads each length at one rate per byte; a check that searches
from each occurrence to the line's end, or hashes the rest of the line once per record, reads a
line four times longer about four times slower per byte.

  gen-cliffs.py SRC_DIR > words.tsv     # key TAB unit TAB end, one row per word and joiner
"""
import os
import re
import sys

# after the literal: nothing, a message's colon, a number between words, a name glued before it
# with a parenthesis after (an exception's class, a call); and a report at the line's end after it
# (what stands before a launcher's report is read as a wrapper)
JOINERS = (("a", "{}", ""), ("b", "{}: ", ""), ("c", "{} 123 ", ""), ("d", "x{}(", ""), ("e", "{} ", " Killed"))


def literals(src):
    found = set()
    for name in sorted(os.listdir(src)):
        if name.endswith(".java"):
            with open(os.path.join(src, name), encoding="utf-8") as f:
                for m in re.finditer(r'"((?:[^"\\\n]|\\.){3,60})"', f.read()):
                    s = m.group(1)
                    if "\\" not in s and s.isascii():
                        found.add(s)
    return sorted(found)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for i, word in enumerate(literals(sys.argv[1])):
        for tag, form, end in JOINERS:
            sys.stdout.write("%04d%s\t%s\t%s\n" % (i, tag, form.format(word), end))


if __name__ == "__main__":
    main()
