"""The assessment workbench: a local web app where assessors write nuggets, judge citations and report
sentences, and an admin adjudicates disagreements (``argue-eval assess init/users/assign/serve/status/export``).

One SQLite file (``store``) holds everything of a round: the requests, the pool, the reports to assess, the
nugget bank being built with its history, the assessors, their assignments, and every answer with who gave
it, when, in which stage and what a judge had suggested. The questions asked are those ``score`` still
lacks (``argue.questions.list_questions``, the same list ``assess export`` writes), computed per topic and
assessor from the current nugget bank and that assessor's answers (``items``), so an assessor is asked
exactly what the flowchart reaches and nothing else. ``exporting`` writes the canonical nugget bank and
judgments that ``score`` reads. The web layer (``app``, templates, static files) is server-rendered; its
only script is ``static/wb.js`` (keyboard and text selection), served from the app itself.

This package sits beside the CLI: it uses ``api``, ``inputs``, ``organizer``, ``argue`` and ``formats``;
nothing below it imports it.
"""
