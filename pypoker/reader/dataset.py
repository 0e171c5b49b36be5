"""Reading the Range Reader's shards back as examples: ``read`` (``Examples`` a batch of
hands, in order) and ``torch_dataset`` (a PyTorch ``IterableDataset`` of dicts of tensors,
one field of ``EXAMPLE_DTYPE`` a key, torch imported only when asked for).

Each batch of hands is replayed and encoded natively (``examples``) as it is read, so memory
stays bounded by ``batch_hands`` (about 14 examples of 608 bytes a 6-max hand).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .._arguments import whole
from .examples import Examples, examples
from .generate import shard_population, shards


def _paths(source) -> list[Path]:
    if isinstance(source, (list, tuple)):
        return [Path(p) for p in source]
    path = Path(source)
    return shards(path) if path.is_dir() else [path]


def read(source, *, batch_hands=4096, threads=None):
    """Yields ``Examples`` of up to ``batch_hands`` hands at a time from ``source``: a folder
    of shards (``generate``'s), a shard file, or a list of files, in order. Each carries
    its shard's population."""
    import pyarrow.parquet as pq

    batch_hands = whole("batch_hands", batch_hands, 1)
    for path in _paths(source):
        pop = shard_population(path)
        for batch in pq.ParquetFile(path).iter_batches(batch_size=batch_hands):
            yield examples(batch, population=pop, threads=threads)


def torch_dataset(source, *, batch_hands=4096, shuffle_seed=None):
    """A ``torch.utils.data.IterableDataset`` over the shards of ``source`` yielding one dict
    of tensors per batch of hands (a key per field of ``EXAMPLE_DTYPE``; uint16 and uint32
    fields as int32/int64, which torch takes). Workers of a ``DataLoader`` take every
    n-th shard. ``shuffle_seed``: the rows of each batch in a random order of that seed."""
    from .._extras import require

    torch = require("torch")
    files = _paths(source)

    class ReaderDataset(torch.utils.data.IterableDataset):
        def __iter__(self):
            info = torch.utils.data.get_worker_info()
            mine = files if info is None else files[info.id :: info.num_workers]
            rng = np.random.default_rng(shuffle_seed)
            for batch in read(mine, batch_hands=batch_hands, threads=1):
                order = rng.permutation(len(batch)) if shuffle_seed is not None else None
                yield tensors(batch, order, torch)

    return ReaderDataset()


def tensors(batch: Examples, order, torch) -> dict:
    """The batch's fields as tensors (rows in ``order`` when given)."""
    out = {}
    for name, values in batch.arrays().items():
        values = values if order is None else values[order]
        if values.dtype == np.uint16:
            values = values.astype(np.int32)
        elif values.dtype in (np.uint32, np.uint64):
            values = values.astype(np.int64)
        out[name] = torch.from_numpy(np.ascontiguousarray(values))
    return out
