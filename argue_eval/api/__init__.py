"""The Python API: one function per job, taking paths or records and returning records and DataFrames.

What the CLI commands do, minus the printing (the commands parse options, call these and render; the
assessment workbench calls them too). Each function assembles its inputs through ``argue_eval.inputs``,
runs the pure engines (the ARGUE scorer, the judge runner, a measure family, the statistics) and returns one
shape, a ``Result`` (``api.result``): the long table (``rows``, and ``table`` as a pandas DataFrame; for scores
the ``run_id request_id metric value`` shape every table of the kit shares), ``details``, ``counts`` and the
``notes`` the command prints. The scoring policies are keywords named after ``argue.policies.Policies``' fields
(``score``, ``judge``, ``plan``, ``evaluate``), their defaults the dataclass's.

==========================  ================================================================  =========================
function                    what it does                                                      module
==========================  ================================================================  =========================
``calc``                    any measures by name (``argue.f1``, ``icat.f@1``, ...)            ``api.calc``
``iter_calc``               the same, per run and topic, family after family                  ``api.calc``
``parse_measure``           a measure name parsed and checked (``measures.names``)            ``api.calc``
``score``                   ARGUE measures from existing judgments                            ``api.score``
``judge``                   answer the flowchart's open questions with a judge (cached)       ``api.judge``
``evaluate``                ``judge``, then ``score`` with the judge's answers                ``api.judge``
``plan``                    what ``judge`` would ask and cost, judging nothing (dry run)      ``api.plan``
``write_judgments``         a judge run's judgments and their manifest, as one set            ``api.judge``
``merge_caches``            the judgment caches of a round's shards joined into one           ``api.cache``
``calibrate``               a judge's thresholds fitted to human labels (cross-validated)     ``api.calibrate``
``write_profile``           the judge profile a ``calibrate`` result holds, unless refused    ``api.calibrate``
``icat``                    ICAT: claims grounded in the collection, aspects covered          ``api.icat``
``longrecall``              LongRecall: reference facts the report entails                    ``api.longrecall``
``comprehensiveness``       context statements reached through entailments                    ``api.comprehensiveness``
``nuggetizer``              TREC RAG nuggetizer scores of assignments (read or judged)        ``api.nuggetizer``
``retrieval``               trec_eval's measures of ranked runs or of reports' citations      ``api.retrieval``
``pool``                    the documents assessors judge, per topic (``write_pool``)         ``api.pool``
``search``                  BM25 or dense search of a collection, for assessors               ``api.search``
``validate``                every problem of run files, located                               ``api.validate``
``convert``                 a file rewritten in another format of its kind                    ``api.convert``
``create_nuggets``          an LLM-proposed nugget bank bound to documents, to revise         ``api.create``
``plan_create``             what ``create_nuggets`` would ask and cost (dry run)              ``api.create``
``compare_nuggets``         a created bank against a human one: recall, precision, ...        ``api.nugget_compare``
``compare``                 a leaderboard with intervals and significance tests               ``api.compare``
``agree``                   agreement of two evaluations of the same systems (tau, ...)       ``api.agree``
``inspect``                 what a file is and what it holds, counted                         ``api.inspect``
``build_qrels``             qrels from assessor files (``qrels_from_nuggets``,                ``api.qrels``
                            ``merge_qrels``, ``qrels_stats``, ``write_qrels``)
``validate_requests``       every problem of a requests file (``add_request``,                ``api.requests``
                            ``export_requests``)
``validate_nuggets``        every problem of a nugget bank (``nugget_stats``,                 ``api.nuggets``
                            ``merge_nuggets``, ``bind_nuggets``, ``propose_bindings``,
                            ``write_nuggets``, ``write_proposals``)
``index_collection``        a JSONL collection's index (``get_documents``,                    ``api.collection``
                            ``collection_info``)
``report_inputs``           what the HTML report shows, read from files                       ``api.report``
``write_scores``            a score table (``write_records``, ``commit_together``)            ``api.outputs``
``agree_judgments``         judges against people: kappa, alpha, F1, rankings, decisions      ``api.agree_judgments``
``compare_replicates``      the leaderboard under judge uncertainty (replicate tables)        ``api.analysis``
``compare_systems``         systems of several runs: per-topic means, tests, spread           ``api.analysis``
``discriminative_power``    the share of run pairs a measure tells apart (Sakai)              ``api.analysis``
``swap_rates``              swap rate between disjoint topic sets (Voorhees, Buckley)         ``api.analysis``
``topic_set_size``          topics needed to detect a difference (Sakai)                      ``api.analysis``
``reusability``             leave one team out of the pool and the bank, rescore              ``api.reusability``
``circularity``             runs whose metadata names the judge's model or resources          ``api.analysis``
``export_assessment_pool``  the questions still open, as items people judge in a file         ``api.assessment``
``import_assessment_pool``  a filled pool read back as judgments (``write_human_judgments``)  ``api.assessment``
==========================  ================================================================  =========================

Every measure is computed on one road, ``calc``'s: the measure functions below (``score``, ``evaluate``,
``icat``, ...) are its families' own tables (``calc_family``), each family computed by its provider
(``api.<family>.PROVIDER``). The alternate measures' ``Result`` is also named ``MeasureResult``
(``api.measure_result``); they take the judge as ``judge`` (a backend name, a comma list or a ``JudgeBackend``),
``judge_options`` (per backend) and ``cache`` (a path or a ``JudgmentCache``).
"""
from __future__ import annotations

