"""The RL environments (issue 47) against their bar.

    python bench/bench_rl.py [--runs 5] [--steps 200] [--tables 4096]

- ``gymnasium.make_vec("pypoker/NoLimitHoldem-v0", num_envs=4096)``, 6-max, 100 big blinds,
  the learner at seat 0, one thread: environment steps per second (tables x ``step`` calls /
  s, autoreset steps included, as Gymnasium counts them) with actions from a NumPy policy
  (a uniform legal action per table from ``info["action_mask"]``), the policy's time
  included; median of runs (bar 2,000,000). Also: the learner's decisions per second (the
  steps that were not autoresets), the same with other opponents and heads-up, and the step
  alone (a constant action under ``illegal="nearest"``: no policy);
- the single environment and PettingZoo's AEC environment, one table: steps per second
  (Python's cost per step, for reference).
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium
import numpy as np

import pypoker as pp
import pypoker.arena.gym  # noqa: F401 (registers the environments)
from pypoker.arena import pettingzoo
from pypoker.benchmark import machine

ENV_ID = "pypoker/NoLimitHoldem-v0"


def vector_rate(runs: int, steps: int, tables: int, policy: bool = True, **settings):
    """Median (env steps/s, learner decisions/s) over ``runs`` runs of ``steps`` steps."""
    env = gymnasium.make_vec(ENV_ID, num_envs=tables, **settings)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=1)
    constant = np.ones(tables, np.int64)
    rates, decisions = [], []
    for _ in range(runs):
        acted = 0
        started = time.perf_counter()
        for _ in range(steps):
            mask = info["action_mask"]
            acted += int(mask[:, 1].sum())  # check/call is legal wherever the learner acts
            actions = (rng.random(mask.shape, np.float32) * mask).argmax(1) if policy else constant
            _, _, _, _, info = env.step(actions)
        elapsed = time.perf_counter() - started
        rates.append(tables * steps / elapsed)
        decisions.append(acted / elapsed)
    return statistics.median(rates), statistics.median(decisions)


def single_rate(runs: int, steps: int) -> float:
    env = gymnasium.make(ENV_ID).unwrapped
    rng = np.random.default_rng(0)
    rates = []
    _, info = env.reset(seed=1)
    for _ in range(runs):
        started = time.perf_counter()
        for _ in range(steps):
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            if done:
                _, info = env.reset()
        rates.append(steps / (time.perf_counter() - started))
    return statistics.median(rates)


def aec_rate(runs: int, steps: int) -> float:
    env = pettingzoo.env(seats=6)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    rates = []
    for _ in range(runs):
        started, done = time.perf_counter(), 0
        while done < steps:
            for _agent in env.agent_iter():
                obs, _, terminated, _, _ = env.last()
                legal = np.flatnonzero(obs["action_mask"])
                env.step(None if terminated else int(rng.choice(legal)))
                done += 1
            env.reset()
        rates.append(done / (time.perf_counter() - started))
    return statistics.median(rates)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--tables", type=int, default=4096)
    args = parser.parse_args()
    n, runs, steps = args.tables, args.runs, args.steps
    print(f"pypoker {pp.__version__}; machine: {machine()}; one thread, 100bb, median of {runs}")
    print(f"vector env, {n:,} tables, NumPy random legal policy (bar 2,000,000 env steps/s):")
    cases = [("6-max vs random (the bar)", dict(seats=6, opponents="random"), True),
             ("6-max vs random, step alone", dict(seats=6, opponents="random",
                                                  illegal="nearest"), False),
             ("6-max vs call", dict(seats=6, opponents="call"), True),
             ("6-max vs equity", dict(seats=6, opponents="equity"), True),
             ("heads-up vs random", dict(seats=2, opponents="random"), True),
             ("heads-up vs equity", dict(seats=2, opponents="equity"), True)]  # fmt: skip
    for label, settings, policy in cases:
        rate, decided = vector_rate(runs, steps, n, policy, **settings)
        print(f"  {label:<28} {rate:>12,.0f} env steps/s  {decided:>12,.0f} decisions/s")
    print(f"single env (one table, 6-max vs random): {single_rate(runs, 20_000):>10,.0f} steps/s")
    print(f"PettingZoo AEC (one table, 6 agents):    {aec_rate(runs, 20_000):>10,.0f} steps/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
