"""``pypoker bench`` (also ``python bench/bench_rank.py``): ns/hand of every ranking form,
each kernel level, one thread and all, the exhaustive 5- and 7-card runs, random 5- and
7-card hands dealt and ranked beside a dealing-only control and one hand a call (seed 002's
table), the memory floor, and the peers a Python user would pick instead — all in one run.

Every figure is the median of ``runs`` timings (at least 5) of one call; hands are dealt
once with a fixed seed; outputs are preallocated and touched before timing. Results go to
the terminal, to JSON and (with matplotlib) to a PNG chart.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import pypoker as pp

from ._native import ArgumentError, fastcall
from ._parallel import cpu_count, run_sliced

# How many of the hands each peer ranks (the slow ones get fewer; ns/hand is what counts).
PEER_HANDS = {
    "holdem-hand-evaluator": 200_000,
    "eval7": 200_000,
    "phevaluator": 200_000,
    "treys": 20_000,
    "pokerkit": 1_000,
}


# (vendor, family, models or None for any) → the core, for a CPU a VM names only "AMD EPYC".
# Figures depend on it: 512-bit permutes, gathers and vpmullq cost differently per core.
_CORES = (
    ("AuthenticAMD", 26, None, "Zen 5"),
    ("AuthenticAMD", 25, range(0x10, 0x20), "Zen 4"),
    ("AuthenticAMD", 25, range(0x60, 0x80), "Zen 4"),
    ("AuthenticAMD", 25, range(0xA0, 0xB0), "Zen 4"),
    ("AuthenticAMD", 25, None, "Zen 3"),
    ("AuthenticAMD", 23, None, "Zen 2 or earlier"),
    ("GenuineIntel", 6, (207,), "Emerald Rapids"),
    ("GenuineIntel", 6, (143,), "Sapphire Rapids"),
    ("GenuineIntel", 6, (173, 174), "Granite Rapids"),
    ("GenuineIntel", 6, (106, 108), "Ice Lake server"),
    ("GenuineIntel", 6, (85,), "Skylake/Cascade Lake server"),
)


def machine() -> str:
    """The CPU as benches print it: its name, vendor, family and model (and the core they
    mean, where known), cores, system."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if not key.strip():
                    break  # the first processor is enough
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    model = fields.get("model name") or platform.processor() or platform.machine()
    if "vendor_id" in fields and "cpu family" in fields and "model" in fields:
        vendor, family, number = (
            fields["vendor_id"],
            int(fields["cpu family"]),
            int(fields["model"]),
        )
        core = next((name for v, f, models, name in _CORES
                     if v == vendor and f == family and (models is None or number in models)),
                    None)  # fmt: skip
        model += f" ({vendor} family {family} model {number}{': ' + core if core else ''})"
    return f"{model}, {cpu_count()} cores, {platform.system()} {platform.machine()}"


def median_ns(call: Callable[[], object], runs: int) -> float:
    call()  # warm: tables into cache, pages faulted in
    times = []
    for _ in range(runs):
        started = time.perf_counter_ns()
        call()
        times.append(time.perf_counter_ns() - started)
    return float(statistics.median(times))


def paired(a, b, runs: int) -> tuple[float, float, float]:
    """Times calls ``a`` and ``b`` in turn (a b a b …, after one warm call each) and returns
    their median seconds and the median of the pairs' ratios ``b / a``: a ratio taken pair by
    pair holds still when a shared machine's speed drifts between the two rows."""
    a(), b()
    pairs = []
    for _ in range(runs):
        times = []
        for call in (a, b):
            started = time.perf_counter_ns()
            call()
            times.append((time.perf_counter_ns() - started) / 1e9)
        pairs.append(times)
    a_s, b_s = (float(np.median([t[i] for t in pairs])) for i in (0, 1))
    return a_s, b_s, float(np.median([t[1] / t[0] for t in pairs]))


