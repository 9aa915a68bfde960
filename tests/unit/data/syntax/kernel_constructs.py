import mytriton as triton
import mytriton.language as tl


@triton.jit
def helper(a, b=2, /, c: int = 3, *rest, scale: float = 1.0, **options) -> tl.tensor:
    """Every statement form a kernel may hold, and many it may not."""
    x = y = a + b * c - (a // b) % c ** -2
    p, q = divmod(a, b)
    first, *others = rest
    total: tl.tensor = tl.zeros((16, 16), tl.float32)
    note: str
    total += 1; total -= 1; total *= 2; total /= 2; total //= 1; total %= 7
    total **= 2; total &= 3; total |= 4; total ^= 5; total <<= 1; total >>= 1; total @= total
    rows = tl.arange(0, 16)[:, None]
    cols = tl.arange(0, 16)[None, :]
    block = x[1:2, ::3, ...]
    flag = not (a < b <= c != 4) and a is not None or b not in (1, 2, 3)
    bits = ~a | b ^ c & a << 2 >> 1
    pick = a if flag else -b
    text = "con" 'cat' """enated"""
    if a:
        pass
    elif b:
        x = 1
    elif c:
        x = 2
    else:
        x = 3
    for k in tl.static_range(0, 4):
        total += k
    else:
        pass
    while x > 0:
        x -= 1
        if x == 5:
            break
        continue
    assert a > 0, "a must be positive"
    squares = [i * i for i in range(4) if i % 2]
    table = {i: i * i for i in range(4)}
    uniq = {i for i in range(4)}
    gen = sum(i for i in range(4))
    lit = {"a": 1, **options}
    group = {1, 2, *rest}
    fn = lambda v, *w, k=1, **kw: v
    label = f"{a!r:>{b}} {f'{c}'} {"same"}"
    raw = b"bytes" + rb"\x00"
    z = 2j
    if (n := len(rest)) > 1:
        pass
    call = tl.load(a + rows, mask=rows < 4, other=0.0, *rest, **options)
    with open("f") as fh, open("g"):
        pass
    try:
        pass
    except* ValueError:
        pass
    else:
        pass
    finally:
        pass
    del x
    global g
    nonlocal_name = 1
    import os
    from os import path as osp
    raise ValueError("no") from None

    def inner(v):
        return v

    class Local:
        attr = 1

    @staticmethod
    def decorated():
        pass

    async def coroutine():
        await other()
        async for item in source():
            yield item
        async with lock:
            pass

    match a:
        case [1, 2, *tail]:
            pass
        case {"k": v} | Point(x=0):
            pass
        case _:
            pass
    type Pair[T] = tuple[T, T]
    value = yield
    yield from range(3)
    await something
    return x, y


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr = 1024):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)
