#!/usr/bin/env python3
"""gdb_tdesc_check.py TEST_GDB FEATURE_DIR

sysgate's target descriptions (test_gdb --tdesc ABI) parsed as XML (they
must be well-formed) and compared, feature by feature, with gdb's own
feature files for the same feature (32bit-/64bit-core, -sse, -linux,
-avx; valgrind ships copies of them in /usr/libexec/valgrind): the same
registers in the same order with the same sizes, and the same flag
fields for eflags and mxcsr; for the AVX feature also the same types
(gdb builds $ymmN from xmmN and a uint128 ymmNh). x32 is compared with
the 64-bit files (gdb's x32 feature has the 64-bit registers). valgrind
has no 32bit-avx.xml (it has no i386 AVX): gdb's own
gdb/features/i386/32bit-avx.xml is the 64-bit file's ymm0h..ymm7h, which
is what i386 is compared with when the file is not there. Exit 77
without the files.
"""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

FILES = {
    "org.gnu.gdb.i386.core": "core",
    "org.gnu.gdb.i386.sse": "sse",
    "org.gnu.gdb.i386.linux": "linux",
    "org.gnu.gdb.i386.avx": "avx",
}
# registers whose types must be gdb's too
TYPED = {"org.gnu.gdb.i386.avx"}


def regs(feature):
    typed = feature.get("name") in TYPED
    return [(r.get("name"), int(r.get("bitsize"))) + ((r.get("type"),) if typed else ())
            for r in feature.iter("reg")]


def reference(feature_dir, width, kind):
    """gdb's feature file, and the registers it has for this width"""
    path = os.path.join(feature_dir, "%sbit-%s.xml" % (width, kind))
    if kind == "avx" and width == "32" and not os.path.exists(path):
        ref = ET.parse(os.path.join(feature_dir, "64bit-avx.xml")).getroot()
        return ref, regs(ref)[:8]
    ref = ET.parse(path).getroot()
    return ref, regs(ref)


def flags(feature):
    return {f.get("id"): [(x.get("name"), x.get("start"), x.get("end"))
                          for x in f.iter("field")]
            for f in feature.iter("flags")}


def main():
    test_gdb, feature_dir = sys.argv[1], sys.argv[2]
    if not os.path.exists(os.path.join(feature_dir, "64bit-core.xml")):
        print("SKIP: no gdb feature files in %s (Debian package valgrind)" % feature_dir)
        return 77
    failures = 0
    for abi, width in (("i386", "32"), ("x32", "64"), ("x86_64", "64")):
        text = subprocess.run([test_gdb, "--tdesc", abi], check=True,
                              capture_output=True, text=True).stdout
        target = ET.fromstring(text)  # raises if not well-formed
        compared = 0
        for feature in target.iter("feature"):
            kind = FILES.get(feature.get("name"))
            if not kind:
                continue
            ref, ref_regs = reference(feature_dir, width, kind)
            if ref.get("name") != feature.get("name"):
                print("%s: %s: gdb's file is %s" % (abi, feature.get("name"), ref.get("name")))
                failures += 1
            if regs(feature) != ref_regs:
                print("%s: %s registers differ:\n  ours %s\n  gdb's %s"
                      % (abi, feature.get("name"), regs(feature), ref_regs))
                failures += 1
            if flags(feature) != flags(ref):
                print("%s: %s flags differ" % (abi, feature.get("name")))
                failures += 1
            compared += 1
        if compared != len(FILES):
            print("%s: %d of the %d features" % (abi, compared, len(FILES)))
            failures += 1
        print("%s: %d features compared" % (abi, compared))
    return 1 if failures else 0


sys.exit(main())
