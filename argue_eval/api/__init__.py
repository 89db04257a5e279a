"""The Python API: one function per job, taking paths or records and returning records and DataFrames.

What the CLI commands do, minus the printing (the commands parse options, call these and render; the
assessment workbench calls them too). Each function assembles its inputs through ``argue_eval.inputs``,
runs the pure engines (the ARGUE scorer, the judge runner, a measure family) and returns plain records and
pandas DataFrames in the long ``run_id request_id metric value`` shape that every table of the kit shares.

=====================  ============================================================  ========================
function               what it does                                                  module
=====================  ============================================================  ========================
``calc``               any measures by name (``argue.f1``, ``icat.f@1``, ...)        ``api.calc``
``iter_calc``          the same, per run and topic, family after family              ``api.calc``
``parse_measure``      a measure name parsed and checked (``measures.names``)        ``api.calc``
``score``              ARGUE measures from existing judgments                        ``api.score``
``judge``              answer the flowchart's open questions with a judge (cached)    ``api.judge``
``evaluate``           ``judge``, then ``score`` with the judge's answers            ``api.judge``
``plan``               what ``judge`` would ask and cost, judging nothing (dry run)   ``api.plan``
``write_judgments``    a judge run's judgments and their manifest, as one set        ``api.judge``
``calibrate``          a judge's thresholds fitted to human labels (cross-validated)  ``api.calibrate``
``write_profile``      the judge profile a ``calibrate`` result holds, unless refused ``api.calibrate``
``icat``               ICAT: claims grounded in the collection, aspects covered      ``api.icat``
``longrecall``         LongRecall: reference facts the report entails                ``api.longrecall``
``comprehensiveness``  context statements reached through entailments                ``api.comprehensiveness``
``nuggetizer``         TREC RAG nuggetizer scores of assignments (read or judged)    ``api.nuggetizer``
``retrieval``          trec_eval's measures of ranked runs or of reports' citations  ``api.retrieval``
``pool``               the documents assessors judge, per topic (``write_pool``)     ``api.pool``
``search``             BM25 or dense search of a collection, for assessors           ``api.search``
``validate``           every problem of run files, located                           ``api.validate``
``convert``            a file rewritten in another format of its kind                ``api.convert``
``create_nuggets``     an LLM-proposed nugget bank bound to documents, to revise     ``api.create``
``plan_create``        what ``create_nuggets`` would ask and cost (dry run)          ``api.create``
``compare_nuggets``    a created bank against a human one: recall, precision, ...    ``api.nugget_compare``
``agree_judgments``    judges against people: kappa, alpha, F1, rankings, decisions   ``api.agree_judgments``
=====================  ============================================================  ========================

Every measure is computed on one road, ``calc``'s: the measure functions below (``score``, ``evaluate``,
``icat``, ...) are its families' own tables (``calc_family``), each family computed by its provider
(``api.<family>.PROVIDER``). The alternate measures return a ``Result`` (``api.result``; also named
``MeasureResult``): ``table`` (a DataFrame), ``rows``, ``details``, ``counts`` and ``notes``; they take the judge
as ``judge`` (a backend name, a comma list or a ``JudgeBackend``), ``judge_options`` (per backend) and ``cache``
(a path or a ``JudgmentCache``).
"""
from __future__ import annotations

from ..measures.names import MeasureName, parse_measure, parse_measures
from .agree_judgments import JudgeAgreementResult, agree_judgments
from .calc import CalcResult, Metric, calc, calc_family, iter_calc
from .calibrate import Calibrated, calibrate, write_profile
from .comprehensiveness import comprehensiveness
from .convert import Conversion, convert
from .create import CreateResult, create_nuggets, plan_create
from .icat import icat
from .judge import EvaluateResult, JudgeResult, evaluate, judge, manifest, plan_topics, score_judged, write_judgments
from .limits import Limits
from .longrecall import longrecall
from .measure_result import MeasureResult
from .nugget_compare import CompareResult, compare_nuggets
from .nuggetizer import nuggetizer
from .plan import plan
from .pool import PoolResult, pool, write_pool
from .result import Note, Result
from .retrieval import RetrievalResult, retrieval
from .score import ScoreResult, make_policies, score
from .search import SearchResult, search
from .validate import validate

__all__ = ["calc", "iter_calc", "calc_family", "CalcResult", "Metric", "MeasureName", "parse_measure", "parse_measures",
           "score", "ScoreResult", "make_policies", "judge", "JudgeResult", "evaluate", "EvaluateResult",
           "plan_topics", "score_judged", "plan", "manifest", "write_judgments", "Limits", "icat", "longrecall",
           "comprehensiveness", "nuggetizer", "Result", "MeasureResult", "Note", "retrieval", "RetrievalResult", "pool",
           "PoolResult", "write_pool", "search", "SearchResult", "validate", "convert", "Conversion", "create_nuggets",
           "plan_create", "CreateResult", "compare_nuggets", "CompareResult", "agree_judgments",
           "JudgeAgreementResult", "calibrate", "Calibrated", "write_profile"]
