#!/usr/bin/env python3
"""Vector add and a fused softmax, with the host code that launches them.

The file mixes everything a real kernel module contains: aliased imports,
classes, async code, match statements, comprehensions and f-strings. Only
the two @triton.jit functions are kernels.
"""
from __future__ import annotations

import asyncio
import os.path as osp
import sys, math
from dataclasses import dataclass, field
from typing import (
    Any,
    Callable,
    Optional,
)

import torch
import triton
import triton.language as tl
from triton import cdiv as ceil_div

BLOCK_DEFAULT: int = 1024
EPS = 1e-5
NAMES = ["add", "softmax"]
SCALE, OFFSET = 2.0, 0.5
LIMIT = MAX_ROWS = 1 << 16
CONFIG = {"block": BLOCK_DEFAULT, "warps": 4, **{"stages": 2}}
square = lambda v: v * v
counter = 0
counter += 1


@dataclass(frozen=True)
class LaunchConfig:
    """Grid and block parameters of one launch."""

    block: int = BLOCK_DEFAULT
    num_warps: int = 4
    tags: list[str] = field(default_factory=list)

    @property
    def threads(self) -> int:
        return self.num_warps * 32

    @staticmethod
    def from_env(env: dict[str, str] | None = None) -> "LaunchConfig":
        env = env or dict(os.environ)
        if (block := env.get("BLOCK")) is not None:
            return LaunchConfig(block=int(block))
        return LaunchConfig()

    def __repr__(self):
        return f"LaunchConfig({self.block=}, warps={self.num_warps:>3}, {'tags'!r})"


# Adds two vectors element by element.
# mytriton: BLOCK=256
@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x_values = tl.load(x + offsets, mask=mask, other=0.0)
    y_values = tl.load(y + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, x_values + y_values, mask=mask)


def describe(values: list[float], *, precision: int = 3) -> str:
    squares = [v * v for v in values if v > 0]
    unique = {round(v, precision) for v in values}
    index = {i: v for i, v in enumerate(values)}
    total = sum(v for v in values)
    text = f"{len(values)} values, total {total:.{precision}f}, unique {len(unique)}"
    match values:
        case []:
            return "empty"
        case [first, *rest] if first > 0:
            return f"starts positive ({first}), {len(rest)} more"
        case _:
            pass
    try:
        ratio = total / len(squares)
    except ZeroDivisionError as exc:
        raise ValueError("no positive values") from exc
    finally:
        del index
    return text + f" ratio={ratio!r}"


async def fetch_all(urls: list[str]) -> list[bytes]:
    async with asyncio.timeout(10):
        results = await asyncio.gather(*(asyncio.sleep(0, u) for u in urls))
    async for chunk in stream():
        yield chunk
    return [r.encode() for r in results]


@triton.autotune(configs=[], key=["n_cols"])
@triton.jit
def softmax_kernel(x, out, n_cols, BLOCK: tl.constexpr = 128):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    values = tl.load(x + row * n_cols + cols, mask=mask, other=-float("inf"))
    shifted = values - tl.max(values, axis=0)
    numerator = tl.exp(shifted)
    tl.store(out + row * n_cols + cols, numerator / tl.sum(numerator, axis=0), mask=mask)


def launch(n: int = 1_000) -> None:
    x = torch.ones(n, device="cuda")
    y = torch.ones_like(x)
    out = torch.empty_like(x)
    grid = lambda meta: (ceil_div(n, meta["BLOCK"]),)
    add_kernel[grid](x, y, out, n, BLOCK=1024)
    rows = torch.randn(64, 100, device="cuda")
    softmax_kernel[(64,)](rows, torch.empty_like(rows), 100, BLOCK=128)
    print(f"{out.sum().item()=}", file=sys.stderr)
    global counter
    counter += 1


for i, name in enumerate(NAMES):
    print(i, name)

with open(osp.join(osp.dirname(__file__), "log.txt"), "w") as log_file:
    log_file.write("started\n")

if __name__ == "__main__":
    config = LaunchConfig.from_env()
    launch(config.block if config else BLOCK_DEFAULT)
