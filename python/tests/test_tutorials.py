"""The tutorial-style scripts of python/tutorials/ (vector add, fused
softmax, matmul with autotune, layer norm: Triton programs whose only
change is `import mytriton as triton`) run unchanged as scripts on numpy
arrays -- the CPU interpreter -- and check themselves against numpy."""
import glob
import os
import subprocess
import sys
import unittest

from support import TUTORIALS

# script -> lines its output must contain
EXPECT = {
    "01-vector-add.py": ["The maximum difference between numpy and mytriton is 0.0",
                         "compiled 1 specialisation(s)"],
    "02-fused-softmax.py": ["softmax 1823x781: matches numpy", "softmax 3x4097: matches numpy",
                            "softmax of a strided view: matches numpy"],
    "03-matmul.py": ["matmul 96x72 @ 72x80 no activation: matches numpy",
                     "matmul 64x100 @ 100x48 leaky_relu: matches numpy",
                     "warning: matmul_kernel: autotuning on the CPU interpreter times nothing; using the first "
                     "config that compiles, [BLOCK_SIZE_M: 32"],
    "04-layer-norm.py": ["layer norm 64x512 (blocks of 512): matches numpy",
                         "layer norm 33x1500 (blocks of 256): matches numpy"],
}


class Tutorials(unittest.TestCase):
    def test_every_script_is_tested(self):
        self.assertEqual(sorted(os.path.basename(p) for p in glob.glob(os.path.join(TUTORIALS, "*.py"))),
                         sorted(EXPECT))

    def run_script(self, name):
        r = subprocess.run([sys.executable, os.path.join(TUTORIALS, name)], capture_output=True, text=True,
                           timeout=300)
        out = r.stdout + r.stderr
        self.assertEqual(r.returncode, 0, out)
        for line in EXPECT[name]:
            self.assertIn(line, out)


for _name in EXPECT:
    setattr(Tutorials, "test_" + _name[:-3].replace("-", "_"),
            (lambda n: lambda self: self.run_script(n))(_name))


if __name__ == "__main__":
    unittest.main()
