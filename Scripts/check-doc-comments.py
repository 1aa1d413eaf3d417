#!/usr/bin/env python3
"""Checks that every public declaration of the library modules has a DocC comment (`///` right
above it, attributes aside). Exits 1 with the declarations that have none."""
import glob
import re
import sys

DECLARATION = re.compile(r'^\s*(@\w+(\([^)]*\))?\s+)*(public|open) +(static |mutating |final |override |nonisolated |indirect |convenience )*'
                         r'(func|var|let|init|struct|enum|class|protocol|typealias|subscript|case|actor)\b')
missing = []
count = 0
for path in sorted(glob.glob('Sources/*/**/*.swift', recursive=True)):
    if path.startswith(('Sources/TrawlCLI/', 'Sources/trawl/')):
        continue  # not a library product
    lines = open(path, encoding='utf-8').read().split('\n')
    for index, line in enumerate(lines):
        if not DECLARATION.match(line):
            continue
        count += 1
        above = index - 1
        while above >= 0 and re.match(r'^\s*@', lines[above]):
            above -= 1
        if above < 0 or not lines[above].strip().startswith('///'):
            missing.append(f'{path}:{index + 1}: {line.strip()}')
for entry in missing:
    print(f'check-doc-comments: no DocC comment: {entry}', file=sys.stderr)
sys.exit(1 if missing else 0)
