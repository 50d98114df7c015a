#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Validates JSON output against a JSON Schema file (docs/schema/) with the
jsonschema library (Draft 2020-12): every line of JSON Lines, or one
document with --document.  Prints each error with its line and path, then
how many objects of each type it saw.
usage: json-validate.py [--document] [--require TYPE,...] SCHEMA < OUTPUT"""
import collections
import json
import sys

import jsonschema


def main():
    args = sys.argv[1:]
    document = "--document" in args
    required = []
    if "--require" in args:
        i = args.index("--require")
        required = args[i + 1].split(",")
        del args[i:i + 2]
    args = [a for a in args if a != "--document"]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0]) as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    text = sys.stdin.read()
    lines = [text] if document else text.splitlines()
    seen = collections.Counter()
    bad = 0
    for n, line in enumerate(lines, 1):
        try:
            obj = json.loads(line)
        except ValueError as e:
            print(f"line {n}: not JSON: {e}")
            bad += 1
            continue
        seen[obj.get("type", "?") if isinstance(obj, dict) else "?"] += 1
        for err in sorted(validator.iter_errors(obj), key=lambda e: list(e.path)):
            path = "/".join(str(p) for p in err.absolute_path)
            print(f"line {n}: /{path}: {err.message[:300]}")
            bad += 1
    print(", ".join(f"{k} {v}" for k, v in sorted(seen.items())) or "nothing")
    for t in required:
        if not seen[t]:
            print(f"no object of type {t}")
            bad += 1
    if not lines:
        bad += 1
    print("PASS" if not bad else f"FAIL: {bad} errors")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
