"""``pypoker reader generate --hands 10M --population default --out DIR``: the Range
Reader's data (``pypoker.reader.generate``), with progress; rerun to resume.
``pypoker reader read HAND --seat S [--grid read.png]``: one seat's read in one hand
(``pypoker.reader.read_hand``): a PHH file, or a folder of shards with ``--hand-id``."""

from __future__ import annotations

import sys


def add_reader(commands, parse_count) -> None:
    command = commands.add_parser("reader", help="the Range Reader: generate its labelled "
                                  "hands, train and evaluate the model")  # fmt: skip
    verbs = command.add_subparsers(dest="verb", required=True)
    generate = verbs.add_parser("generate", help="hands of a population, as Parquet shards")
    generate.add_argument("--hands", type=parse_count, required=True, help="hands (e.g. 10M)")
    generate.add_argument("--out", required=True, help="folder of shards (resumes a rerun)")
    generate.add_argument("--population", default="default", help="'default', or agents "
                          "comma-separated (equity:aggression=0.8,chart)")  # fmt: skip
    generate.add_argument("--seed", type=int, default=0)
    generate.add_argument("--seats", type=int, default=6)
    generate.add_argument("--stacks", type=int, default=200, help="chips a seat (200)")
    generate.add_argument("--blinds", default="1,2", help="small,big (1,2)")
    generate.add_argument("--shard-hands", type=parse_count, default=1 << 20)
    generate.add_argument("-t", "--threads", type=int, default=None)
    generate.set_defaults(run=run_generate)
    train = verbs.add_parser("train", help="train the Reader model on generated hands")
    train.add_argument("--data", required=True, help="folder of shards (reader generate)")
    train.add_argument("--out", required=True, help="the model file (.npz)")
    train.add_argument("--epochs", type=int, default=1)
    train.add_argument("--seed", type=int, default=0)
    train.add_argument("--hidden", type=int, default=256, help="units a hidden layer (256)")
    train.add_argument("-t", "--threads", type=int, default=None, help="BLAS cores (2)")
    train.set_defaults(run=run_train)
    evaluate = verbs.add_parser("evaluate", help="how well a model reads held-out hands")
    evaluate.add_argument("--data", required=True, help="folder of shards (reader generate)")
    evaluate.add_argument("--model", default=None, help="a model file (default: pretrained)")
    evaluate.add_argument("--hidden-styles", action="store_true",
                          help="read without the seats' styles")  # fmt: skip
    evaluate.set_defaults(run=run_evaluate)
    _add_read(verbs)


def _add_read(verbs) -> None:
    read = verbs.add_parser("read", help="one seat's read in one hand: top combos, range grid")
    read.add_argument("source", help="a PHH file (.phh/.phhs), '-' for PHH text on stdin, or "
                      "a folder of generate's shards (with --hand-id)")  # fmt: skip
    read.add_argument("--seat", required=True, help="a seat number (0-based) or a PHH player "
                      "(p1, p2, ...)")  # fmt: skip
    read.add_argument("--hand", type=int, default=1, help="the hand of a .phhs (from 1)")
    read.add_argument("--hand-id", type=int, default=None, help="an arena hand id")
    read.add_argument("--using", default="posterior", choices=("posterior", "prior", "model"))
    read.add_argument("--at", type=int, default=-1, help="the seat's moment (-1: its last)")
    read.add_argument("--top", type=int, default=10, help="combos to print (10)")
    read.add_argument("--grid", default=None, help="write the read range as a 13x13 PNG")
    read.set_defaults(run=run_read)


def run_read(args) -> int:
    from .reading import read_hand

    found = read_hand(args.source, args.seat, hand=args.hand, hand_id=args.hand_id,
                      using=args.using, at=args.at)  # fmt: skip
    print(found.describe(args.top))
    if args.grid:
        found.plot(args.grid)
        print(f"the read range: {args.grid}")
    return 0


def run_generate(args) -> int:
    from .generate import generate

    population = args.population
    if population.strip().lower() != "default":
        population = [a for a in population.split(",") if a.strip()]
    blinds = tuple(int(b) for b in args.blinds.split(","))
    paths = generate(args.hands, args.out, population, args.seed, seats=args.seats,
                     stacks=args.stacks, blinds=blinds, shard_hands=args.shard_hands,
                     threads=args.threads, progress=sys.stderr.isatty())  # fmt: skip
    print(f"{args.hands:,} hands in {len(paths)} shard(s) in {args.out}")
    return 0


def run_train(args) -> int:
    from .model import Reader

    model = Reader(args.hidden).fit(args.data, epochs=args.epochs, seed=args.seed,
                                    progress=sys.stderr.isatty(), threads=args.threads)  # fmt: skip
    model.save(args.out)
    info = model.info
    print(f"trained on {info['examples']:,} examples ({info['epochs']} epoch(s), last loss "
          f"{info['loss']:.3f} nats): {args.out}")  # fmt: skip
    return 0


def run_evaluate(args) -> int:
    from .model import Reader

    model = Reader.pretrained() if args.model is None else Reader.load(args.model)
    result = model.evaluate(args.data, known_styles=not args.hidden_styles)
    print(describe(result, "styles hidden" if args.hidden_styles else "styles known"))
    return 0


def describe(result: dict, title: str) -> str:
    """``Reader.evaluate``'s figures in two lines."""
    r = result
    line = (f"{r['examples']:,} examples, {title}: cross-entropy {r['cross_entropy']:.3f} "
            f"nats (prior {r['prior_cross_entropy']:.3f}")  # fmt: skip
    if "posterior_cross_entropy" in result:
        line += f", exact posterior {result['posterior_cross_entropy']:.3f}"
    line += (f")\ntop-1 {result['top1']:.2%}, top-10 {result['top10']:.2%}, top-50 "
             f"{result['top50']:.2%}, class {result['class169']:.2%}")  # fmt: skip
    if "posterior_top10" in result:
        line += (f" (posterior: top-1 {r['posterior_top1']:.2%}, top-10 "
                 f"{r['posterior_top10']:.2%}, top-50 {r['posterior_top50']:.2%})")  # fmt: skip
    return line