def _peers(cards: np.ndarray) -> dict[str, tuple[int, Callable[[], object]]]:
    """Each installed peer's fastest per-hand call, with its inputs converted beforehand
    (each lambda binds its own inputs as defaults: the names are reused below)."""
    peers: dict[str, tuple[int, Callable[[], object]]] = {}
    names = pp.format_cards(cards[: max(PEER_HANDS.values())])
    try:
        import holdem_hand_evaluator

        texts = names[: PEER_HANDS["holdem-hand-evaluator"]]
        evaluate_text = holdem_hand_evaluator.evaluate_hand
        peers["holdem-hand-evaluator"] = (
            len(texts),
            lambda texts=texts: [evaluate_text(t) for t in texts],
        )
    except ImportError:
        pass
    try:
        import eval7

        deck = [eval7.Card(name) for name in pp.CARD_NAMES]
        hands = [[deck[c] for c in row] for row in cards[: PEER_HANDS["eval7"]].tolist()]
        peers["eval7"] = (len(hands), lambda hands=hands: [eval7.evaluate(h) for h in hands])
    except ImportError:
        pass
    try:
        from phevaluator import evaluate_cards
        from phevaluator.card import Card

        ids = np.array([Card(name).id_ for name in pp.CARD_NAMES])
        rows = ids[cards[: PEER_HANDS["phevaluator"]]].tolist()
        peers["phevaluator"] = (len(rows), lambda rows=rows: [evaluate_cards(*r) for r in rows])
    except ImportError:
        pass
    try:
        from treys import Card as TreysCard
        from treys import Evaluator

        evaluator = Evaluator()
        deck = [TreysCard.new(name) for name in pp.CARD_NAMES]
        rows = [[deck[c] for c in row] for row in cards[: PEER_HANDS["treys"]].tolist()]
        peers["treys"] = (
            len(rows),
            lambda rows=rows: [evaluator.evaluate(r[:5], r[5:]) for r in rows],
        )
    except ImportError:
        pass
    try:
        from pokerkit import Card as KitCard
        from pokerkit import StandardHighHand

        deck = [next(iter(KitCard.parse(name))) for name in pp.CARD_NAMES]
        rows = [[deck[c] for c in row] for row in cards[: PEER_HANDS["pokerkit"]].tolist()]
        peers["pokerkit"] = (
            len(rows),
            lambda rows=rows: [StandardHighHand.from_game(r[:2], r[2:]) for r in rows],
        )
    except ImportError:
        pass
    return peers


def _time_levels(add, runs: int, cards, sets, accumulators, boards, holes) -> tuple[int, dict]:
    """Every form at every CPU level and thread count (one and all), each figure added with
    ``add``: the checksum of the ranks (equal for every form and level) and the seconds of
    the exhaustive sweep per level."""
    hands = cards.shape[0]
    showdown_rows, players = holes.shape[:2]
    out = np.zeros(hands, dtype=np.uint16)
    before = pp.cpu()
    checksum, exhaustive = None, {}
    try:
        for level in pp.supported_cpus():
            pp.select_cpu(level)
            for threads in sorted({1, cpu_count()}):
                forms = {
                    "rank uint8 (N, 7)": (lambda t=threads: pp.rank(cards, out=out, threads=t)),
                    "rank uint64 sets": (lambda t=threads: pp.rank(sets, out=out, threads=t)),
                    "rank accumulators": (
                        lambda t=threads: pp.rank(accumulators, out=out, threads=t)
                    ),
                    "rank accumulators, trusted=True": (
                        lambda t=threads: pp.rank(accumulators, out=out, threads=t, trusted=True)
                    ),
                }
                for name, call in forms.items():
                    add(name, level, threads, median_ns(call, runs), hands)
                    total = int(out.sum(dtype=np.uint64))
                    if checksum not in (None, total):
                        raise RuntimeError(f"{name} on {level} ranked the hands differently")
                    checksum = total
                ns = median_ns(lambda t=threads: pp.rank_showdown(boards, holes, threads=t), runs)
                add(f"rank_showdown {players} players", level, threads, ns, showdown_rows * players)
            ns = median_ns(lambda: pp.category_counts(7, threads=1), runs)
            add("every 7-card hand (133,784,560)", level, 1, ns, 133_784_560)
            exhaustive[level] = ns / 1e9
            _time_random_and_sweep(add, runs, level, hands)
    finally:
        pp.select_cpu(before)
    return checksum, exhaustive


