"""Times whole-process peer commands over corpora and prints one table.

Each command is started as its own process (posix_spawn, under
`/usr/bin/time -f %M` where GNU time is installed) with stdin from /dev/null
and stdout/stderr to files; its wall time is a monotonic clock read around
spawn and reap, its user/system seconds the kernel's rusage for that child
(wait4), and its peak RSS GNU time's %M (else ru_maxrss).

Runs go round-robin -- every peer once per round, the starting peer rotating
from round to round -- so that a drift in machine speed hits every peer alike,
and the ratio to the reference command is taken round by round (paired) before
the median is taken. The first WARMUP rounds are not counted; the first round
also checks each peer's output (file count, bytes, identity where asked).

Stdlib only. Run by run.sh; see README.md.

    bench.py --corpus NAME=DIR ... --peer NAME=COMMAND ... [--ref NAME]
             [--runs N] [--warmup N] [--base URL] [--work DIR] [--json FILE]

COMMAND is split like a shell would (shlex) and may use {base}, {in}, {out}.
"""
import argparse
import filecmp
import json
import os
import platform
import shlex
import shutil
import signal
import statistics
import sys
import threading
import time


def html_stats(root):
    """(files, bytes) of regular *.html files under root."""
    n = b = 0
    for d, _dirs, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            if f.lower().endswith(".html") and os.path.isfile(p) and not os.path.islink(p):
                n += 1
                b += os.path.getsize(p)
    return n, b


def identical_trees(a, b):
    """Number of .html files under a whose copy under b has the same bytes."""
    same = 0
    for d, _dirs, files in os.walk(a):
        for f in files:
            if not f.lower().endswith(".html"):
                continue
            p = os.path.join(d, f)
            q = os.path.join(b, os.path.relpath(p, a))
            try:
                # filecmp reads in small chunks: reading whole files here would
                # raise this process's RSS, which children inherit as a floor.
                if filecmp.cmp(p, q, shallow=False):
                    same += 1
            except OSError:
                pass
    return same


GNU_TIME = "/usr/bin/time"


def spawn_timed(argv, stdout_path, stderr_path, timeout):
    """Runs argv once; returns wall, user, sys, cpu, peak RSS, exit status.

    A child's ru_maxrss starts at its parent's RSS (Linux carries the
    high-water mark over fork and exec), so a peak taken here could not read
    below this Python process's ~14 MiB. Where GNU time is installed the
    command runs under `/usr/bin/time -f %M`, whose own RSS (~2 MiB) is the
    floor instead, and the peak is read from its report. Wall time is this
    process's clock; CPU is wait4's rusage (the command's plus time's, which
    is negligible)."""
    exe = shutil.which(argv[0])
    if exe is None:
        raise FileNotFoundError(f"command not found: {argv[0]}")
    rss_path = stderr_path + ".rss"
    if os.access(GNU_TIME, os.X_OK):
        argv = [GNU_TIME, "-f", "%M", "-o", rss_path, exe] + argv[1:]
        exe = GNU_TIME
    wr = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, stdout_path, wr, 0o644),
        (os.POSIX_SPAWN_OPEN, 2, stderr_path, wr, 0o644),
    ]
    killed = []
    h0 = host_cpu()
    t0 = time.perf_counter()
    # Own process group, so that a timeout kills the command and its children.
    pid = os.posix_spawn(exe, argv, os.environ, file_actions=actions, setpgroup=0)

    def kill():
        killed.append(True)
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(timeout, kill)
    timer.start()
    _, status, ru = os.wait4(pid, 0)
    t1 = time.perf_counter()
    h1 = host_cpu()
    timer.cancel()
    rc = os.waitstatus_to_exitcode(status)
    cpu = ru.ru_utime + ru.ru_stime
    peak_kib = ru.ru_maxrss  # Linux reports KiB
    floor = "runner"
    try:
        with open(rss_path) as f:
            peak_kib = int(f.read().split()[-1])  # last line: %M
            floor = "gnu-time"
        os.unlink(rss_path)
    except (OSError, ValueError, IndexError):
        pass
    host = {}
    if h0 and h1:
        busy, iowait, steal = (b - a for a, b in zip(h0, h1))
        # CPU that everything else on the machine used meanwhile (tick
        # resolution, so +-0.01 s per CPU): other sessions, writeback, ...
        host = {"host_busy_s": busy, "host_iowait_s": iowait, "host_steal_s": steal,
                "other_cpu_s": max(0.0, busy - cpu)}
    return {
        "wall_s": t1 - t0,
        "user_s": ru.ru_utime,
        "sys_s": ru.ru_stime,
        "cpu_s": cpu,
        "peak_rss_mib": peak_kib / 1024.0,
        "peak_rss_from": floor,
        "rc": rc,
        "timed_out": bool(killed),
        **host,
    }


