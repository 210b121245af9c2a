"""Dutch system: time to pair every round of TRF tournaments again, next to bbpPairings doing
the same (its check mode, -c, pairs each round from the rounds before it).  Nothing asserts a
time; the test (ctest pair_dutch) checks the rounds are identical.

    cmake --build build --target test_pair_dutch
    /usr/bin/python3 bench/pair_dutch.py                          # the largest test files
    /usr/bin/python3 bench/pair_dutch.py --bbp /path/bbpPairings.exe FILE.trf ...
    /usr/bin/python3 bench/pair_dutch.py --bbp BBP --generate 400 --rounds 5

--generate N makes an N-player tournament with bbpPairings' generator (fixed seed) first.
Times are CPU seconds of the pairing calls alone (test_pair_dutch's own count) and user CPU
seconds of the bbpPairings process (wall time on a shared machine counts the other work), per
round; peak is the most memory one round's pairing held (sqlite3_memory_highwater).
"""
import argparse
import re
import resource
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DRIVER = REPO / "build" / "test" / "test_pair_dutch"
DATA = REPO / "test" / "data" / "pairing" / "dutch"


def ours(trf: Path) -> tuple[int, int, float, int]:
    out = subprocess.run([str(DRIVER), str(trf)], capture_output=True, text=True).stdout
    m = re.search(r"total: (\d+) / (\d+) rounds identical.*?; ([\d.]+) s pairing; peak (\d+) KiB",
                  out)
    if not m:
        raise SystemExit(f"test_pair_dutch: no total for {trf}:\n{out}")
    return int(m.group(1)), int(m.group(2)), float(m.group(3)), int(m.group(4))


def theirs(bbp: str, trf: Path) -> float:
    t0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run([bbp, "--dutch", str(trf), "-c"], capture_output=True)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - t0


def generate(bbp: str, players: int, rounds: int, folder: Path) -> Path:
    cfg = folder / "cfg.txt"
    cfg.write_text(f"PlayersNumber={players}\nRoundsNumber={rounds}\nDrawPercentage=30\n"
                   "ForfeitRate=50\nRetiredRate=100\nHalfPointByeRate=30\n"
                   "HighestRating=2700\nLowestRating=1200\n")
    raw = folder / "raw.trf"
    subprocess.run([bbp, "--dutch", "-g", str(cfg), "-o", str(raw), "-s", "4242"], check=True,
                   capture_output=True)
    text = raw.read_bytes().decode().replace("\r\n", "\n").replace("\r", "\n")
    out = folder / f"gen-{players}p-{rounds}r.trf"
    out.write_text(text.rstrip("\n") + f"\nXXR {rounds}\n")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--bbp", help="bbpPairings executable, for the side-by-side times")
    ap.add_argument("--generate", type=int, metavar="N")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    if not DRIVER.exists():
        raise SystemExit("build first: cmake --build build --target test_pair_dutch")
    with tempfile.TemporaryDirectory() as tmp:
        files = list(args.files)
        if args.generate:
            if not args.bbp:
                raise SystemExit("--generate needs --bbp")
            files.append(generate(args.bbp, args.generate, args.rounds, Path(tmp)))
        if not files:
            files = sorted(DATA.glob("rtg-100p-*.trf"))[:1] + sorted(DATA.glob("rtg-200p-*.trf"))[:1]
        print(f"{'file':32} {'rounds':>7} {'same':>5} {'ours s/round':>13} {'peak KiB':>9}"
              f" {'bbp s/round':>12} {'ratio':>6}")
        for f in files:
            same, total, sec, peak = ours(f)
            per = sec / max(total, 1)
            line = f"{f.name:32} {total:7} {same:5} {per:13.3f} {peak:9}"
            if args.bbp:
                b = theirs(args.bbp, f) / max(total, 1)
                line += f" {b:12.3f} {per / b if b else float('nan'):6.1f}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