def _time_random_and_sweep(add, runs: int, level: str, hands: int) -> None:
    """Seed 002's table (a 2+2-style evaluator's benchmark) on one level and thread: random
    5- and 7-card hands dealt and ranked, beside a control row that only deals them (what
    the ranking adds is the difference), and the sweep of every 5-card hand."""
    for k in (5, 7):
        deal = lambda k=k: pp.deal(hands, k, seed=k, threads=1)  # noqa: E731
        add(f"control: deal random {k}-card hands", level, 1, median_ns(deal, runs), hands)
        ns = median_ns(lambda deal=deal: pp.rank(deal(), threads=1), runs)
        add(f"random {k}-card hands: deal, then rank", level, 1, ns, hands)
    ns = median_ns(lambda: pp.category_counts(5, threads=1), runs)
    add("every 5-card hand (2,598,960)", level, 1, ns, 2_598_960)


TWO_CORES_BAR = 1.85  # the speed-up two threads owe one on an idle 2-core machine
MEMORY_CONTROL = "control: NumPy reads the accumulators"


def _time_two_cores(runs: int, cards, sets, accumulators, boards, holes) -> list[dict]:
    """Two threads against one on this machine's best level, each pair of calls in turn (a
    shared machine's drift between two rows timed apart decides nothing): each form's median
    seconds a call and the median of the pairs' speed-ups."""
    if cpu_count() < 2:
        return []
    out = np.zeros(len(cards), dtype=np.uint16)
    words = accumulators.view(np.uint64)
    ranks = np.zeros(holes.shape[:2], dtype=np.uint16)
    dealt = np.zeros_like(cards)
    forms = {
        "rank uint8 (N, 7)": lambda t: pp.rank(cards, out=out, threads=t),
        "rank uint64 sets": lambda t: pp.rank(sets, out=out, threads=t),
        "rank accumulators": lambda t: pp.rank(accumulators, out=out, threads=t),
        "rank accumulators, trusted=True": (
            lambda t: pp.rank(accumulators, out=out, threads=t, trusted=True)
        ),
        # Into the same arrays each call, as a bulk job reuses its buffers: fresh memory's
        # first touch scales with the VM's page faults, not with the kernels.
        "rank_showdown": lambda t: pp.rank_showdown(boards, holes, threads=t, out=ranks),
        "deal 7-card hands": lambda t: pp.deal(len(cards), 7, seed=7, threads=t, out=dealt),
        # What the machine's memory allows: the accumulators' bytes read once, no ranking.
        # A form that streams its batch from DRAM cannot scale past this row.
        MEMORY_CONTROL: lambda t: run_sliced(
            len(words), t, lambda a, b: np.bitwise_xor.reduce(words[a:b])
        ),
    }
    rows = []
    for name, call in forms.items():
        one, two, ratio = paired(lambda c=call: c(1), lambda c=call: c(2), runs)
        rows.append(
            {
                "name": name,
                "cpu": pp.cpu(),
                "one_thread_s": one,
                "two_threads_s": two,
                "speedup": 1 / ratio,
            }
        )
    return rows


def _time_one_call(add, runs: int) -> None:
    """A hand a call, as a bot or a notebook ranks (seed 002's latency rows): ns a call."""
    for k in (5, 7):
        hands = pp.deal(2_000, k, seed=k).tolist()
        ns = median_ns(lambda hands=hands: [pp.rank(h) for h in hands], runs)
        add(f"one call a hand: pp.rank(list of {k} ids)", "scalar", 1, ns, len(hands))


