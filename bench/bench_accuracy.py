"""Accuracy per second against OMPEval (issue #50): the true error each tool reaches in the
same time, not the games it plays nor the standard error it reports.

    g++ -O3 -std=c++11 -march=haswell -pthread -include functional \\
        -o build-omp/pp_compare_haswell bench/ompeval/pp_compare.cpp $OMP/omp/*.cpp -I$OMP
    # (the same with -march=native into build-omp/pp_compare_native; $OMP: OMPEval's sources)
    python bench/bench_accuracy.py --level avx2      # against build-omp/pp_compare_haswell
    python bench/bench_accuracy.py --level avx512    # against build-omp/pp_compare_native
    python bench/bench_accuracy.py --runs 40 --seconds 0.3 --spots six --omp PATH
    python bench/bench_accuracy.py --level avx2 --save a.json   # every run kept, then
    python bench/bench_accuracy.py --pool a.json b.json         # per-game variances pooled

OMPEval's Monte Carlo over ranges is a random walk (a game changes one player's combo to the
next feasible one in its list), so its games are correlated; pypoker's are independent (but
for wide ranges preflop, such as the six 22+,A2+,K2+, whose games share a deal four at a
time: monte_carlo.zig's `grouped_games_a_deal`). Both show up in the true spread. So
for each spot both tools make ``--runs`` independent runs of ``--seconds`` each, one thread:
OMPEval by ``pp_compare accuracy`` (a fresh calculator a run, seeded from random_device),
pypoker by ``pp.equity(..., exact=False, seconds=t, threads=1, seed=i)``, in blocks taken in
turn so the machine's load falls on both alike. Per tool: the spread (std) of equity[0] over
the runs, games/s (games over wall time) and the per-game variance v = mean(games * (x -
mean)^2): the error after T seconds is sqrt(v / (rate * T)). Then:

- ``(std_omp/std_pp)^2``: the time OMPEval needs for pypoker's true error, both given t;
- the same from v and the rates, which corrects for the time each run really took (pypoker
  stops after a chunk of 2^18 games, OMPEval's setup is outside its clock), with a bootstrap
  90% interval over the runs: the headline;
- the games/s ratio and v_omp / v_pp (how many OMPEval games one of pypoker's is worth);
- each tool's reported stderr against its true spread, and the mean against the exact value
  (pypoker's exact run, or symmetry: 1/2 and 1/6) or, without one, the other tool's mean.

Seconds a run are wall time, setup included, for both. Time ratios above 1 favour pypoker.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

import pypoker as pp
from pypoker.benchmark import machine

ROOT = Path(__file__).resolve().parent.parent
OMP_BUILD = {"avx2": "pp_compare_haswell", "avx512": "pp_compare_native"}


@dataclass
class Spot:
    name: str  # as bench/ompeval/pp_compare.cpp names it (its accuracy mode takes the name)
    players: list[str]
    exact: float | None  # equity[0] exactly, where cheap; None: compare the tools' means


def spots() -> list[Spot]:
    known = ["AcKd", "QhQs"]
    ranges = ["QQ+,AKs", "JJ-99,AQs+"]
    return [
        Spot("AcKd vs QhQs", known, float(pp.equity(known, exact=True).equity[0])),
        Spot("random vs random", ["random"] * 2, 0.5),  # by symmetry
        Spot("QQ+,AKs vs JJ-99,AQs+", ranges, float(pp.equity(ranges, exact=True).equity[0])),
        Spot("AA vs 5 random", ["AA"] + ["random"] * 5, None),
        Spot("six 22+,A2+,K2+", ["22+,A2+,K2+"] * 6, 1 / 6),  # by symmetry
    ]


@dataclass
class Runs:
    """One tool's runs of one spot: equity[0], games, wall seconds and reported stderr."""

    equity: list[float] = field(default_factory=list)
    games: list[int] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    stderr: list[float] = field(default_factory=list)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        columns = (self.equity, self.games, self.wall, self.stderr)
        return tuple(np.array(x, dtype=float) for x in columns)


