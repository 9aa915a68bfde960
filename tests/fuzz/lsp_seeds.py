#!/usr/bin/env python3
"""lsp_seeds.py: turn the language server's test transcripts
(tests/lsp/transcripts/*.rpc) into seed inputs for fuzz_lsp: what each
transcript sends, framed with Content-Length headers, in one file per
transcript. A developer tool (the seeds are committed); run from the top
of the tree:  python3 tests/fuzz/lsp_seeds.py"""
import ast
import glob
import json
import os

ROOT = "/fuzz"  # stands for %ROOT%: documents need not exist on disk


def expand(line):
    out = line.replace("%ROOT%", ROOT)
    while "%TEXT(" in out:
        start = out.index("%TEXT(")
        end = out.index(")%", start)
        path = out[start + 6:end]
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        out = out[:start] + json.dumps(text) + out[end + 2:]
    while "%KERNELS(" in out:  # a big file: keep the seed small
        start = out.index("%KERNELS(")
        end = out.index(")%", start)
        out = out[:start] + json.dumps("@triton.jit\ndef k(x):\n    pass\n" * 20) + out[end + 2:]
    return out.encode("utf-8", "surrogateescape")


def frame(body):
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


for path in sorted(glob.glob("tests/lsp/transcripts/*.rpc")):
    seed = b""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("send: "):
                seed += frame(expand(line[6:]))
            elif line.startswith("send-bytes: "):
                seed += frame(ast.literal_eval("b" + line[12:]))
            elif line.startswith("send-raw: "):
                seed += ast.literal_eval("b" + line[10:])
    name = os.path.basename(path)[:-4]
    with open("tests/fuzz/corpus/lsp/" + name, "wb") as f:
        f.write(seed)
