#!/usr/bin/env python3
"""Turns ordo-one/benchmark's histogramPercentiles export into EndpointKit's comparison table.

Usage: summarize.py RESULTS_DIR CALLS_PER_END_TO_END_SAMPLE
Every figure is a median (p50) over the samples of one run; ratios compare figures of the same run.
"""
import glob
import os
import re
import sys

UNITS = {"(ns)": 1e-9, "(μs)": 1e-6, "(us)": 1e-6, "(ms)": 1e-3, "(s)": 1.0,
         "(K)": 1e3, "(M)": 1e6, "(G)": 1e9, "(#)": 1.0}


def load(results):
    """{(target, benchmark): {metric: p50 in base units}}"""
    table = {}
    for path in glob.glob(os.path.join(results, "*.histogram.percentiles.tsv")):
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        header = lines[0].split("\t", 1)[1]
        p50 = float(next(line.split("\t")[1] for line in lines[1:] if line.split("\t")[0] == "50"))
        factor = 1.0
        for unit, scale in UNITS.items():
            if unit in header:
                factor *= scale
        if "Time" in header and not any(u in header for u in ("(ns)", "(μs)", "(us)", "(ms)", "(s)")):
            factor *= 1e-9
        name = os.path.basename(path)
        metric = ("time" if "Time (wall clock)" in header else
                  "instructions" if header.startswith("Instructions") else
                  "mallocs" if header.startswith("Malloc (total)") else
                  "rss" if header.startswith("Memory (resident peak)") else None)
        if metric is None:
            continue
        target = "EndToEnd" if ".EndToEnd." in name else "ClientOverhead"
        benchmark = re.sub(r"^.*?\.(ClientOverhead|EndToEnd)\.", "", name).split(".")[0]
        table.setdefault((target, benchmark), {})[metric] = p50 * factor
    return table


def load_instructions(results, table):
    """Adds callgrind's instructions per call (instructions.tsv) to the in-memory rows."""
    names = {"EndpointKit": "EndpointKit", "MCP": "MCP tools/call (MCPServer.handle)",
             "MCP-guarded": "MCP tools/call, authorization and confirmation on", "snake": "hand-written snake_case",
             "snake-all": "hand-written snake_case allHTTPHeaderFields",
             "explicit": "hand-written explicit keys",
             "explicit-all": "hand-written explicit keys allHTTPHeaderFields", "openapi": "OpenAPI generated",
             "raw-loopback": "raw URLSession", "EndpointKit-loopback": "EndpointKit",
             "openapi-loopback": "OpenAPI generated"}
    path = os.path.join(results, "instructions.tsv")
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            contender, operation, count = line.split()
            target = "Loopback" if contender.endswith("-loopback") else "ClientOverhead"
            key = (target, f"{operation} {names[contender]}".replace(" ", "_"))
            for existing in list(table):
                if existing[0] == target and existing[1].replace("_", " ") == key[1].replace("_", " "):
                    key = existing
            table.setdefault(key, {})["instructions"] = float(count)


def human_time(seconds):
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.2f} µs"


def human_count(count):
    if count >= 1e6:
        return f"{count / 1e6:.2f} M"
    if count >= 1e4:
        return f"{count / 1e3:.0f} k"
    return f"{count:.0f}"


def ratio(mine, theirs):
    if not mine or not theirs:
        return "—"
    return f"{mine / theirs:.2f}×"


def find(table, target, wanted):
    for (t, name), metrics in table.items():
        if t == target and name.replace("_", " ").lower() == wanted.replace("_", " ").lower():
            return metrics
    return {}


