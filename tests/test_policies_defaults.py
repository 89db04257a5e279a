"""The scoring policies' defaults are written once, in ``argue.policies.Policies``: the click options and the API's
keywords read them from ``argue.policies.DEFAULTS``, and ``make_policies`` is the one place that builds ``Policies``
from keyword options.

``defaults_written_elsewhere`` reads every module's syntax tree and names each place that writes a policy's default
itself: a parameter named as a policy with a literal default, a ``click.option("--<policy>", default=<literal>)``,
``<policy> or <literal>`` (a fallback that is a default by another name), and the default weights spelled out.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from argue_eval.api import evaluate, judge, make_policies, plan, score
from argue_eval.argue.policies import DEFAULTS, POLICY_FIELDS, Policies, PolicyOptions, format_weights, parse_weights

PACKAGE = Path(__file__).resolve().parent.parent / "argue_eval"
FLAGS = {f"--{name.replace('_', '-')}": name for name in POLICY_FIELDS}

PENDING: dict[tuple[str, str], str] = {
    ("api/icat.py", "missing_topics"): "the measure families' missing-topic choice: road (issue 33 item 1) moves them "
                                       "onto api.calc",
    ("api/longrecall.py", "missing_topics"): "as api/icat.py",
    ("api/comprehensiveness.py", "missing_topics"): "as api/icat.py",
    ("inputs/runs.py", "missing_topics"): "the measures' report grid, as api/icat.py",
    ("commands/icat.py", "missing_topics"): "the measure commands: road (issue 33 item 1)",
    ("commands/longrecall.py", "missing_topics"): "as commands/icat.py",
    ("commands/comprehensiveness.py", "missing_topics"): "as commands/icat.py",
    ("workbench/loading.py", "relevance"): "the workbench's stored relevance: wbstore (issue 33 item 3)",
}
"""(file, policy) -> who moves that default onto ``DEFAULTS``, and why it is not done here."""


def _literal(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is not None


def defaults_written_elsewhere(root: Path = PACKAGE) -> list[str]:
    """``file:line: what`` for every policy default written outside ``argue/policies.py`` (``PENDING`` aside)."""
    weights_text = format_weights(DEFAULTS.weights)
    found = []
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name == "argue/policies.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            hits: list[tuple[str, str]] = []
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                arguments = node.args
                positional = [*arguments.posonlyargs, *arguments.args]
                pairs = list(zip(positional[len(positional) - len(arguments.defaults):], arguments.defaults))
                pairs += [(arg, default) for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults)]
                hits += [(arg.arg, f"parameter {arg.arg} = {ast.unparse(default)}")
                         for arg, default in pairs if arg.arg in POLICY_FIELDS and _literal(default)]
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == "option":
                flags = [arg.value for arg in node.args if isinstance(arg, ast.Constant) and arg.value in FLAGS]
                default = next((k.value for k in node.keywords if k.arg == "default"), None)
                hits += [(FLAGS[flag], f"option {flag} default={ast.unparse(default)}")
                         for flag in flags if _literal(default)]
            elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
                named = [getattr(value, "id", getattr(value, "attr", None)) for value in node.values]
                hits += [(policy, f"{ast.unparse(node)}") for policy in named
                         if policy in POLICY_FIELDS and any(_literal(value) for value in node.values)]
            elif isinstance(node, ast.Constant) and node.value == weights_text:
                hits.append(("weights", f"the default weights {weights_text!r}"))
            found += [f"{name}:{node.lineno}: {what}" for policy, what in hits if (name, policy) not in PENDING]
    return found


def test_no_policy_default_is_written_outside_the_dataclass():
    assert defaults_written_elsewhere() == []


def test_the_check_finds_each_way_of_writing_a_default(tmp_path):
    (tmp_path / "argue").mkdir()
    (tmp_path / "argue" / "policies.py").write_text('def f(relevance="nuggets"): ...\n')  # the one place: allowed
    (tmp_path / "bad.py").write_text(
        'def score(runs, *, relevance: str = "nuggets", details=True, missing_topics=None): ...\n'
        'def judge(runs, missing_judgments="error", /): ...\n'
        'opt = click.option("--nugget-scope", type=str, default="cited")\n'
        'fine = click.option("--nugget-scope", default=DEFAULTS.nugget_scope)\n'
        'scope = relevance or "nuggets"\n'
        'w = "vital=2,okay=1,none=1"\n'
    )
    assert defaults_written_elsewhere(tmp_path) == [
        'bad.py:1: parameter relevance = \'nuggets\'',
        'bad.py:2: parameter missing_judgments = \'error\'',
        'bad.py:3: option --nugget-scope default=\'cited\'',
        "bad.py:5: relevance or 'nuggets'",
        "bad.py:6: the default weights 'vital=2,okay=1,none=1'",
    ]


def test_the_typed_options_are_the_dataclass_fields():
    """``PolicyOptions`` (the API's ``**policies``) names exactly the fields of ``Policies``, in order."""
    assert tuple(PolicyOptions.__annotations__) == POLICY_FIELDS


def test_make_policies_is_keyword_only_skips_none_and_names_an_unknown_policy():
    assert make_policies() == DEFAULTS == Policies()
    assert make_policies(relevance=None, missing_topics="skip") == Policies(missing_topics="skip")
    assert make_policies(**Policies(nugget_scope="all", weights={"vital": 3}).options()) == \
        Policies(nugget_scope="all", weights={"vital": 3})
    with pytest.raises(TypeError, match="unknown policy option.*missing_topic\\b.*the policies are relevance"):
        make_policies(missing_topic="skip")


def test_the_default_weights_text_reads_back_as_the_default_weights():
    assert format_weights(DEFAULTS.weights) == "vital=2,okay=1,none=1"
    assert parse_weights(format_weights(DEFAULTS.weights)) == DEFAULTS.weights
    assert format_weights({"vital": 2.5, "okay": 1}) == "vital=2.5,okay=1"


def test_the_api_functions_that_score_or_judge_take_the_policies_as_keywords():
    """``score``, ``judge``, ``plan`` and ``evaluate`` (which passes them to ``judge``): no default of their own."""
    import inspect

    for function in (score, judge, plan):
        parameters = inspect.signature(function).parameters
        assert parameters["policies"].kind is inspect.Parameter.VAR_KEYWORD
        assert not set(parameters) & set(POLICY_FIELDS)
    assert inspect.signature(evaluate).parameters["keywords"].kind is inspect.Parameter.VAR_KEYWORD


def test_the_command_line_defaults_are_the_dataclass_defaults():
    """What ``--help`` shows as each policy's default is ``DEFAULTS``' value (the weights as ``parse_weights``
    reads them)."""
    from argue_eval.cli import cli

    ctx = cli.make_context("argue-eval", ["score", "--help"], resilient_parsing=True)
    command = cli.get_command(ctx, "score")
    shown = {param.name: param.default for param in command.params if param.name in POLICY_FIELDS}
    assert shown == {name: (format_weights(DEFAULTS.weights) if name == "weights" else getattr(DEFAULTS, name))
                     for name in POLICY_FIELDS}


def test_every_pending_entry_is_still_needed(monkeypatch):
    """An entry of ``PENDING`` whose default has moved onto ``DEFAULTS`` must go, so the list only shrinks."""
    monkeypatch.setattr(__import__(__name__), "PENDING", {})
    still = {(hit.split(":")[0], policy) for hit in defaults_written_elsewhere() for policy in POLICY_FIELDS
             if policy in hit.split(": ", 1)[1].replace("-", "_")}
    assert sorted(set(PENDING) - still) == []