TICK = os.sysconf("SC_CLK_TCK")


def host_cpu():
    """(busy, iowait, steal) seconds summed over all CPUs, from /proc/stat."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return None
    user, nice, system, _idle, iowait, irq, softirq, steal = (v + [0] * 8)[:8]
    return ((user + nice + system + irq + softirq) / TICK, iowait / TICK, steal / TICK)


def tail(path, n=600):
    try:
        with open(path, "rb") as f:
            data = f.read()
        return data[-n:].decode("utf-8", "replace").strip()
    except OSError:
        return ""


def count_lines(path):
    n = 0
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            n += chunk.count(b"\n")
    return n


def wait_quiet(max_s, pct, window=1.0):
    """Wait until a window passes in which the machine used at most pct % of
    one core, or max_s seconds elapse. Returns the seconds waited and the last
    window's load (% of one core)."""
    t0 = time.perf_counter()
    load = 0.0
    if max_s <= 0:
        return 0.0, load
    while True:
        h0 = host_cpu()
        time.sleep(window)
        h1 = host_cpu()
        if not (h0 and h1):
            return 0.0, 0.0
        load = 100.0 * (h1[0] - h0[0]) / window
        waited = time.perf_counter() - t0
        if load <= pct or waited >= max_s:
            return waited, load


def other_pct(res):
    """CPU the rest of the machine used during a run, as % of one core."""
    return 100.0 * res.get("other_cpu_s", 0.0) / res["wall_s"]


