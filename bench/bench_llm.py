"""Benchmark: the LLM judge's throughput against an endpoint, and the model calls a round costs.

(a) Throughput. A local mock endpoint (tests/llm_server.py, 127.0.0.1) answers every call after a fixed
    latency (200 ms), so the ideal rate at concurrency c is c / latency. The judge sends 10 x c prompts
    (at least 10) at concurrency 1, 8 and 64; reported: achieved calls/s over the ideal (target >= 0.8 at
    64). This measures the judge's own overhead (event loop, HTTP client, parsing), not a model; the
    judge's CPU time per call is printed too, since on a busy machine CPU, not the endpoint, is the limit.
    Then two such endpoints at once (``--llm-base-url`` twice: each call goes to one with a free slot), each
    at concurrency 64: the ideal is twice one endpoint's.
(c) The batch-file round trip on the sample track: ``judge --batch-out`` writes the calls, a script answers the
    file as vLLM's run-batch would (the scripted server's replies, ``llm_server.answer_batch``), ``--batch-in``
    reads it back, until no call is left; the judgments are compared with a direct run against the scripted
    server (byte for byte), and the cycles and calls per cycle printed.
(b) Calls per report, as ratios measured on the same reports:
      naive       every sentence x every nugget answer of its topic, one call each
      auto-argue  two calls per sentence-citation pair (answers, attested), Auto-ARGUE's scheme
      ours        the judge's calls, counted at the mock endpoint on a real `judge` run over the sample
                  track, and planned by `--dry-run` (which bounds it) on the sample track and on a
                  generated round (bench_score's generator: runs share sentences, as in a real track)

    python bench/bench_llm.py                              # sample track + 100 runs x 50 topics x 30 sentences
    python bench/bench_llm.py --runs 20 --topics 10        # quicker
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "tests"))

from llm_server import MockChatServer  # noqa: E402

LATENCY = 0.2


def serve(latency: float) -> None:
    """A single-threaded asyncio endpoint (``--serve``): replies {"attested": true} after ``latency`` seconds.

    The threaded test server (tests/llm_server.py) convoys on its interpreter lock at 64 connections on a
    busy machine, which would measure the server, not the judge; one event loop has no such limit.
    """
    import asyncio

    reply = json.dumps({"model": "mock", "choices": [{"message": {"role": "assistant", "content": '{"attested": true}'}}],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 5}}).encode()
    head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(reply)}\r\n\r\n").encode()
    models = json.dumps({"object": "list", "data": [{"id": "mock", "object": "model"}]}).encode()
    models_head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(models)}\r\n\r\n").encode()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                headers = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in headers.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                await reader.readexactly(length)
                if headers.startswith(b"GET"):  # the model listing several endpoints are checked with
                    writer.write(models_head + models)
                    await writer.drain()
                    continue
                await asyncio.sleep(latency)
                writer.write(head + reply)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=512)
        print(f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)

    asyncio.run(main())


def throughput(base_url: str | list[str], concurrency: int) -> dict[str, float]:
    """Calls/s of one judge at ``concurrency`` after a warm-up call (client and connections set up)."""
    from argue_eval.judges.base import Question, make_key
    from argue_eval.judges.llm import LLMJudge
    from argue_eval.model import Document

    doc = Document("d1", "A short document about a river that flooded on Monday and closed a bridge.")
    def questions(tag: str, count: int) -> list:
        return [Question(make_key("attested", "r1", f"{tag} sentence {i}."), f"{tag} sentence {i}.", document=doc)
                for i in range(count)]

    endpoints = 1 if isinstance(base_url, str) else len(base_url)
    n = max(10, 10 * concurrency * endpoints)
    judge = LLMJudge(base_url=base_url, model="mock", concurrency=concurrency, timeout=30)
    try:
        judge.answer_many(questions("warm-up", concurrency * endpoints))
        before = judge.counts.calls
        started, cpu = time.perf_counter(), time.process_time()
        verdicts = judge.answer_many(questions("timed", n))
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        calls = judge.counts.calls - before
    finally:
        judge.close()
    assert calls == n and all(v is not None for v in verdicts)
    rate = n / seconds
    ideal = endpoints * concurrency / LATENCY
    return {"concurrency": concurrency, "calls": n, "seconds": seconds, "rate": rate, "cpu_ms": 1000 * cpu / n,
            "ideal": ideal, "ratio": rate / ideal}


def batch_round_trip(workdir: Path) -> dict:
    """Cycles of --batch-out / answered file / --batch-in on the sample track, against a direct run."""
    import shutil

    from llm_server import answer_batch

    from argue_eval.api import judge, write_judgments

    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    inputs = dict(collection=str(REPO / "topics/sample/collection.jsonl"), requests=str(REPO / "topics/sample/requests.jsonl"),
                  judge="llm")
    runs = sorted(str(p) for p in (REPO / "runs" / "sample").glob("*.jsonl"))
    nuggets = str(REPO / "nuggets/sample/nuggets.jsonl")
    model = "mock-2026-01-01"
    with MockChatServer(model=model) as server:
        options = {"llm": {"base_url": server.base_url, "model": "mock", "concurrency": 16}}
        direct = judge(runs, nuggets, judge_options=options, cache=workdir / "direct.sqlite", **inputs)
        write_judgments(direct, workdir / "direct.jsonl", "llm", options)
        sent = len(server.requests)
    options = {"llm": {"model": "mock"}}
    calls, results = [], []
    for number in range(1, 10):
        out = workdir / f"calls-{number}.jsonl"
        batched = judge(runs, nuggets, judge_options=options, cache=workdir / "batch.sqlite", batch_in=results,
                        batch_out=out, **inputs)
        calls.append(batched.batch.calls)
        if not batched.batch.calls:
            break
        answer_batch(out, workdir / f"results-{number}.jsonl", model=model)
        results = [workdir / f"results-{number}.jsonl"]
    write_judgments(batched, workdir / "batched.jsonl", "llm", options)
    same = (workdir / "batched.jsonl").read_bytes() == (workdir / "direct.jsonl").read_bytes()
    return {"cycles": len(calls) - 1, "calls": calls, "direct_calls": sent, "identical": same,
            "judgments": len(batched.judgments)}


def scheme_counts(reports, evaluation) -> dict[str, int]:
    answers_per_topic = {tid: sum(len(n.units) for n in topic.nuggets) for tid, topic in evaluation.topics.items()}
    return {
        "reports": len(reports),
        "sentences": sum(len(r.sentences) for r in reports),
        "naive": sum(len(r.sentences) * answers_per_topic.get(r.request_id, 0) for r in reports),
        "autoargue": 2 * sum(len(s.citations) for r in reports for s in r.sentences),
        "uncited": sum(1 for r in reports for s in r.sentences if not s.citations),
    }


def planned(runs: list[Path], nuggets: Path, requests: Path | None, collection: Path) -> dict:
    """The dry run's numbers (no model, no network) and the naive / Auto-ARGUE counts on the same reports."""
    from argue_eval.api import plan as dry_run
    from argue_eval.argue.policies import Policies
    from argue_eval.inputs import load_inputs

    options = {"llm": {"base_url": "http://127.0.0.1:9/v1", "model": "planned"}}
    started = time.perf_counter()
    plan = dry_run([str(p) for p in runs], str(nuggets), requests=str(requests) if requests else None, judge="llm",
                   judge_options=options, collection=str(collection))
    seconds = time.perf_counter() - started
    inputs = load_inputs([str(p) for p in runs], str(nuggets), None, str(requests) if requests else None, None,
                         Policies())
    counts = scheme_counts(list(inputs.reports()), inputs.evaluation)
    counts.update({"planned": sum(plan["calls"].values()), "by_kind": plan["calls"],
                   "prompt_tokens": plan["estimate"]["prompt_tokens"], "plan_seconds": seconds})
    return counts


