"""The assessment workbench: a local web app where assessors write nuggets, judge citations and report
sentences, and an admin adjudicates disagreements (``argue-eval assess init/users/assign/serve/status/export-db``).

One SQLite file holds everything of a round: the requests, the pool, the reports to assess, the nugget bank
being built with its history, the assessors, their assignments, and every answer with who gave it, when, in
which stage and what a judge had suggested. ``store`` is that database as the workbench writes and reads it
(one method per query), built on ``inputs.workbench``, which holds the file's schema and what ``score``
reads from it. The questions asked are those ``score`` still lacks
(``argue.questions.list_questions``, the same list ``assess export`` writes), computed per topic and assessor
from the current nugget bank and that assessor's answers (``items``), so an assessor is asked exactly what the
flowchart reaches and nothing else; ``stages`` declares the stages they are asked in. ``actions`` records
answers and bank edits, ``loading`` fills the database from a round's files (read through ``inputs``, as
``score`` reads them), ``exporting`` writes the canonical nugget bank and judgments that ``score`` reads
(``inputs.workbench`` reads the same from the database itself), ``admin`` assigns topics, ``security``
keeps passwords and sessions.

The web layer, datasette's shape: ``pages`` registers every page (a view of ``pages/``) in one table with
the rule it is served under, ``web`` applies the rules (session, topic permission, admin, CSRF) before any
view runs, ``app`` assembles the table into a Starlette app behind the security headers. Pages are rendered
on the server (``templates/``); the only script is ``static/wb.js`` (keyboard and text selection), served
from the app itself.

This package sits beside the CLI: it uses ``api``, ``inputs``, ``organizer``, ``argue`` and ``formats``;
nothing below it imports it.
"""
