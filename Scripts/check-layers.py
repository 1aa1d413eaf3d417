#!/usr/bin/env python3
"""Checks the module layers of Package.swift (ARCHITECTURE.md): each target depends only on
targets of lower layers; the internal targets are no products; catalog search alone links no
navigator, file walker, tree index or PCRE2. Exits 1 with what is wrong."""
import json
import subprocess
import sys

# Bottom up; a target may depend on targets of earlier layers only.
LAYERS = [
    ["TrawlKernels", "CTrawlSystem", "CPCRE2", "CZlib"],
    ["TrawlStorage", "TrawlConcurrency", "TrawlText"],
    ["TrawlNGram"],
    ["TrawlMatch"],
    ["TrawlFiles"],
    ["TrawlIndex"],
    ["TrawlFind", "TrawlCatalog"],
    ["TrawlSearchable"],
    ["Trawl", "TrawlCLI"],
    ["trawl"],
]
INTERNAL = {"TrawlKernels", "CTrawlSystem", "CPCRE2", "CZlib", "TrawlStorage", "TrawlConcurrency", "TrawlCLI", "TrawlTestSupport"}
# What the catalog must not link, directly or not.
CATALOG_EXCLUDES = {"TrawlFind", "TrawlFiles", "TrawlIndex", "TrawlMatch", "CPCRE2", "TrawlSearchable"}

package = json.loads(subprocess.run(["swift", "package", "dump-package"], capture_output=True, text=True, check=True).stdout)
layer_of = {name: index for index, names in enumerate(LAYERS) for name in names}
dependencies = {}
for target in package["targets"]:
    names = []
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dependency:
                names.append(dependency[kind][0])
    dependencies[target["name"]] = [name for name in names if name in layer_of or name == "TrawlTestSupport"]

problems = []
for target in package["targets"]:
    name = target["name"]
    if target["type"] == "test" or name == "TrawlTestSupport":
        continue
    if name not in layer_of:
        problems.append(f"{name}: not in a layer of Scripts/check-layers.py (and ARCHITECTURE.md)")
        continue
    for dependency in dependencies[name]:
        if dependency in layer_of and layer_of[dependency] >= layer_of[name]:
            problems.append(f"{name} depends on {dependency}, which is not below it")

for product in package["products"]:
    for name in product["targets"]:
        if name in INTERNAL:
            problems.append(f"product {product['name']} exposes the internal target {name}")


def closure(name, seen):
    for dependency in dependencies.get(name, []):
        if dependency not in seen:
            seen.add(dependency)
            closure(dependency, seen)
    return seen


linked = closure("TrawlCatalog", set()) & CATALOG_EXCLUDES
if linked:
    problems.append(f"TrawlCatalog links {sorted(linked)}")

for problem in problems:
    print(f"check-layers: {problem}", file=sys.stderr)
sys.exit(1 if problems else 0)