def run(hands: int = 16_000_000, runs: int = 5, seed: int = 1, peers: bool = True) -> dict:
    if runs < 5:
        raise ArgumentError("at least 5 runs, for a median worth quoting")
    cards = pp.deal(hands, 7, seed=seed)
    sets = np.bitwise_or.reduce(np.left_shift(np.uint64(1), cards.astype(np.uint64)), axis=1)
    accumulators = pp.accumulate(cards)
    players = 6
    showdown_rows = hands // players
    table = pp.deal(showdown_rows, 5 + 2 * players, seed=seed + 1)
    boards = np.ascontiguousarray(table[:, :5])
    holes = np.ascontiguousarray(table[:, 5:]).reshape(showdown_rows, players, 2)

    results: dict = {
        "machine": machine(),
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "pypoker": pp.__version__,
        "hands": hands,
        "runs": runs,
        "seed": seed,
        "cpus": pp.supported_cpus(),
        "rows": [],
    }

    def add(name: str, level: str, threads: int, ns_total: float, count: int) -> None:
        results["rows"].append(
            {"name": name, "cpu": level, "threads": threads, "ns_per_hand": ns_total / count}
        )

    checksum, exhaustive = _time_levels(add, runs, cards, sets, accumulators, boards, holes)
    results["checksum"], results["exhaustive_seconds"] = checksum, exhaustive

    results["two_cores"] = _time_two_cores(runs, cards, sets, accumulators, boards, holes)
    _time_one_call(add, runs)
    flat = cards.reshape(-1)
    floor = median_ns(lambda: np.bitwise_or.reduce(flat.view(np.uint64)), runs)
    add("memory floor: NumPy reads the uint8 hands once", "numpy", 1, floor, hands)

    if peers:
        for name, (count, call) in _peers(cards).items():
            add(f"peer: {name}", "python", 1, median_ns(call, runs), count)
    return results


def reference_ns(results: dict) -> float:
    """pypoker's best single-thread uint8 figure: what the peers are compared with."""
    rows = [r for r in results["rows"] if r["name"] == "rank uint8 (N, 7)" and r["threads"] == 1]
    return min(r["ns_per_hand"] for r in rows)


def render(results: dict) -> str:
    reference = reference_ns(results)
    lines = [
        f"pypoker {results['pypoker']} bench: {results['hands']:,} random 7-card hands, "
        f"seed {results['seed']}, median of {results['runs']} runs",
        f"machine: {results['machine']}; python {results['python']}, numpy {results['numpy']}",
        "",
        f"{'what':<48} {'cpu':<9} {'threads':>7} {'ns/hand':>12} {'vs pypoker':>11}",
    ]
    for row in results["rows"]:
        ratio = row["ns_per_hand"] / reference
        lines.append(
            f"{row['name']:<48} {row['cpu']:<9} {row['threads']:>7} "
            f"{row['ns_per_hand']:>12.3f} {ratio:>10.2f}x"
        )
    seconds = ", ".join(f"{k} {v:.3f} s" for k, v in results["exhaustive_seconds"].items())
    lines += ["", f"every 7-card hand ranked (category histogram), one thread: {seconds}"]
    lines.append(f"checksum of ranks: {results['checksum']}")
    if results["two_cores"]:
        lines += [
            "",
            f"two threads against one, in turn, kernels {results['two_cores'][0]['cpu']} "
            f"(bar {TWO_CORES_BAR}x):",
        ]
        for row in results["two_cores"]:
            if row["name"] == MEMORY_CONTROL:
                verdict = "no bar: the memory's own"
            else:
                verdict = ("meets" if row["speedup"] >= TWO_CORES_BAR else "MISSES") + " the bar"
            lines.append(
                f"  {row['name']:<34} {row['one_thread_s'] * 1e3:8.1f} -> "
                f"{row['two_threads_s'] * 1e3:7.1f} ms: {row['speedup']:.2f}x ({verdict})"
            )
    return "\n".join(lines)


