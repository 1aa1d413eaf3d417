#!/usr/bin/env python3
"""Prints the byte rarity table of Sources/TrawlMatch/ByteRarity.swift from a corpus file.

Usage: Scripts/byte-rarity.py CORPUS_FILE   (e.g. swift100m.txt from ../shared/tools/make-corpus.sh)
Rarity is the rank of a byte by frequency: 0 for the most frequent byte, 255 for the rarest.
"""
import collections, sys

data = open(sys.argv[1], "rb").read()
counts = collections.Counter(data)
order = sorted(range(256), key=lambda b: (-counts.get(b, 0), b))
rarity = [0] * 256
for rank, byte in enumerate(order):
    rarity[byte] = rank
rows = [", ".join(str(r) for r in rarity[i:i + 16]) for i in range(0, 256, 16)]
print(",\n".join("    " + row for row in rows))
