"""Writes broken copies of a SARIF log's first result, one per way SARIF
2.1.0's shape can be broken, as <dir>/<name>.sarif (merge-sarif-checks.test)."""
import copy
import json
import sys


def broken(log):
    def result(f):
        def make():
            out = copy.deepcopy(log)
            f(out["runs"][0]["results"][0])
            return out
        return make

    def set_(key, value):
        return lambda r: r.__setitem__(key, value)

    def region(r):
        r["locations"][0]["physicalLocation"]["region"]["startLine"] = 0

    return {
        "no-message": result(lambda r: r.pop("message")),
        "message-no-text": result(set_("message", {"markdown": "x"})),
        "no-rule": result(lambda r: r.pop("ruleId")),
        "rule-id-number": result(set_("ruleId", 3)),
        "locations-object": result(lambda r: r.__setitem__("locations", r["locations"][0])),
        "region-line-zero": result(region),
        "level-unknown": result(set_("level", "fatal")),
        "fix-no-changes": result(set_("fixes", [{"description": {"text": "x"}}])),
    }


def main():
    log = json.load(open(sys.argv[1]))
    for name, make in broken(log).items():
        with open("%s/%s.sarif" % (sys.argv[2], name), "w") as f:
            json.dump(make(), f, indent=2)


main()