def main():
    results, calls = sys.argv[1], int(sys.argv[2])
    table = load(results)
    load_instructions(results, table)
    if not table:
        sys.exit("no benchmark results found in " + results)

    print("In memory, per call (canned bytes, no network): median wall time and mallocs (ordo-one/benchmark),")
    print("instructions (valgrind callgrind). Ratio = EndpointKit ÷ contender; below 1 means EndpointKit is cheaper.")
    print(f"{'operation':<10}{'contender':<48}{'time':>11}{'instructions':>14}{'mallocs':>9}"
          f"{'time ratio':>12}{'instr. ratio':>14}{'malloc ratio':>14}")
    contenders = ["EndpointKit", "MCP tools/call (MCPServer.handle)", "MCP tools/call, authorization and confirmation on",
                  "hand-written snake_case", "hand-written snake_case allHTTPHeaderFields",
                  "hand-written explicit keys", "hand-written explicit keys allHTTPHeaderFields", "OpenAPI generated"]
    for operation in ("GET", "POST"):
        mine = find(table, "ClientOverhead", f"{operation} EndpointKit")
        for contender in contenders:
            theirs = find(table, "ClientOverhead", f"{operation} {contender}")
            if not theirs:
                continue
            same = contender == "EndpointKit"
            # The MCP rows have instructions only: the harness does not run them.
            print(f"{operation:<10}{contender:<48}{human_time(theirs['time']) if 'time' in theirs else 'n/a':>11}"
                  f"{human_count(theirs.get('instructions', 0)) if theirs.get('instructions') else 'n/a':>14}"
                  f"{human_count(theirs['mallocs']) if 'mallocs' in theirs else 'n/a':>9}"
                  f"{'' if same else ratio(mine.get('time'), theirs.get('time')):>12}"
                  f"{'' if same else ratio(mine.get('instructions'), theirs.get('instructions')):>14}"
                  f"{'' if same else ratio(mine.get('mallocs'), theirs.get('mallocs')):>14}")
    query_mine = find(table, "ClientOverhead", "Query 20 fields EndpointKit")
    query_theirs = find(table, "ClientOverhead", "Query 20 fields URLComponents")
    if query_mine:
        print(f"Query string of a 20-field struct: EndpointKit call {human_time(query_mine.get('time', 0))}, "
              f"{human_count(query_mine.get('mallocs', 0))} mallocs; URLComponents.queryItems alone "
              f"{human_time(query_theirs.get('time', 0))}, {human_count(query_theirs.get('mallocs', 0))} mallocs "
              f"(ratio {ratio(query_mine.get('time'), query_theirs.get('time'))}).")

    print()
    print("End to end over loopback, client-side instructions per call (callgrind; deterministic, unlike wall time here).")
    for operation in ("GET", "POST"):
        mine = find(table, "Loopback", f"{operation} EndpointKit")
        for contender in ("raw URLSession", "EndpointKit", "OpenAPI generated"):
            theirs = find(table, "Loopback", f"{operation} {contender}")
            if theirs.get("instructions"):
                print(f"{operation:<10}{contender:<20}{human_count(theirs['instructions']):>10}"
                      f"{'' if contender == 'EndpointKit' else ratio(mine.get('instructions'), theirs.get('instructions')):>8}")

    print_targets(table)

    end_to_end = [(name, metrics) for (target, name), metrics in table.items() if target == "EndToEnd"]
    if not end_to_end:
        return
    print()
    print(f"End to end over loopback, {calls} calls per sample. Ratio = EndpointKit wall time ÷ contender wall time.")
    print(f"{'operation':<10}{'mode':<15}{'contender':<20}{'req/s':>9}{'peak RSS':>10}{'ratio':>8}")
    for operation in ("GET", "POST"):
        for mode in ("sequential", "8 concurrent", "64 concurrent"):
            mine = find(table, "EndToEnd", f"{operation} {mode} EndpointKit")
            for contender in ("raw URLSession", "EndpointKit", "OpenAPI generated"):
                theirs = find(table, "EndToEnd", f"{operation} {mode} {contender}")
                if not theirs or not theirs.get("time"):
                    continue
                rate = calls / theirs["time"]
                rss = theirs.get("rss", 0) / 1e6 if theirs.get("rss", 0) > 1e5 else theirs.get("rss", 0)
                print(f"{operation:<10}{mode:<15}{contender:<20}{rate:>9.0f}{rss:>8.0f} M"
                      f"{'' if contender == 'EndpointKit' else ratio(mine.get('time'), theirs.get('time')):>8}")


def print_targets(table):
    """Each target of the performance issue, met or missed, from this run's figures. A hand-written
    contender is the cheaper of its two header styles, so that EndpointKit meets its best."""
    def best(operation, contender, metric):
        values = [find(table, "ClientOverhead", f"{operation} {name}").get(metric)
                  for name in (contender, f"{contender} allHTTPHeaderFields")]
        values = [value for value in values if value]
        return min(values) if values else None

    def check(label, mine, theirs, limit):
        if not mine or not theirs:
            print(f"  {label}: not measured")
            return
        verdict = "met" if mine / theirs <= limit else "MISSED"
        print(f"  {label}: {mine / theirs:.2f}× (target ≤ {limit:.2f}×) {verdict}")

    print()
    print("Targets (ratio = EndpointKit ÷ contender, this run):")
    for operation, snake_limit, explicit_limit in (("GET", 0.80, 1.35), ("POST", 0.95, None)):
        mine = find(table, "ClientOverhead", f"{operation} EndpointKit")
        check(f"in-memory {operation} instructions vs hand-written snake_case", mine.get("instructions"),
              best(operation, "hand-written snake_case", "instructions"), snake_limit)
        if explicit_limit:
            check(f"in-memory {operation} instructions vs hand-written explicit keys", mine.get("instructions"),
                  best(operation, "hand-written explicit keys", "instructions"), explicit_limit)
    for operation in ("GET", "POST"):
        check(f"loopback {operation} client instructions vs raw URLSession",
              find(table, "Loopback", f"{operation} EndpointKit").get("instructions"),
              find(table, "Loopback", f"{operation} raw URLSession").get("instructions"), 1.00)
    for operation, limit in (("GET", 0.90), ("POST", 1.00)):
        check(f"in-memory {operation} wall time vs hand-written snake_case, setValue (noisy: report)",
              find(table, "ClientOverhead", f"{operation} EndpointKit").get("time"),
              find(table, "ClientOverhead", f"{operation} hand-written snake_case").get("time"), limit)
    check("in-memory GET mallocs vs hand-written snake_case",
          find(table, "ClientOverhead", "GET EndpointKit").get("mallocs"),
          best("GET", "hand-written snake_case", "mallocs"), 1.00)
    # Requests per second: EndpointKit's rate over raw URLSession's is the inverse of the time ratio.
    mine = find(table, "EndToEnd", "GET 64 concurrent EndpointKit").get("time")
    theirs = find(table, "EndToEnd", "GET 64 concurrent raw URLSession").get("time")
    if mine and theirs:
        rate = theirs / mine
        print(f"  64 concurrent GETs over loopback, requests/s vs raw URLSession: {rate:.2f}× (target ≥ 1.00×) {'met' if rate >= 1.00 else 'MISSED'}")
    else:
        print("  64 concurrent GETs over loopback, requests/s vs raw URLSession: not measured")
    build = os.environ.get("BENCH_BUILD_SECONDS")
    if build and build != "-":  # "-": not measured (the smoke pass)
        verdict = "met" if float(build) <= 10 else "MISSED"
        print(f"  clean debug build of the library: {build} s (target ≤ 10 s) {verdict}")


if __name__ == "__main__":
    main()
