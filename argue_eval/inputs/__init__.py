"""Input assembly: the one place that turns what a user names (paths, or records already in memory) into
the records the scorer, the judges and the measures take.

The engines below (``argue/``, ``judges/``, ``measures/``) never open a file: the CLI commands and the
Python API (``argue_eval.api``) call these functions, which read through ``argue_eval.formats`` (every
format detected from content) and return records. One module per job:

=====================  ===================================================================================
module                 what it reads
=====================  ===================================================================================
``inputs.scoring``     nuggets, requests, qrels, judgments and runs for ``score``/``judge``/``evaluate``;
                       score tables into a matrix
``inputs.workbench``   a workbench database as judgments, nuggets and reports (a round in progress)
``inputs.runs``        runs for the alternate measures: reports, one per run and topic, paired with topics
``inputs.facts``       the nugget bank by topic; LongRecall's reference facts, comprehensiveness's context
``inputs.aspects``     ICAT's aspects: nugget questions, qrels subtopics, the requests' aspects
``inputs.assignments`` nuggetizer assignment files
``inputs.retrieval``   ranked lists (ranked runs, reports' citations) and the relevance they are measured by
=====================  ===================================================================================
"""
from __future__ import annotations

from .scoring import (
    Inputs,
    add_judgment_file,
    as_paths,
    check_one_report_per_topic,
    check_topic_overlap,
    iter_reports,
    load_inputs,
    load_judgments,
    load_matrix,
    read_judgment_records,
    read_nugget_list,
    read_qrels_rows,
    read_request_list,
)

__all__ = [
    "Inputs",
    "add_judgment_file",
    "as_paths",
    "check_one_report_per_topic",
    "check_topic_overlap",
    "iter_reports",
    "load_inputs",
    "load_judgments",
    "load_matrix",
    "read_judgment_records",
    "read_nugget_list",
    "read_qrels_rows",
    "read_request_list",
]