def omp_block(binary: Path, spot: Spot, seconds: float, count: int, into: Runs) -> None:
    """``count`` OMPEval runs through the harness's accuracy mode (one process)."""
    out = subprocess.run([str(binary), "accuracy", str(seconds), str(count), spot.name],
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    lines = [line.split("\t") for line in out.splitlines() if line.startswith("accuracy\t")]
    assert len(lines) == count and all(fields[1] == spot.name for fields in lines), out
    for fields in lines:
        values = dict(item.split(" ") for item in fields[3:])
        into.equity.append(float(values["equity0"]))
        into.games.append(int(values["games"]))
        into.wall.append(float(values["wall"]))
        into.stderr.append(float(values["stderr"]))


def pp_block(spot: Spot, seconds: float, seeds: range, into: Runs) -> None:
    for seed in seeds:
        started = time.perf_counter()
        result = pp.equity(spot.players, exact=False, seconds=seconds, threads=1, seed=seed)
        into.wall.append(time.perf_counter() - started)
        into.equity.append(float(result.equity[0]))
        into.games.append(result.games)
        into.stderr.append(float(result.stderr[0]))


def measure(binary: Path, spot: Spot, seconds: float, runs: int, block: int) -> tuple[Runs, Runs]:
    """Both tools' runs, in blocks of ``block`` taken in turn (OMPEval first)."""
    pp.equity(spot.players, exact=False, seconds=0.05, threads=1, seed=0)  # warm caches
    omp, ours = Runs(), Runs()
    for first in range(0, runs, block):
        count = min(block, runs - first)
        omp_block(binary, spot, seconds, count, omp)
        pp_block(spot, seconds, range(1 + first, 1 + first + count), ours)
    return omp, ours


def per_game_variance(equity: np.ndarray, games: np.ndarray) -> float:
    """v with Var(equity of a run of n games) = v / n, from runs of slightly unequal n."""
    assert len(equity) >= 2 and len(equity) == len(games)
    deviations = equity - equity.mean()
    return float(np.mean(games * deviations**2) * len(equity) / (len(equity) - 1))


def seconds_per_error(runs: Runs, pick: np.ndarray | None = None) -> float:
    """v / rate: the seconds needed for a true error of 1 (error^2 * seconds is constant)."""
    equity, games, wall, _ = runs.arrays()
    if pick is not None:
        equity, games, wall = equity[pick], games[pick], wall[pick]
    return per_game_variance(equity, games) * wall.sum() / games.sum()


def bootstrap_ratio(omp: Runs, ours: Runs, draws: int = 2000) -> tuple[float, float]:
    """5% and 95% points of seconds_per_error(omp) / seconds_per_error(ours), runs resampled."""
    rng = np.random.default_rng(1)
    r_omp, r_pp = len(omp.equity), len(ours.equity)
    ratios = []
    with np.errstate(divide="ignore", invalid="ignore"):  # a resample with no spread
        for _ in range(draws):
            omp_time = seconds_per_error(omp, rng.integers(0, r_omp, r_omp))
            ratios.append(omp_time / seconds_per_error(ours, rng.integers(0, r_pp, r_pp)))
    ratios = np.array(ratios)
    low, high = np.percentile(ratios[np.isfinite(ratios)], [5, 95])
    return float(low), float(high)


def describe(runs: Runs) -> dict:
    equity, games, wall, stderr = runs.arrays()
    v = per_game_variance(equity, games)
    return {
        "mean": equity.mean(),
        "std": equity.std(ddof=1),
        "rate": games.sum() / wall.sum() / 1e6,
        "v": v,
        "wall": np.median(wall),
        # reported stderr over the true spread, both per game (runs' n differ a little)
        "honesty": float(np.sqrt(np.mean(stderr**2 * games) / v)),
    }


def bias(spot: Spot, omp: dict, ours: dict, runs: int) -> str:
    """Each mean's distance from the exact value in its own std/sqrt(R), or the two means'."""
    if spot.exact is None:
        z = (omp["mean"] - ours["mean"]) / np.hypot(omp["std"], ours["std"]) * np.sqrt(runs)
        return f"no exact; omp-pp {omp['mean'] - ours['mean']:+.6f} ({z:+.1f} sd)"
    z_omp = (omp["mean"] - spot.exact) / omp["std"] * np.sqrt(runs)
    z_pp = (ours["mean"] - spot.exact) / ours["std"] * np.sqrt(runs)
    return f"exact {spot.exact:.6f}; omp {z_omp:+.1f} sd, pp {z_pp:+.1f} sd"


def row(spot: Spot, omp: Runs, ours: Runs) -> str:
    o, p = describe(omp), describe(ours)
    raw = (o["std"] / p["std"]) ** 2
    timed = seconds_per_error(omp) / seconds_per_error(ours)
    low, high = bootstrap_ratio(omp, ours)
    cells = [
        spot.name,
        f"{o['std'] * 1e6:.0f} / {p['std'] * 1e6:.0f}",
        f"{raw:.2f}",
        f"**{timed:.2f}** ({low:.2f}-{high:.2f})",
        f"{o['rate']:.1f} / {p['rate']:.1f} = {p['rate'] / o['rate']:.2f}",
        f"{o['wall']:.3f} / {p['wall']:.3f}",
        f"{o['v'] / p['v']:.2f}",
        f"{o['honesty']:.2f} / {p['honesty']:.2f}",
        bias(spot, o, p, len(omp.equity)),
    ]
    return "| " + " | ".join(cells) + " |"


HEADER = (
    "| spot | std of equity[0] (1e-6), OMPEval / pypoker | (std_omp/std_pp)^2 "
    "| time to the same true error, OMPEval/pypoker (90% bootstrap) "
    "| M games/s OMPEval / pypoker = ratio | median s a run | per-game variance OMPEval/pypoker "
    "| reported stderr / true, OMPEval / pypoker | bias check |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)


def pooled_variance(runs: list[Runs]) -> tuple[float, int, float]:
    """Per-game variance over several sets of runs (each about its own mean), its degrees of
    freedom, and the reported stderr over the true spread, both per game."""
    deviations, reported, df, count = 0.0, 0.0, 0, 0
    for r in runs:
        equity, games, _, stderr = r.arrays()
        deviations += per_game_variance(equity, games) * (len(equity) - 1)
        reported += float(np.sum(stderr**2 * games))
        df, count = df + len(equity) - 1, count + len(equity)
    v = deviations / df
    return v, df, float(np.sqrt(reported / count / v))


def pool(paths: list[Path]) -> None:
    """Per spot, over saved files (levels, rounds): the per-game variances' ratio, OMPEval's
    over pypoker's, and reported stderr / true. The per-game variance is the samplers'
    property, not the speed's, so every level's runs count."""
    files = [json.loads(path.read_text()) for path in paths]
    print(
        "pooled: "
        + ", ".join(f"{path.name} ({f['level']})" for path, f in zip(paths, files, strict=True))
    )
    print("\n| spot | runs a tool | per-game variance OMPEval/pypoker (90%) "
          "| reported stderr / true, OMPEval / pypoker |\n| --- | --- | --- | --- |")  # fmt: skip
    for name in dict.fromkeys(name for f in files for name in f["spots"]):
        found = [f["spots"][name] for f in files if name in f["spots"]]
        v_o, df_o, honest_o = pooled_variance([Runs(**runs["omp"]) for runs in found])
        v_p, df_p, honest_p = pooled_variance([Runs(**runs["pp"]) for runs in found])
        spread = 1.645 * np.sqrt(2 / df_o + 2 / df_p)  # the log of a variance ratio, ~normal
        ratio = v_o / v_p
        cells = [name, str(df_o + len(found)), f"{ratio:.2f} ({ratio * np.exp(-spread):.2f}"
                 f"-{ratio * np.exp(spread):.2f})", f"{honest_o:.2f} / {honest_p:.2f}"]  # fmt: skip
        print("| " + " | ".join(cells) + " |")


def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", choices=sorted(OMP_BUILD), default="avx512")
    parser.add_argument("--omp", type=Path, help="the pp_compare binary (default: by level)")
    parser.add_argument("--runs", type=int, default=100, help="independent runs a tool a spot")
    parser.add_argument("--seconds", type=float, default=0.3, help="time budget of a run")
    parser.add_argument("--block", type=int, default=5, help="runs a tool before switching")
    parser.add_argument("--spots", default="", help="only spots whose name contains this")
    parser.add_argument("--save", type=Path, help="write every run to this JSON file")
    parser.add_argument("--pool", type=Path, nargs="+", help="pool saved files' runs instead")
    args = parser.parse_args(argv)
    if args.pool:
        return pool(args.pool)
    assert args.runs >= 2 and args.seconds > 0 and args.block >= 1
    binary = args.omp or ROOT / "build-omp" / OMP_BUILD[args.level]
    pp.select_cpu(args.level)
    print("python bench/bench_accuracy.py " + shlex.join(sys.argv[1:] if argv is None else argv))
    print(f"{machine()}; pypoker kernels {pp.cpu()}, OMPEval {binary}")
    print(f"{args.runs} runs of {args.seconds} s a tool a spot, one thread; load: {load()}\n")
    print(HEADER, flush=True)
    saved = {"level": pp.cpu(), "seconds": args.seconds, "spots": {}}
    for spot in spots():
        if args.spots in spot.name:
            omp, ours = measure(binary, spot, args.seconds, args.runs, args.block)
            print(row(spot, omp, ours), flush=True)
            saved["spots"][spot.name] = {"omp": asdict(omp), "pp": asdict(ours)}
    print(f"\nload: {load()}")
    if args.save:
        args.save.write_text(json.dumps(saved))


if __name__ == "__main__":
    main()
