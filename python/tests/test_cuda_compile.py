"""Every example kernel compiles from Python through the CUDA stage (what
a GPU launch compiles; NVRTC and the GPU are not needed for it), with the
signature the launch would make from float32 tensors, and so does each
kernel of python/tutorials (Triton's tutorials 01-04). A construct the
fast lowering does not lower (tl.device_print today) raises
CompilationError E0603 at its line in the user's file, as a GPU launch
of it would."""
import glob
import json
import os
import unittest

from support import EXAMPLES, load_example, load_tutorial
import mytriton

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
        k = mytriton._C.compile(path, text, spec["kernel"], ",".join(entries), stage="cuda")
        self.assertIn("__global__", k.text("cuda"))
        self.assertGreater(k.launch_shape["threads"], 0)


    def test_not_lowered_is_a_compilation_error_at_its_line(self):
        import kernels
        path, text = kernels.printing_kernel.source()
        with self.assertRaises(mytriton.CompilationError) as cm:
            mytriton._C.compile(path, text, "printing_kernel", "*fp32:16,16", stage="cuda")
        d = cm.exception.diagnostics[0]
        line = next(i for i, ln in enumerate(text.splitlines(), 1) if "NOT-FAST" in ln)
        self.assertEqual((d.code, d.file, d.line), ("E0603", path, line))
        self.assertIn("fast CUDA lowering", d.message)


    def test_num_stages_changes_the_dot_loop(self):
        # examples/dot.py's matmul: the fast lowering copies the K loop's
        # tiles num_stages - 1 iterations ahead into shared memory (0: the
        # default, 3), and loads them in the loop with num_stages=1
        path, text = load_example("dot").matmul_kernel.source()
        cuda = {n: mytriton._C.compile(path, text, "matmul_kernel", "*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,8,8,16",
                                       stage="cuda", num_stages=n).text("cuda")
                for n in (0, 1, 2, 3)}
        self.assertEqual(cuda[3], cuda[0])
        self.assertEqual(len({cuda[1], cuda[2], cuda[3]}), 3)
        self.assertNotIn("cp.async", cuda[1])
        self.assertIn("cp.async.wait_group 0;", cuda[2])
        self.assertIn("cp.async.wait_group 2;", cuda[3])


    def test_tutorials(self):
        # each tutorial kernel with the signature its GPU launch makes
        # compiles through the CUDA stage: the fast lowering lowers all four
        # (the fused-softmax tutorial's persistent loop has a runtime step),
        # so a refusal (E0603) is a failure here
        for stem, name, sig in TUTORIAL_KERNELS:
            kernel = getattr(load_tutorial(stem), name)
            while not hasattr(kernel, "source"):        # under @autotune
                kernel = kernel.fn
            path, text = kernel.source()
            with self.subTest(name):
                try:
                    k = mytriton._C.compile(path, text, name, sig, stage="cuda", num_warps=4)
                except mytriton.CompilationError as e:
                    self.fail(f"{stem}: {name} does not compile for the GPU: {e}")
                self.assertIn("__global__", k.text("cuda"))
                self.assertEqual(k.launch_shape["threads"], 128)


TUTORIAL_KERNELS = [
    ("01-vector-add", "add_kernel", "*fp32:16,*fp32:16,*fp32:16,i32,1024"),
    ("02-fused-softmax", "softmax_kernel", "*fp32:16,*fp32:16,i32,i32,i32,i32,1024"),
    ("03-matmul", "matmul_kernel",
     "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32,i32:16,i32:16,i32,i32,i32,64,64,32,8,'leaky_relu'"),
    ("04-layer-norm", "_layer_norm_fwd_fused", "*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,fp32,1024"),
]


for _p in sorted(glob.glob(os.path.join(EXAMPLES, "*.json"))):
    setattr(CudaStage, "test_" + os.path.basename(_p)[:-5].replace(".", "_"),
            (lambda p: lambda self: self.check(p))(_p))


if __name__ == "__main__":
    unittest.main()