def fmt_ratio(x):
    return "" if x is None else f"{x:.2f}x"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", action="append", required=True, metavar="NAME=DIR")
    ap.add_argument("--peer", action="append", required=True, metavar="NAME=COMMAND")
    ap.add_argument("--ref", help="peer every other is compared with (ratio = peer wall / ref wall)")
    ap.add_argument("--identity", action="append", default=[], metavar="NAME",
                    help="peer whose output must equal its input byte for byte")
    ap.add_argument("--stdout-peer", action="append", default=[], metavar="NAME",
                    help="peer whose product is its stdout (counted in lines), not OUTDIR")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per run before SIGKILL")
    ap.add_argument("--quiet-pct", type=float, default=25.0,
                    help="a counted run is disturbed when the rest of the machine used more "
                         "than this %% of one core meanwhile")
    ap.add_argument("--retries", type=int, default=1, help="reruns of a disturbed counted run")
    ap.add_argument("--settle", type=float, default=30.0,
                    help="before each corpus, wait up to this many seconds for a quiet machine "
                         "(and up to a sixth of it before each round)")
    ap.add_argument("--base", default="https://www.example.com/mirror/")
    ap.add_argument("--work", required=True, help="scratch folder for outputs")
    ap.add_argument("--json", help="write results here")
    ap.add_argument("--keep", action="store_true",
                    help="keep the last round's outputs in WORK/CORPUS/PEER/{out,stdout,stderr}")
    ap.add_argument("--meta", action="append", default=[], metavar="KEY=VALUE")
    a = ap.parse_args()

    peers = []
    for spec in a.peer:
        name, _, cmd = spec.partition("=")
        peers.append((name, shlex.split(cmd)))
    names = [p[0] for p in peers]
    if a.ref and a.ref not in names:
        ap.error(f"--ref {a.ref} is not a peer")

    results = {
        "tool": "testdata/bench/peers/run.sh (relurl's copy of ../shared/bench/peers)",
        "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {
            "cpus": os.cpu_count(),
            "cpu_model": cpu_model(),
            "kernel": platform.release(),
            "loadavg_before": os.getloadavg(),
        },
        "method": {
            "runs": a.runs, "warmup": a.warmup, "order": "round-robin, rotating start",
            "wall": "monotonic clock around posix_spawn..wait4",
            "cpu_rss": "wait4 rusage of the child (user+sys); peak RSS: GNU time %M where installed, else ru_maxrss",
            "mb": "10^6 bytes of input .html",
            "ratio": "median over rounds of (peer wall / ref wall) in the same round",
            "other_cpu": "/proc/stat busy time of the whole machine during the run minus the child's cpu",
            "quiet_pct": a.quiet_pct, "retries": a.retries, "settle_s": a.settle,
        },
        "base": a.base,
        "ref": a.ref,
        "meta": dict(m.partition("=")[::2] for m in a.meta),
        "corpora": [],
    }

    # No peak can read below what an empty command reports (see spawn_timed).
    floor_dir = os.path.join(a.work, ".floor")
    os.makedirs(floor_dir, exist_ok=True)
    rss_floor = spawn_timed(["true"], os.path.join(floor_dir, "o"), os.path.join(floor_dir, "e"), 10)["peak_rss_mib"]

    rows = []
    for cspec in a.corpus:
        cname, _, cdir = cspec.partition("=")
        files, nbytes = html_stats(cdir)
        if files == 0:
            sys.exit(f"corpus {cname}: no .html files under {cdir}")
        print(f"# corpus {cname}: {cdir}: {files} files, {nbytes} bytes; "
              f"{a.warmup} warm-up + {a.runs} counted rounds of {len(peers)} peers",
              file=sys.stderr, flush=True)
        runs = {n: [] for n in names}
        checks = {n: "" for n in names}
        failed = {n: None for n in names}
        rounds = a.warmup + a.runs
        for r in range(rounds):
            k = r % len(peers)
            waited, load = wait_quiet(a.settle if r == 0 else a.settle / 6, a.quiet_pct)
            if waited > 1.5:
                print(f"#   waited {waited:.0f}s for a quiet machine (last second: "
                      f"{load:.0f}% of a core busy)", file=sys.stderr, flush=True)
            t_round = time.perf_counter()
            for name, argv in peers[k:] + peers[:k]:
                pdir = os.path.join(a.work, cname, name)
                out = os.path.join(pdir, "out")
                cmd = [x.format(base=a.base, **{"in": cdir, "out": out}) for x in argv]
                so, se = os.path.join(pdir, "stdout"), os.path.join(pdir, "stderr")
                attempts = []
                # A counted run during which the rest of the machine used more
                # than --quiet-pct of a core is run again (--retries times at
                # most); the least disturbed attempt is kept.
                for attempt in range(1 + (a.retries if r >= a.warmup else 0)):
                    if attempt:
                        wait_quiet(a.settle / 6, a.quiet_pct)
                    shutil.rmtree(pdir, ignore_errors=True)
                    os.makedirs(out)
                    res = spawn_timed(cmd, so, se, a.timeout)
                    attempts.append(res)
                    if res["rc"] != 0 or res["timed_out"]:
                        why = "timed out" if res["timed_out"] else f"exit {res['rc']}"
                        failed[name] = failed[name] or f"{why}: {tail(se)}"
                        break
                    if r == 0 and attempt == 0:
                        res["stderr_tail"] = tail(se, 300)
                        if name in a.stdout_peer:
                            checks[name] = f"{count_lines(so)} lines"
                        else:
                            of, ob = html_stats(out)
                            checks[name] = f"{of}/{files} files, {ob / 1e6:.1f} MB out"
                            if name in a.identity:
                                checks[name] += f", {identical_trees(cdir, out)}/{files} identical"
                    if other_pct(res) <= a.quiet_pct:
                        break
                res = min(attempts, key=lambda x: x.get("other_cpu_s", 0.0))
                res["attempts"] = len(attempts)
                res["noisy"] = other_pct(res) > a.quiet_pct
                if len(attempts) > 1:
                    res["discarded"] = [x for x in attempts if x is not res]
                res["round"] = r
                res["counted"] = r >= a.warmup
                runs[name].append(res)
                if not (a.keep and r == rounds - 1):
                    shutil.rmtree(pdir, ignore_errors=True)
            print(f"#   round {r + 1}/{rounds}{' (warm-up)' if r < a.warmup else ''} "
                  f"{time.perf_counter() - t_round:.1f}s", file=sys.stderr, flush=True)

        cres = {"name": cname, "dir": cdir, "files": files, "bytes": nbytes, "peers": []}
        ref_walls = {x["round"]: x["wall_s"] for x in runs.get(a.ref, []) if x["counted"]} if a.ref else {}
        for name in names:
            counted = [x for x in runs[name] if x["counted"]]
            walls = [x["wall_s"] for x in counted]
            med = statistics.median(walls)
            ratio = None
            # A peer whose product is stdout does another job: no ratio.
            if (a.ref and name != a.ref and name not in a.stdout_peer
                    and not failed[name] and not failed[a.ref]):
                ratio = statistics.median(x["wall_s"] / ref_walls[x["round"]] for x in counted)
            p = {
                "peer": name,
                "command": shlex.join(dict(peers)[name]),
                "ok": failed[name] is None,
                "error": failed[name],
                "check": checks[name],
                "wall_median_s": med,
                "wall_min_s": min(walls),
                "wall_max_s": max(walls),
                "mb_per_s": nbytes / 1e6 / med,
                "cpu_median_s": statistics.median(x["cpu_s"] for x in counted),
                "peak_rss_mib": max(x["peak_rss_mib"] for x in counted),
                "other_cpu_pct_median": statistics.median(other_pct(x) for x in counted),
                "reruns": sum(x["attempts"] - 1 for x in counted),
                "noisy_runs": sum(x["noisy"] for x in counted),
                "ratio_vs_ref": ratio,
                "runs": runs[name],
            }
            cres["peers"].append(p)
            rows.append((cname, p))
        results["corpora"].append(cres)
    results["machine"]["loadavg_after"] = os.getloadavg()
    rss_floor = max(rss_floor, spawn_timed(["true"], os.path.join(floor_dir, "o"),
                                           os.path.join(floor_dir, "e"), 10)["peak_rss_mib"])
    shutil.rmtree(floor_dir, ignore_errors=True)
    results["method"]["peak_rss_floor_mib"] = rss_floor

    hdr = ["corpus", "peer", "median s", "min-max s", "MB/s", "CPU s", "peak RSS MiB",
           f"vs {a.ref}" if a.ref else "", "other CPU %", "check"]
    table = []
    for cname, p in rows:
        if not p["ok"]:
            table.append([cname, p["peer"], "FAILED", "", "", "", "", "", "", p["error"][:120]])
            continue
        table.append([
            cname, p["peer"], f"{p['wall_median_s']:.3f}",
            f"{p['wall_min_s']:.3f}-{p['wall_max_s']:.3f}", f"{p['mb_per_s']:.1f}",
            f"{p['cpu_median_s']:.3f}", f"{p['peak_rss_mib']:.0f}",
            "ref" if a.ref and p["peer"] == a.ref else fmt_ratio(p["ratio_vs_ref"]) or "-",
            f"{p['other_cpu_pct_median']:.0f}" + (f" ({p['noisy_runs']} noisy)" if p["noisy_runs"] else ""),
            p["check"],
        ])
    if not a.ref:
        hdr.pop(7)
        for t in table:
            t.pop(7)
    right = {"median s", "min-max s", "MB/s", "CPU s", "peak RSS MiB", f"vs {a.ref}", "other CPU %"}
    w = [max(len(str(x)) for x in col) for col in zip(hdr, *table)]
    line = lambda cells: "| " + " | ".join(
        str(c).rjust(w[i]) if hdr[i] in right else str(c).ljust(w[i]) for i, c in enumerate(cells)) + " |"
    print(line(hdr))
    print("|" + "|".join(("-" * (w[i] + 1)) + (":" if hdr[i] in right else "-") for i in range(len(hdr))) + "|")
    for t in table:
        print(line(t))
    reruns = sum(p["reruns"] for _, p in rows)
    noisy = sum(p["noisy_runs"] for _, p in rows)
    if reruns or noisy:
        print(f"\nbackground load: {reruns} counted run(s) rerun (rest of the machine > "
              f"{a.quiet_pct:.0f}% of a core); {noisy} still disturbed after {a.retries} rerun(s) "
              f"-- marked 'noisy'; compare such rows with care")
    if a.keep:
        print(f"outputs of the last round kept in {a.work}")
    print(f"\n{a.runs} counted runs each after {a.warmup} warm-up; MB/s = corpus bytes / median wall; "
          f"CPU = median user+sys; peak RSS = max over counted runs (cannot read below "
          f"the runner's floor, {rss_floor:.0f} MiB: a figure near it means 'at most that'); "
          f"other CPU % = median CPU used by the rest of the machine during the run, "
          f"as % of the run's wall (100 = one core; near 0 = quiet)"
          + (f"; 'vs {a.ref}' = median of per-round (peer wall / {a.ref} wall), >1 means {a.ref} is faster"
             if a.ref else "")
          + f"; load average before/after: {fmt_load(results['machine']['loadavg_before'])} / "
            f"{fmt_load(results['machine']['loadavg_after'])} on {os.cpu_count()} CPUs")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
        print(f"JSON: {a.json}")
    if any(not p["ok"] for _, p in rows):
        sys.exit(1)


def fmt_load(l):
    return "/".join(f"{x:.2f}" for x in l)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


if __name__ == "__main__":
    main()