def actual_sample_calls() -> int:
    """Calls counted at the mock endpoint for a real `judge --judge llm` run over the six sample runs."""
    from argue_eval.api import judge

    with MockChatServer() as server:
        result = judge(sorted(str(p) for p in (REPO / "runs" / "sample").glob("*.jsonl")),
                       str(REPO / "nuggets/sample/nuggets.jsonl"), collection=str(REPO / "topics/sample/collection.jsonl"),
                       requests=str(REPO / "topics/sample/requests.jsonl"), judge="llm",
                       judge_options={"llm": {"base_url": server.base_url, "model": "mock", "concurrency": 16}},
                       cache=None)
        assert not result.run.failures
        return len(server.requests)


def report(name: str, m: dict, actual: int | None = None) -> None:
    n = m["reports"]
    print(f"== {name}: {n} reports, {m['sentences']} sentences ({m['uncited']} uncited)")
    print(f"   naive       {m['naive']:>9} calls ({m['naive'] / n:7.1f}/report)")
    bound = m["autoargue"] + 2 * m["uncited"]
    print(f"   auto-argue  {m['autoargue']:>9} calls ({m['autoargue'] / n:7.1f}/report) for the cited pairs; "
          f"with 2 per uncited sentence {bound}")
    print(f"   ours, plan  {m['planned']:>9} calls ({m['planned'] / n:7.1f}/report): ours / auto-argue (+uncited) = "
          f"{m['planned'] / max(bound, 1):.3f}, ours / naive = {m['planned'] / max(m['naive'], 1):.4f}; "
          f"by kind {m['by_kind']}; ~{m['prompt_tokens']:,} prompt tokens; planned in {m['plan_seconds']:.1f} s")
    if actual is not None:
        print(f"   ours, run   {actual:>9} calls ({actual / n:7.1f}/report) counted at the endpoint: "
              f"ours / auto-argue (+uncited) = {actual / max(bound, 1):.3f}, ours / plan = {actual / m['planned']:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--sentences", type=int, default=30)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "out" / "judge-round")
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--skip-round", action="store_true")
    parser.add_argument("--serve", type=float, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve)
        return

    if not args.skip_throughput:
        import os
        import subprocess

        # the endpoint in its own process, so that it does not share the judge's interpreter lock
        server = subprocess.Popen([sys.executable, __file__, "--serve", str(LATENCY)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        base_url = server.stdout.readline().strip()
        print(f"== throughput against a mock endpoint with {LATENCY * 1000:.0f} ms latency (load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
        for concurrency in (1, 8, 64):
            t = throughput(base_url, concurrency)
            print(f"   concurrency {concurrency:>3}: {t['calls']:>4} calls in {t['seconds']:6.2f} s = {t['rate']:7.1f}/s; "
                  f"ideal {t['ideal']:6.1f}/s; achieved / ideal = {t['ratio']:.3f}; judge CPU {t['cpu_ms']:.1f} ms/call" + ("  (target >= 0.8)" if concurrency == 64 else ""))
        second = subprocess.Popen([sys.executable, __file__, "--serve", str(LATENCY)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        second_url = second.stdout.readline().strip()
        t = throughput([base_url, second_url], 64)
        print(f"   two endpoints, concurrency 64 each: {t['calls']:>4} calls in {t['seconds']:6.2f} s = {t['rate']:7.1f}/s; "
              f"ideal {t['ideal']:6.1f}/s; achieved / ideal = {t['ratio']:.3f}; judge CPU {t['cpu_ms']:.1f} ms/call")
        for process in (server, second):
            process.stdin.close()
            process.wait(timeout=30)

    trip = batch_round_trip(args.out / "batch-round-trip")
    print(f"== batch files on the sample track: {trip['cycles']} out/in cycle(s), calls per batch file {trip['calls']} "
          f"(a direct run sent {trip['direct_calls']}); {trip['judgments']} judgments, byte-identical to the direct "
          f"run's: {trip['identical']}")

    sample = planned(sorted((REPO / "runs" / "sample").glob("*.jsonl")), REPO / "nuggets/sample/nuggets.jsonl",
                     REPO / "topics/sample/requests.jsonl", REPO / "topics/sample/collection.jsonl")
    report("sample track", sample, actual_sample_calls())

    if not args.skip_round:
        from bench_judge import write_collection
        from bench_score import generate

        out = args.out / f"r{args.runs}-t{args.topics}-s{args.sentences}"
        if not (out / "generated.json").exists():
            print(f"generating {args.runs} runs x {args.topics} topics x {args.sentences} sentences into {out} ...",
                  file=sys.stderr)
            (out / "generated.json").parent.mkdir(parents=True, exist_ok=True)
            sizes = generate(out, args.runs, args.topics, args.sentences)
            (out / "generated.json").write_text(json.dumps(sizes))
        collection = write_collection(out, [f"{1000 + t}" for t in range(args.topics)])
        generated = planned(sorted((out / "runs").glob("*.jsonl")), out / "nuggets.jsonl", None, collection)
        report(f"generated round {args.runs} x {args.topics} x {args.sentences}", generated)


if __name__ == "__main__":
    main()