def chart(results: dict, path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in results["rows"] if r["threads"] == 1]
    labels = [f"{r['name']} [{r['cpu']}]" for r in rows]
    values = [r["ns_per_hand"] for r in rows]
    figure, axes = plt.subplots(figsize=(10, 0.42 * len(rows) + 1.2))
    colors = ["#2a7ab0" if r["cpu"] not in ("python", "numpy") else "#b0b0b0" for r in rows]
    colors = [
        "#d08020" if r["name"].startswith("peer") else c for r, c in zip(rows, colors, strict=True)
    ]
    axes.barh(labels, values, color=colors)
    axes.set_xscale("log")
    axes.invert_yaxis()
    axes.set_xlabel("ns per hand, one thread (log scale; lower is better)")
    axes.set_title(f"pypoker {results['pypoker']} — {results['machine']}", fontsize=9)
    for y, value in enumerate(values):
        axes.text(value, y, f" {value:,.2f}", va="center", fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return True


REPEAT = 200  # small-batch calls a timing


def latency(runs: int = 5, seed: int = 1, peers: bool = True) -> list[tuple[str, float]]:
    """Microseconds a call for one hand in each form, the per-call overhead of small
    batches, and the peers' one-hand calls: every figure a median of ``runs`` timings."""
    calls = 2_000
    cards = pp.deal(calls, 7, seed=seed)
    forms = {
        "pp.rank(list of 7 ids)": cards.tolist(),
        "pp.rank(tuple of 7 ids)": [tuple(row) for row in cards.tolist()],
        "pp.rank(1-D uint8 array)": list(cards),
        "pp.rank(1-row (1, 7) array)": [row[None, :] for row in cards],
        'pp.rank("AhKd7c2s3sQhJd")': pp.format_cards(cards),
    }
    rows = []
    for name, inputs in forms.items():
        seconds = median_ns(lambda inputs=inputs: [pp.rank(h) for h in inputs], runs) / 1e9
        rows.append((name, seconds / calls * 1e6))
    big = pp.deal(1 << 20, 7, seed=seed)
    per_hand = median_ns(lambda: pp.rank(big, threads=1), runs) / len(big) / 1e3  # µs
    for n in (10, 100, 1_000):
        batch, out = big[:n].copy(), np.empty(n, dtype=np.uint16)
        seconds = median_ns(lambda b=batch, o=out: [pp.rank(b, out=o) for _ in range(REPEAT)],
                            runs) / 1e9  # fmt: skip
        overhead = seconds / REPEAT * 1e6 - n * per_hand
        rows.append((f"pp.rank((N={n}, 7)): per-call overhead", overhead))
    if peers:
        for name, (count, call) in _peers(cards).items():
            if name in ("eval7", "phevaluator", "treys"):
                rows.append((f"{name}: one hand", median_ns(call, runs) / count / 1e3))
    return rows


def main_latency(runs: int, seed: int, peers: bool) -> int:
    path = "fast-call extension" if fastcall is not None else "cffi only (no fast-call extension)"
    print(f"one-call latency, {machine()}, kernels {pp.cpu()}, {path}")
    for name, micros in latency(runs, seed, peers):
        print(f"  {name:<44} {micros:8.3f} µs")
    return 0


def main(hands: int, runs: int, seed: int, peers: bool, output: str | None) -> int:
    results = run(hands, runs, seed, peers)
    print(render(results))
    directory = Path(output) if output else Path("bench") / "results"
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "rank.json").write_text(json.dumps(results, indent=2))
    drawn = chart(results, directory / "rank.png")
    written = "rank.json" + (" and rank.png" if drawn else " (no matplotlib: no chart)")
    print(f"\nwrote {written} to {directory}{os.sep}")
    return 0
