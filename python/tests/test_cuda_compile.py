"""Every example kernel compiles from Python through the CUDA stage (what
a GPU launch compiles; NVRTC and the GPU are not needed for it), with the
signature the launch would make from float32 tensors; the kernels the
fast lowering cannot lower yet raise CompilationError E0603 naming the
construct, as a GPU launch of them would."""
import glob
import json
import os
import unittest

from support import EXAMPLES, load_example
import mytriton

NOT_YET = {"row_argmax_kernel", "row_cumsum_kernel"}   # E0603 in the fast lowering
SIG = {"float32": "*fp32:16", "float16": "*fp16:16", "int32": "*i32:16"}


class CudaStage(unittest.TestCase):
    def check(self, spec_path):
        with open(spec_path) as f:
            spec = json.load(f)
        kernel = getattr(load_example(os.path.basename(spec["source"])[:-3]), spec["kernel"])
        consts = spec.get("constexprs") or {}
        entries = []
        for p in kernel.params:
            v = spec["args"].get(p.name)
            if p.is_constexpr:
                entries.append(repr(consts[p.name]) if p.name in consts else "")
            elif isinstance(v, dict):
                entries.append(SIG[v["dtype"]])
            else:
                entries.append("fp32" if isinstance(v, float) else "i32")
        path, text = kernel.source()
        if spec["kernel"] in NOT_YET:
            with self.assertRaises(mytriton.CompilationError) as cm:
                mytriton._C.compile(path, text, spec["kernel"], ",".join(entries), stage="cuda")
            self.assertEqual(cm.exception.diagnostics[0].code, "E0603")
            return
        k = mytriton._C.compile(path, text, spec["kernel"], ",".join(entries), stage="cuda")
        self.assertIn("__global__", k.text("cuda"))
        self.assertGreater(k.launch_shape["threads"], 0)


for _p in sorted(glob.glob(os.path.join(EXAMPLES, "*.json"))):
    setattr(CudaStage, "test_" + os.path.basename(_p)[:-5].replace(".", "_"),
            (lambda p: lambda self: self.check(p))(_p))


if __name__ == "__main__":
    unittest.main()
