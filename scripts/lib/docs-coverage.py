#!/usr/bin/env python3
"""Lists the public symbols of a module that have no documentation comment, from the symbol graphs
swift-symbolgraph-extract wrote (MODULE.symbols.json and MODULE@OTHER.symbols.json: the module's
extensions of other modules' types). Exit status 1 when there is one, 0 otherwise.

    docs-coverage.py SYMBOL_GRAPH_DIR MODULE...

A symbol counts as documented when it has its own doc comment, or when it implements a requirement
of a protocol (its documentation is the requirement's: `description`, `==`, `init(from:)`, a
protocol's default implementation documented at the requirement) — DocC shows the requirement's.
Symbols the compiler synthesises (implicit memberwise members, inherited protocol extension
members of other modules) carry no source location and are not the module's to document.
"""
import json
import os
import sys


def main():
    if len(sys.argv) < 3:
        print("usage: docs-coverage.py SYMBOL_GRAPH_DIR MODULE...", file=sys.stderr)
        return 2
    directory, modules = sys.argv[1], sys.argv[2:]
    missing = []
    for module in modules:
        files = [f for f in sorted(os.listdir(directory))
                 if f == module + ".symbols.json" or (f.startswith(module + "@") and f.endswith(".symbols.json"))]
        if not files:
            print(f"docs-coverage: no symbol graph for {module} in {directory}", file=sys.stderr)
            return 2
        for name in files:
            with open(os.path.join(directory, name), encoding="utf-8") as f:
                graph = json.load(f)
            # Symbols that implement a requirement of a protocol, or that are a default implementation.
            implements = {r["source"] for r in graph.get("relationships", [])
                          if r["kind"] in ("requirementOf", "optionalRequirementOf", "defaultImplementationOf")}
            documented_requirement = set()
            for symbol in graph["symbols"]:
                if symbol.get("docComment", {}).get("lines"):
                    documented_requirement.add(symbol["identifier"]["precise"])
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                if symbol.get("docComment", {}).get("lines"):
                    continue
                location = symbol.get("location")
                if location is None:
                    continue  # synthesised by the compiler
                precise = symbol["identifier"]["precise"]
                if precise in implements:
                    continue
                # A member that satisfies a protocol requirement (its own docs inherited): the symbol
                # graph marks those with sourceOrigin (the requirement it implements).
                if "sourceOrigin" in symbol:
                    continue
                uri = location.get("uri", "")
                path = uri.replace("file://", "", 1)
                line = location.get("position", {}).get("line", 0) + 1
                title = ".".join(symbol.get("pathComponents", [symbol["names"]["title"]]))
                missing.append(f"{os.path.relpath(path)}:{line}: {module}: {symbol['kind']['displayName'].lower()} "
                               f"{title} is public and undocumented")
    for line in sorted(set(missing)):
        print(line)
    if missing:
        print(f"docs-coverage: {len(set(missing))} public symbols without documentation", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
