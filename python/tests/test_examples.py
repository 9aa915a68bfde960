"""Every example kernel (examples/*.json names the kernel, its grid, its
constexprs and its arguments), imported unchanged (`import triton` is
mytriton) and launched from Python with kernel[grid](...) on numpy arrays,
agrees with a numpy reference (references.py). Runs on the CPU interpreter
(MYTRITON_INTERPRET=1), so it runs in CI and on a GPU machine alike."""
import json
import os
import unittest

import references

os.environ["MYTRITON_INTERPRET"] = "1"


class Examples(unittest.TestCase):
    def check(self, spec_path):
        spec, kernel, arrays, scalars, grid, inputs = references.prepare(spec_path)
        kernel[grid](**arrays, **scalars)
        self.assertEqual(kernel.compiles, 1)
        references.check(self, spec, arrays, inputs, scalars)


def _add(spec_path):
    name = os.path.basename(spec_path)[:-5].replace(".", "_")
    setattr(Examples, f"test_{name}", lambda self: self.check(spec_path))


for _p in references.specs():
    _add(_p)


class Coverage(unittest.TestCase):
    def test_every_example_has_a_reference(self):
        for p in references.specs():
            with open(p) as f:
                self.assertIn(json.load(f)["kernel"], references.REFS, p)


if __name__ == "__main__":
    unittest.main()