from ..measures.names import MeasureName, parse_measure, parse_measures
from ..model import ALL_TOPICS
from .agree import agree
from .agree_judgments import JudgeAgreementResult, agree_judgments, describe_test
from .analysis import (
    circularity,
    compare_replicates,
    compare_systems,
    discriminative_power,
    swap_rates,
    team_map,
    topic_set_size,
)
from .assessment import export_assessment_pool, import_assessment_pool, write_assessment_pool, write_human_judgments
from .cache import MergeResult, merge_caches
from .calc import CalcResult, Metric, calc, calc_family, iter_calc
from .calibrate import Calibrated, calibrate, write_profile
from .collection import collection_info, get_documents, index_collection
from .compare import compare
from .comprehensiveness import comprehensiveness
from .convert import Conversion, convert
from .create import CreateResult, create_nuggets, plan_create
from .icat import icat
from .inspect import inspect
from .judge import EvaluateResult, JudgeResult, evaluate, judge, manifest, plan_topics, score_judged, write_judgments
from .limits import Limits
from .longrecall import longrecall
from .measure_result import MeasureResult
from .nugget_compare import CompareResult, compare_nuggets
from .nuggetizer import nuggetizer
from .nuggets import (
    bind_nuggets,
    check_nugget_format,
    merge_nuggets,
    nugget_stats,
    propose_bindings,
    validate_nuggets,
    write_nuggets,
    write_proposals,
)
from .outputs import commit_together, write_records, write_scores
from .plan import plan
from .pool import PoolResult, pool, write_pool
from .qrels import build_qrels, merge_qrels, qrels_from_nuggets, qrels_stats, write_qrels
from .report import ReportInputs, read_judgment_files, report_inputs
from .requests import add_request, export_requests, validate_requests
from .result import Note, Result
from .retrieval import RetrievalResult, retrieval
from .reusability import reusability
from .score import ScoreResult, make_policies, score
from .search import SearchResult, search
from .validate import validate

__all__ = ["ALL_TOPICS", "merge_caches", "MergeResult",
           "calc", "iter_calc", "calc_family", "CalcResult", "Metric", "MeasureName", "parse_measure",
           "parse_measures",
           "score", "ScoreResult", "make_policies", "judge", "JudgeResult", "evaluate", "EvaluateResult",
           "plan_topics", "score_judged", "plan", "manifest", "write_judgments", "Limits", "icat", "longrecall",
           "comprehensiveness", "nuggetizer", "Result", "MeasureResult", "Note", "retrieval", "RetrievalResult", "pool",
           "PoolResult", "write_pool", "search", "SearchResult", "validate", "convert", "Conversion", "create_nuggets",
           "plan_create", "CreateResult", "compare_nuggets", "CompareResult", "write_scores", "write_records",
           "commit_together", "report_inputs", "ReportInputs", "read_judgment_files", "compare", "agree", "inspect",
           "build_qrels", "qrels_from_nuggets", "merge_qrels", "qrels_stats", "write_qrels", "validate_requests",
           "add_request", "export_requests", "validate_nuggets", "nugget_stats", "merge_nuggets", "bind_nuggets",
           "propose_bindings", "write_nuggets", "write_proposals", "index_collection", "get_documents",
           "collection_info", "check_nugget_format", "agree_judgments", "JudgeAgreementResult", "calibrate",
           "Calibrated", "write_profile", "compare_replicates",
           "compare_systems", "discriminative_power", "swap_rates", "topic_set_size", "reusability", "circularity",
           "team_map", "describe_test", "export_assessment_pool", "write_assessment_pool",
           "import_assessment_pool", "write_human_judgments"]
