#!/usr/bin/env python3
"""run.py TEST.py: run one unittest file for CTest.

Exit 0 when every test passed, 1 when one failed, 77 (CTest's skip) when
every test was skipped -- its first skip reason is printed as
"SKIP: reason", which `make test` reports. A GPU test that skips for want
of a device fails instead under MYTRITON_REQUIRE_CUDA=1 (the test files
raise unittest.SkipTest through support.require_gpu, which checks it).
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main():
    path = sys.argv[1]
    name = os.path.splitext(os.path.basename(path))[0]
    try:
        module = __import__(name)
    except unittest.SkipTest as e:
        print(f"SKIP: {e}")
        return 77
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    if not result.wasSuccessful():
        return 1
    if result.testsRun and len(result.skipped) == result.testsRun:
        print(f"SKIP: {result.skipped[0][1]}")
        return 77
    for test, why in result.skipped:
        print(f"skipped {test.id()}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
