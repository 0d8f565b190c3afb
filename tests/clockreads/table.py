"""Reads the plugin's JSON lines and prints, per module, the test functions that read no
clock and the modules none of whose tests read
it (to leave DATE_MODULES). Usage: python table.py /tmp/clock.jsonl"""

from __future__ import annotations

import glob
import json
import sys
from collections import defaultdict


def main(prefix: str) -> None:
    tests, hot = [], []
    for path in sorted(glob.glob(prefix + ".*")):
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                if "id" in record:
                    tests.append(record)
                elif any(record["delta"]):
                    hot.append((record["fixture"], record["baseid"]))
    functions: dict[str, dict[str, bool]] = defaultdict(dict)
    for test in tests:
        module, _, rest = test["id"].partition("::")
        reads = any(any(test.get(phase, [1])) for phase in ("setup", "call", "teardown"))
        reads = reads or any(name in test["fixtures"] and test["id"].startswith(base)
                             for name, base in hot)
        name = rest.split("[")[0].split("::")[-1]
        functions[module][name] = functions[module].get(name, False) or reads
    for module, names in sorted(functions.items()):
        free = sorted(name for name, reads in names.items() if not reads)
        if len(free) == len(names):
            print(f"{module}: no test reads the clock")
        elif free:
            print(f"{module}: {free}")


if __name__ == "__main__":
    main(sys.argv[1])
