"""compare.py ABI MODULE WORKDIR NATIVE_SECONDS SYSGATE_SECONDS

One module's regrtest results, native against sysgate (compat.sh): the
outcome of every test id (pass, skip, fail, error) from the --junit-xml
files WORKDIR/{native,sysgate}.ABI.MODULE.xml. A run without XML (killed,
crashed, timed out) is "no result" with the tail of its log. Prints one
summary line, then the tests whose outcome differs; exit 0 when the same.
"""
import os
import sys
import xml.etree.ElementTree as ET


def outcomes(path):
    """{test id: outcome}, or None without a readable XML file."""
    try:
        tree = ET.parse(path)
    except (OSError, ET.ParseError):
        return None
    result = {}
    for case in tree.iter("testcase"):
        name = case.get("name", "?")
        if case.find("error") is not None:
            result[name] = "error"
        elif case.find("failure") is not None:
            result[name] = "fail"
        elif case.find("skipped") is not None:
            result[name] = "skip"
        else:
            result[name] = "pass"
    return result


def log_tail(path, lines=3):
    try:
        with open(path, errors="replace") as f:
            return " | ".join(l.strip() for l in f.readlines()[-lines:])
    except OSError:
        return "no log"


def counts(res):
    c = {k: 0 for k in ("pass", "skip", "fail", "error")}
    for v in res.values():
        c[v] += 1
    return "%(pass)d pass, %(skip)d skip, %(fail)d fail, %(error)d error" % c


def main():
    abi, mod, work, t_native, t_sg = sys.argv[1:6]
    base = os.path.join(work, "%s." + abi + "." + mod)
    native = outcomes(base % "native" + ".xml")
    sg = outcomes(base % "sysgate" + ".xml")
    head = "%s %s (native %ss, sysgate %ss):" % (abi, mod, t_native, t_sg)
    if native is None:
        print(head, "DIFFERS: no native result:", log_tail(base % "native" + ".log"))
        return 1
    if sg is None:
        print(head, "DIFFERS: no sysgate result:", log_tail(base % "sysgate" + ".log"))
        return 1
    diff = sorted(t for t in set(native) | set(sg) if native.get(t) != sg.get(t))
    if not diff:
        print(head, "same,", counts(native))
        return 0
    print(head, "DIFFERS in %d tests; native %s; sysgate %s" % (len(diff), counts(native), counts(sg)))
    for t in diff:
        print("    %s: native %s, sysgate %s" % (t, native.get(t, "absent"), sg.get(t, "absent")))
    return 1


sys.exit(main())
