"""Authoring source for the six sample runs and the sample assessor's annotations of every sentence.

Each sentence is written together with what a careful assessor recorded about it, so text, citations and
judgments cannot drift apart. ``build_track.py`` writes the runs (``runs/sample/<run>.jsonl``) and the
annotations (``tools/sample_track/annotations.jsonl``); ``make_judgments.py`` turns the annotations into
canonical judgments.

``C(text, cites, states, supported, note)``: a cited sentence. ``states`` lists the nugget answers the
sentence gives: ``"n3"`` means every answer of nugget 3 (its answers are phrasings of one fact, or an AND
nugget whose parts are all given), ``("n3", "answer text")`` one answer. ``supported`` lists the cited
documents that support the sentence (default: all of them); ``note`` says why a citation fails and becomes
the rationale of the negative ``attested`` judgments.

``U(text, ...)``: a sentence without citations. ``negative``: it asserts that something is absent or not
the case; ``agrees``: the negative nuggets that record that absence; ``requires``: it makes a claim that
needs a citation (introductions, restatements of the request and summaries of cited sentences do not);
``first``: no earlier sentence of the report made the same claim.

Assessment rules applied throughout: a document attests a sentence when it supports every claim in it (a
document that supports only part of a sentence, or contradicts a detail, does not); a sentence states an
answer when a reader gets the answer from the sentence itself, without arithmetic on figures it gives
(``from 3.75% to 3.50%`` does not state the size of the cut).
"""
from __future__ import annotations

from typing import Any

Sentence = dict[str, Any]


def C(
    text: str,
    cites: list[str] | dict[str, float],
    states: list[Any] | None = None,
    supported: list[str] | None = None,
    note: str | None = None,
) -> Sentence:
    """A sentence with citations (a dict of ``doc_id: score`` for the RAGTIME-shaped run)."""
    doc_ids = list(cites)
    return {
        "text": text,
        "citations": doc_ids,
        "scores": list(cites.values()) if isinstance(cites, dict) else None,
        "states": list(states or []),
        "supported": list(dict.fromkeys(doc_ids)) if supported is None else list(supported),
        "note": note,
    }


def U(
    text: str,
    *,
    states: list[Any] | None = None,
    negative: bool = False,
    agrees: list[str] | None = None,
    requires: bool = True,
    first: bool = True,
) -> Sentence:
    """A sentence without citations."""
    return {
        "text": text,
        "citations": [],
        "scores": None,
        "states": list(states or []),
        "negative": negative,
        "agrees": list(agrees or []),
        "requires": requires,
        "first": first,
    }


# How each run is written out: the NeuCLIR 2024 / canonical shape (optionally with references and
# metadata) or the RAGTIME shape (metadata + responses with {doc_id: score} citations + references).
RUNS: dict[str, dict[str, Any]] = {
    "careful": {"shape": "argue"},
    "hallucinating": {
        "shape": "argue",
        "metadata": {"team_id": "sample-team", "system": "fluent generator without grounding checks"},
    },
    "wrong-cites": {"shape": "ragtime", "team_id": "sample-team"},
    "no-citations": {"shape": "argue"},
    "too-long": {"shape": "argue", "references": True},
    "misses-topics": {"shape": "argue"},
}

REPORTS: dict[str, dict[str, list[Sentence]]] = {}

# ====================================================================================================== careful
# Accurate and concise; every claim cited to a document that supports it; covers nearly every nugget;
# states the absences the collection records as uncited negative assertions.
REPORTS["careful"] = {
    "s01": [
        C("In early March 2025 the town of Ridgefield was placed under a boil-water notice after E. coli was "
          "found in its tap water.", ["nw-0001"], ["n1"]),
        C("The bacteria entered the supply after floodwater from the Aske River reached the chlorine dosing room "
          "of the Lynde Road treatment plant and disabled both chlorination pumps, so water went out undisinfected "
          "for about 30 hours.", ["nw-0002"], ["n2"]),
        C("The Department of Health said 37 people were admitted to hospital, most of them young children or "
          "people over 70, and no deaths were reported.", ["nw-0004"], ["n3"]),
        C("The Drinking Water Inspectorate and the Department of Health opened a joint investigation into the "
          "plant's design and whether earlier warnings were ignored.", ["nw-0006"], ["n4"]),
        C("A 2022 inspection had recommended that the dosing room be raised or protected against flooding.",
          ["nw-0006"], ["n6"]),
        C("The notice was lifted on 12 March 2025 after three consecutive days of clean samples, by which time "
          "all but two of the patients admitted to hospital had been discharged.", ["nw-0008"], ["n5"]),
        U("None of the reports reviewed gives a cost for the repairs to the plant.",
          negative=True, agrees=["n7"], requires=False),
    ],
    "s02": [
        U("This report summarises the 2025 wildfire season in Dunmore County and its largest fire, on Harrow "
          "Ridge.", requires=False),
        C("By 17 July about 6,200 residents of Kellby and the village of Marsh End had been evacuated as the "
          "Harrow Ridge fire spread.", ["nw-0015"], ["n3"]),
        C("Investigators from the Dunmore Fire Service later concluded that the fire was started by sparks from a "
          "faulty Northgrid power line, ruling out the lightning first suspected.", ["nw-0019"], ["n2"]),
        C("Northgrid said it did not accept all of the report's findings but would cooperate with the "
          "investigation.", ["nw-0020"]),
        C("The fire was contained on 2 August after burning 21,000 hectares and destroying 112 homes, most of "
          "them in Marsh End.", ["nw-0017"], ["n1", "n4", "n6"]),
        C("Across the season, wildfires burned 38,500 hectares of the county, the largest area since records "
          "began in 1998.", ["nw-0021"], ["n5"]),
        C("No one was killed, although two firefighters were treated for burns.", ["nw-0017", "nw-0018"]),
    ],
    "s03": [
        C("About 2,300 dockworkers at the Port of Almer went on strike on 9 June 2025 after talks with employers "
          "broke down.", ["nw-0027"], ["n1"]),
        # The same document cited twice in one sentence (a generator artefact real runs show).
        C("The Dock and Harbour Workers' Union demanded a 9% pay rise and limits on automated cranes at the new "
          "Kestrel container terminal, while employers offered 4%.", ["nw-0027", "nw-0027"], ["n2"]),
        C("By 21 June the number of ships waiting to unload off Almer had peaked at 64, according to the Port of "
          "Almer Authority.", ["nw-0031"], ["n4"]),
        C("The National Conciliation Service was brought in to mediate, with talks starting on 19 June.",
          ["nw-0030"], ["n5"]),
        C("The strike ended after 16 days with a deal giving a 6.5% pay rise over two years and no compulsory "
          "redundancies from automation at the Kestrel terminal until 2030.", ["nw-0033"], ["n3"]),
        C("The port authority warned that clearing the backlog could take about a month.", ["nw-0035"]),
        U("The reports do not say whether union members ratified the deal in a vote.",
          negative=True, agrees=["n6"], requires=False),
    ],
    "s04": [
        C("Norhaven began offering a free RSV vaccine on 1 September 2025 to adults aged 75 and over and to care "
          "home residents.", ["nw-0041"], ["n1", "n2"]),
        C("About 480,000 people are eligible, and the Ministry of Health ordered 500,000 doses from Arvelle "
          "Pharma.", ["nw-0040"]),
        C("The vaccine is given at GP practices and pharmacies.", ["nw-0040"], ["n4"]),
        C("By 31 October, 61% of those eligible, about 293,000 people, had been vaccinated.", ["nw-0045"], ["n3"]),
        C("Uptake was lowest in Vasse, at 44%, where long distances to GP practices were blamed and mobile "
          "clinics are planned.", ["nw-0046"], ["n5"]),
        C("The Norhaven Medicines Agency is reviewing three reports of Guillain-Barre syndrome but says most side "
          "effects are mild.", ["nw-0047"]),
        U("It is too early to know how many hospital admissions the programme has prevented.",
          negative=True, agrees=["n6"], requires=False),
    ],
    "s05": [
        C("The central span of the Aldbrook Bridge over the Kessel River collapsed at about 07:40 on 22 January "
          "2025, sending two cars and a van into the water.", ["nw-0053"], ["n1"]),
        C("One driver was killed and four other people were injured.", ["nw-0054"], ["n2"]),
        C("A public inquiry chaired by the retired judge Hanne Sorvik opened on 3 March.", ["nw-0057"]),
        C("Its interim report, published on 15 October 2025, found that a corroded gusset plate at one of the "
          "central joints had failed.", ["nw-0059"], ["n3", "n6"]),
        C("An inspection in 2019 had rated the bridge's condition as poor and recommended repairs, but they were "
          "deferred for budget reasons.", ["nw-0059"], ["n4"]),
        C("The report criticised both Kessel City Council, which owns the bridge, and the National Roads Agency, "
          "which failed to follow up on the inspection.", ["nw-0059"], ["n5"]),
        C("A temporary bridge opened to traffic on 16 June 2025.", ["nw-0058"]),
    ],
    "s06": [
        C("On 18 September 2025 the Bank of Norhaven cut its policy rate by 0.25 percentage points to 3.50%.",
          ["nw-0066"], ["n1", "n2"]),
        C("The monetary policy committee voted 5-2, with two members preferring to hold the rate.",
          ["nw-0066"], ["n4"]),
        C("The bank pointed to falling inflation, which dropped to 2.3% in August against a 2% target.",
          ["nw-0066"], [("n3", "inflation fell to 2.3%")]),
        C("Governor Elin Haugaard said further cuts were possible if inflation kept falling, but that the "
          "committee had no pre-set course.", ["nw-0069"], ["n5"]),
        C("She also noted that the economy had shrunk by 0.1% in the second quarter.", ["nw-0069"],
          [("n3", "the economy shrank")]),
        C("The crown fell 0.6% against the US dollar after the announcement.", ["nw-0070"], ["n6"]),
        C("Almer Savings Bank cut its variable mortgage rates by the same amount the next day.", ["nw-0072"]),
    ],
    "s07": [
        C("A marine heatwave in early 2025 pushed sea temperatures on Tamsin Reef up to 1.8 degrees Celsius above "
          "average.", ["nw-0079"], ["n1"]),
        C("An aerial survey by the Norhaven Institute of Marine Science in March found that 64% of the reef's "
          "coral cover was bleached.", ["nw-0080"], ["n2", "n5"]),
        C("It was the third mass bleaching on the reef since 2016, after events in 2016 and 2020.", ["nw-0080"],
          ["n4"]),
        C("Follow-up dives in July found that 22% of the coral had died, with the worst losses on shallow northern "
          "reefs.", ["nw-0083"], ["n3"]),
        C("The government pledged 40 million crowns for coral nurseries and water-quality work on the reef.",
          ["nw-0084"]),
        C("Scientists warn that the reef needs 10 to 15 years to recover between events.", ["nw-0086"]),
        U("The sources reviewed contain no data on how the bleaching has affected fish populations.",
          negative=True, agrees=["n6"], requires=False),
    ],
    "s08": [
        C("In the Millbrook mayoral election of 4 May 2025, the first count put challenger Arvid Lund 38 votes "
          "ahead of Mayor Dora Pettersen.", ["nw-0092"], ["n2"]),
        C("Pettersen requested a recount, which the Municipal Election Board carried out by hand from 12 May.",
          ["nw-0094"], ["n4"]),
        C("The recount confirmed Lund as the winner with a margin of 29 votes, after nine misfiled ballots were "
          "found in the Eastgate district.", ["nw-0096"], ["n1", "n3"]),
        C("The board's chair said the errors were clerical and that there was no sign of fraud.", ["nw-0096"]),
        C("Pettersen conceded on 15 May and congratulated Lund.", ["nw-0098"], ["n5"]),
        C("Lund was sworn in as mayor on 2 June.", ["nw-0099"], ["n1"]),
    ],
}

# ================================================================================================ hallucinating
# Fluent and confident; cites real, on-topic documents, but most claims are invented or contradict the
# cited document. About one sentence in three is right.
REPORTS["hallucinating"] = {
    "s01": [
        C("Ridgefield's water crisis began on 3 March 2025, when E. coli was detected in the town's supply.",
          ["nw-0001"], ["n1"]),
        C("The contamination was traced to a cracked sewer pipe that leaked into the Lynde Road reservoir.",
          ["nw-0002"], supported=[],
          note="nw-0002 blames floodwater in the chlorine dosing room; it mentions no sewer pipe or reservoir"),
        C("More than 120 people were hospitalised and three elderly residents died.", ["nw-0004"], supported=[],
          note="nw-0004 reports 37 admissions and no deaths"),
        C("The Drinking Water Inspectorate has fined the Ridgefield Water Authority 2 million crowns.",
          ["nw-0007"], supported=[], note="nw-0007 reports an investigation, not a fine"),
        C("Repairs to the plant are expected to cost 1.2 million crowns.", ["nw-0011"], supported=[],
          note="nw-0011 gives the cost of the library's roof repairs"),
        C("The boil-water notice was lifted on 12 March after nine days.", ["nw-0008"], ["n5"]),
    ],
    "s02": [
        U("This report describes the 2025 wildfire season in Dunmore County, as requested.", requires=False),
        C("The Harrow Ridge fire was started by a lightning strike on 14 July, according to the final fire "
          "service report.", ["nw-0019"], supported=[],
          note="nw-0019 rules out lightning and blames a faulty power line"),
        C("It forced 15,000 people from their homes in Kellby and Marsh End.", ["nw-0015"], supported=[],
          note="nw-0015 gives 6,200 evacuated"),
        C("The blaze burned 21,000 hectares before it was contained on 2 August.", ["nw-0017"], ["n1", "n6"]),
        C("Three firefighters lost their lives battling the flames near Marsh End.", ["nw-0018"], supported=[],
          note="nw-0018: no deaths; two firefighters suffered burns"),
        C("Northgrid has agreed to pay 300 million crowns in compensation to residents.", ["nw-0020"],
          supported=[], note="nw-0020: Northgrid disputes the report; residents are only preparing a claim"),
    ],
    "s03": [
        C("Dockworkers at the Port of Almer began a strike on 9 June 2025.", ["nw-0027"], ["n1"]),
        C("The union wanted a 15% pay rise and a four-day working week.", ["nw-0027"], supported=[],
          note="nw-0027: a 9% pay rise and limits on automation"),
        C("The stoppage cost the national economy 2 billion crowns a day, the finance ministry estimated.",
          ["nw-0029"], supported=[],
          note="nw-0029: the Chamber of Commerce estimated about 70 million crowns a day"),
        C("Police arrested 40 pickets during clashes at the Kestrel terminal gates.", ["nw-0031"], supported=[],
          note="nw-0031 mentions no arrests or clashes"),
        C("The strike ended with a 6.5% pay rise over two years, brokered by the National Conciliation Service.",
          ["nw-0033"], [("n3", "a 6.5% pay rise over two years"), "n5"]),
        C("Union members overwhelmingly approved the deal in a ballot, with 92% voting in favour.", ["nw-0034"],
          supported=[], note="nw-0034 mentions no ballot"),
    ],
    "s04": [
        C("Norhaven started vaccinating adults aged 75 and over against RSV on 1 September 2025.", ["nw-0041"],
          ["n1", "n2"]),
        C("The vaccine, made by Arvelle Pharma, prevents 95% of RSV hospital admissions in older people.",
          ["nw-0040"], supported=[], note="nw-0040 gives no efficacy figure"),
        C("By the end of October, 85% of eligible people had received a dose.", ["nw-0045"], supported=[],
          note="nw-0045: 61%"),
        C("Uptake was lowest in Vasse, where only 44% were vaccinated.", ["nw-0046"], ["n5"]),
        C("Health officials say the programme has already prevented about 4,000 hospital admissions.",
          ["nw-0048"], supported=[], note="nw-0048 says it is too early to say"),
        C("Three people died after vaccination, prompting a pause in the rollout in October.", ["nw-0047"],
          supported=[], note="nw-0047: three reports of Guillain-Barre syndrome under review; no deaths, no pause"),
    ],
    "s05": [
        C("The Aldbrook Bridge collapsed on 22 January 2025 during the morning rush hour.", ["nw-0053"], ["n1"]),
        C("Twelve people were killed when a bus plunged into the Kessel River.", ["nw-0054"], supported=[],
          note="nw-0054: one driver killed and four injured; two cars and a van fell"),
        C("The interim report blamed an overloaded lorry for the collapse.", ["nw-0059"], supported=[],
          note="nw-0059: a corroded gusset plate"),
        C("The bridge had passed its most recent inspection with a rating of good.", ["nw-0056"], supported=[],
          note="nw-0056: the 2019 inspection rated it poor"),
        C("Kessel's mayor resigned the day after the interim report was published.", ["nw-0062"], supported=[],
          note="nw-0062 reports no resignation"),
        C("The interim report was published on 15 October 2025.", ["nw-0059"], ["n6"]),
    ],
    "s06": [
        C("The Bank of Norhaven cut its policy rate to 3.50% on 18 September 2025.", ["nw-0066"], ["n1"]),
        C("The decision was unanimous, with all seven committee members voting for the cut.", ["nw-0066"],
          supported=[], note="nw-0066: the vote was 5-2"),
        C("Inflation had risen to 4.1% in August, the highest in a decade.", ["nw-0071"], supported=[],
          note="nw-0071: inflation fell to 2.3%"),
        C("Governor Elin Haugaard promised two further cuts before the end of the year.", ["nw-0069"],
          supported=[], note="nw-0069: further cuts are possible, with no pre-set course"),
        C("The crown rose 2% against the US dollar on the news.", ["nw-0070"], supported=[],
          note="nw-0070: the crown fell 0.6%"),
        C("Almer Savings Bank passed the cut on to its mortgage customers.", ["nw-0072"]),
    ],
    "s07": [
        C("Tamsin Reef suffered mass bleaching in 2025 after a marine heatwave.", ["nw-0080"], ["n1"]),
        C("Surveys found that 91% of the reef's coral was bleached.", ["nw-0080"], supported=[],
          note="nw-0080: 64%"),
        C("This was the first mass bleaching event ever recorded on the reef.", ["nw-0081"], supported=[],
          note="nw-0081: the third since 2016"),
        C("Half of all coral on the reef has now died.", ["nw-0083"], supported=[], note="nw-0083: 22%"),
        C("Fish populations on the reef have fallen by 60% since the bleaching began.", ["nw-0085"],
          supported=[], note="nw-0085 says nothing about fish"),
        C("The Norhaven Institute of Marine Science carried out the surveys.", ["nw-0083"], ["n5"]),
    ],
    "s08": [
        C("Arvid Lund was confirmed as mayor of Millbrook after a recount.", ["nw-0096"], ["n1"]),
        C("The initial count gave Lund a lead of 38 votes.", ["nw-0092"], ["n2"]),
        C("After the recount his margin grew to 112 votes.", ["nw-0096"], supported=[],
          note="nw-0096: the margin narrowed to 29 votes"),
        C("Police are investigating allegations that ballots were destroyed at the Eastgate polling station.",
          ["nw-0100"], supported=[], note="nw-0100: the board found no evidence; no police investigation"),
        C("Pettersen has refused to concede and launched a court challenge.", ["nw-0098"], supported=[],
          note="nw-0098: she conceded on 15 May"),
        C("Turnout was a record 78%.", ["nw-0093"], supported=[], note="nw-0093: turnout was 54%"),
    ],
}

# ================================================================================================== wrong-cites
# True statements, but the citations point at the wrong documents: distractors, other stories, or on-topic
# documents that do not say what the sentence says. About one citation in eight lands on the right document.
REPORTS["wrong-cites"] = {
    "s01": [
        C("Ridgefield's 41,000 residents were told to boil their tap water after E. coli was found in samples "
          "from the Lynde Road plant.", {"nw-0013": 0.91}, ["n1"], supported=[],
          note="nw-0013 is about a lettuce recall"),
        C("Floodwater from the Aske River had disabled the plant's chlorination pumps.", {"nw-0012": 0.88},
          ["n2"], supported=[], note="nw-0012 is about water mains in Almer"),
        C("The Department of Health reported 37 hospital admissions.", {"nw-0005": 0.74}, ["n3"], supported=[],
          note="nw-0005 reports 45 treated and says the Department of Health has not confirmed it"),
        C("The Drinking Water Inspectorate and the Department of Health are investigating jointly.",
          {"nw-0011": 0.69}, ["n4"], supported=[], note="nw-0011 is about the library roof"),
        C("The notice was lifted on 12 March.", {"nw-0008": 0.95}, ["n5"]),
    ],
    "s02": [
        C("The Harrow Ridge fire in Dunmore County started on 14 July 2025.", {"nw-0024": 0.9}, supported=[],
          note="nw-0024 is about a walking trail in 2024"),
        C("About 6,200 people were evacuated from Kellby and Marsh End.", {"nw-0022": 0.8}, ["n3"], supported=[],
          note="nw-0022 is about smoke over Almer"),
        C("Investigators blamed sparks from a faulty Northgrid power line.", {"nw-0025": 0.77}, ["n2"],
          supported=[], note="nw-0025 is about a kitchen fire"),
        C("The fire burned 21,000 hectares and destroyed 112 homes before it was contained on 2 August.",
          {"nw-0014": 0.7}, ["n1", "n4", "n6"], supported=[],
          note="nw-0014 is the first report (3,000 hectares, no containment)"),
        C("The season's total of 38,500 hectares was the highest since records began in 1998.",
          {"nw-0016": 0.66}, ["n5"], supported=[], note="nw-0016 is about the state of emergency"),
    ],
    "s03": [
        C("Some 2,300 dockworkers at the Port of Almer went on strike on 9 June 2025.", {"nw-0038": 0.9}, ["n1"],
          supported=[], note="nw-0038 is about ferry timetables"),
        C("They wanted a 9% pay rise and limits on automation at the Kestrel terminal.", {"nw-0036": 0.85},
          ["n2"], supported=[], note="nw-0036 describes the terminal's construction, not the union's demands"),
        C("At the peak, 64 ships were waiting off the port.", {"nw-0032": 0.8}, ["n4"], supported=[],
          note="nw-0032 counts 46 ships"),
        C("A deal brokered by the National Conciliation Service gave workers 6.5% over two years.",
          {"nw-0037": 0.7}, [("n3", "a 6.5% pay rise over two years"), "n5"], supported=[],
          note="nw-0037 is about rail workers in Estmark"),
        # Two citations, only the first supports the sentence.
        C("Work resumed on 26 June.", {"nw-0033": 0.6, "nw-0039": 0.4}, supported=["nw-0033"],
          note="nw-0039 is about a museum exhibition"),
    ],
    "s04": [
        C("Free RSV vaccination for adults aged 75 and over began on 1 September 2025.", {"nw-0050": 0.88},
          ["n1", "n2"], supported=[], note="nw-0050 is about flu vaccination for health workers"),
        C("It is offered at GP practices and pharmacies.", {"nw-0051": 0.8}, ["n4"], supported=[],
          note="nw-0051 is about Arvelle Pharma's profits"),
        C("By 31 October, 61% of eligible adults had been vaccinated.", {"nw-0049": 0.75}, ["n3"], supported=[],
          note="nw-0049 is about RSV in young children"),
        C("Vasse had the lowest uptake, at 44%.", {"nw-0045": 0.7}, ["n5"]),
    ],
    "s05": [
        C("The Aldbrook Bridge in Kessel collapsed on 22 January 2025.", {"nw-0064": 0.9}, ["n1"], supported=[],
          note="nw-0064 is about a card game championship"),
        C("One person died and four were injured.", {"nw-0017": 0.8}, ["n2"], supported=[],
          note="nw-0017 is about the Harrow Ridge wildfire"),
        C("The inquiry's interim report blamed a corroded gusset plate.", {"nw-0065": 0.7}, ["n3"], supported=[],
          note="nw-0065 is about a pothole fund"),
        C("A 2019 inspection had rated the bridge as poor.", {"nw-0058": 0.6}, ["n4"], supported=[],
          note="nw-0058 is about the temporary bridge"),
        C("The report criticised Kessel City Council and the National Roads Agency.", {"nw-0053": 0.5}, ["n5"],
          supported=[], note="nw-0053 reports the collapse itself"),
    ],
    "s06": [
        C("The Bank of Norhaven cut its policy rate by a quarter point to 3.50% on 18 September 2025.",
          {"nw-0075": 0.92}, ["n1", "n2"], supported=[], note="nw-0075 is about the Bank of Estmark"),
        C("The committee vote was 5-2.", {"nw-0092": 0.8}, ["n4"], supported=[],
          note="nw-0092 is about the Millbrook mayoral election"),
        C("Inflation had fallen to 2.3% in August.", {"nw-0077": 0.7}, [("n3", "inflation fell to 2.3%")],
          supported=[], note="nw-0077 is about branch closures"),
        C("Governor Elin Haugaard said further cuts were possible.", {"nw-0078": 0.66}, ["n5"], supported=[],
          note="nw-0078 is about house prices"),
        C("The crown weakened by 0.6% against the US dollar.", {"nw-0070": 0.6}, ["n6"]),
    ],
    "s07": [
        C("A marine heatwave caused mass bleaching on Tamsin Reef in early 2025.", {"nw-0089": 0.9}, ["n1"],
          supported=[], note="nw-0089 is about a bleach spill at a swimming pool"),
        C("Surveys found 64% of the coral cover bleached.", {"nw-0082": 0.8}, ["n2"], supported=[],
          note="nw-0082 gives 46%"),
        C("By July, 22% of the coral had died.", {"nw-0090": 0.7}, ["n3"], supported=[],
          note="nw-0090 is about a marina"),
        C("It was the reef's third mass bleaching since 2016.", {"nw-0091": 0.6}, ["n4"], supported=[],
          note="nw-0091 is about a hot day in Almer"),
        C("The Norhaven Institute of Marine Science carried out the surveys.", {"nw-0088": 0.5}, ["n5"],
          supported=[], note="nw-0088 is about ferry fares"),
    ],
    "s08": [
        C("Arvid Lund won the Millbrook mayoral election after a recount.", {"nw-0102": 0.9}, ["n1"],
          supported=[], note="nw-0102 is about a recount in Estmark"),
        C("The first count gave him a 38-vote lead.", {"nw-0095": 0.8}, ["n2"], supported=[],
          note="nw-0095 gives an 83-vote margin"),
        C("The recount cut his margin to 29 votes.", {"nw-0104": 0.7}, ["n3"], supported=[],
          note="nw-0104 is about a bird count"),
        C("The Municipal Election Board conducted the recount by hand.", {"nw-0101": 0.6}, ["n4"], supported=[],
          note="nw-0101 is about a school board election"),
        C("Dora Pettersen conceded on 15 May.", {"nw-0098": 0.5}, ["n5"]),
    ],
}

# ================================================================================================= no-citations
# Decent content with no citations at all: introductions, claims that needed a citation, a repeated claim,
# and negative assertions (some recorded by a negative nugget, some not, and some false).
REPORTS["no-citations"] = {
    "s01": [
        U("Here is a report on the Ridgefield water contamination.", requires=False),
        U("In March 2025 E. coli was found in Ridgefield's tap water, and residents were told to boil it.",
          states=["n1"]),
        U("Flooding at the Lynde Road plant had knocked out its chlorination pumps.", states=["n2"]),
        U("Thirty-seven people were taken to hospital.", states=["n3"]),
        U("No cost has been published for the repairs to the plant.", negative=True, agrees=["n7"],
          requires=False),
        U("The notice was lifted on 12 March.", states=["n5"]),
    ],
    "s02": [
        U("The 2025 fire season in Dunmore County was the worst on record."),
        U("The largest fire, on Harrow Ridge, burned about 21,000 hectares and forced some 6,200 people to "
          "evacuate.", states=["n1", "n3"]),
        U("It was caused by a faulty power line.", states=["n2"]),
        # A false negative assertion (112 homes were destroyed); no negative nugget records it.
        U("No homes were lost in the fire.", negative=True),
        U("In short, 2025 was Dunmore's worst fire season on record.", first=False),
    ],
    "s03": [
        U("Dockworkers at the Port of Almer went on strike on 9 June 2025 over pay and automation.",
          states=["n1"]),
        U("The union wanted a 9% rise and limits on automated cranes.", states=["n2"]),
        U("The dispute was settled with a 6.5% pay rise over two years.",
          states=[("n3", "a 6.5% pay rise over two years")]),
        U("The reports do not say whether union members voted on the deal.", negative=True, agrees=["n6"],
          requires=False),
        U("The strike had no effect on shipping.", negative=True),
    ],
    "s04": [
        U("You asked for a report on the RSV vaccine rollout for older people in Norhaven.", requires=False),
        U("Adults aged 75 and over have been offered a free RSV vaccine since 1 September 2025.",
          states=["n1", "n2"]),
        U("About 61% of them had been vaccinated by the end of October.", states=["n3"]),
        U("Uptake was lowest in the Vasse region.", states=["n5"]),
        U("No serious side effects have been reported.", negative=True),
    ],
    "s05": [
        U("The Aldbrook Bridge in Kessel collapsed on 22 January 2025, killing one person and injuring four.",
          states=["n1", "n2"]),
        U("The public inquiry's interim report blamed a corroded gusset plate.", states=["n3"]),
        U("A 2019 inspection had already rated the bridge as poor.", states=["n4"]),
        U("The bridge collapsed in January 2025 with the loss of one life.", first=False),
        U("This summary covers the collapse and the inquiry's interim findings.", requires=False),
    ],
    "s06": [
        U("The Bank of Norhaven lowered its policy rate by 0.25 percentage points to 3.50% in September 2025.",
          states=["n1", "n2"]),
        U("The vote on the committee was 5-2.", states=["n4"]),
        U("Falling inflation was the main reason given."),
        U("The governor said more cuts could follow.", states=["n5"]),
    ],
    "s07": [
        U("Tamsin Reef bleached heavily in 2025 during a marine heatwave.", states=["n1"]),
        U("Around 64% of its coral cover was bleached and 22% of the coral later died.", states=["n2", "n3"]),
        U("There is no information in the reports about the effect on fish.", negative=True, agrees=["n6"],
          requires=False),
        U("It was the reef's third mass bleaching event since 2016.", states=["n4"]),
    ],
    "s08": [
        U("Arvid Lund won the Millbrook mayoral election of 4 May 2025 by 38 votes in the first count.",
          states=["n2"]),
        U("A recount by the Municipal Election Board confirmed his victory by 29 votes.",
          states=["n1", "n3", "n4"]),
        # A negative assertion the negative nugget records; it is also a claim a document could support.
        U("There was no evidence of fraud.", negative=True, agrees=["n6"]),
        U("Lund won the recount.", states=["n1"], first=False),
    ],
}

# ===================================================================================================== too-long
# The careful system with a verbose setting: good, well-cited content (several sentences identical to
# careful's), but long-winded and far over every length limit.
REPORTS["too-long"] = {
    "s01": [
        U("This report has been prepared for a reader who needs a thorough and careful account of what happened "
          "to the drinking water in the town of Ridgefield in March 2025, and it sets out in turn what went wrong "
          "at the treatment plant, how many people were affected and in what way, how the water authority and the "
          "national agencies responded, and which questions still remain open, drawing throughout on the news "
          "coverage that is available in the collection.", requires=False),
        C("In early March 2025 the town of Ridgefield was placed under a boil-water notice after E. coli was "
          "found in its tap water.", ["nw-0001"], ["n1"]),
        C("According to Tomas Breck, the chief executive of the Ridgefield Water Authority, floodwater from the "
          "Aske River poured into the chlorine dosing room of the Lynde Road treatment plant on 1 March and "
          "disabled both of the plant's chlorination pumps at once, because the backup pump had been installed in "
          "the same room as the main pump and the water therefore reached both of them.", ["nw-0002", "nw-0003"],
          ["n2"]),
        C("As a direct result of that failure, and for a period of roughly thirty hours, water left the plant and "
          "flowed into the town's distribution network without being disinfected at all, which is how the "
          "bacteria came to reach the homes of the 41,000 people who rely on the supply, until chlorination was "
          "finally restored on the evening of 2 March.", ["nw-0003"]),
        # Two citations, only the first supports the sentence.
        C("The Department of Health later confirmed that 37 people had been admitted to hospital with "
          "gastrointestinal illness, most of them young children or people over the age of 70, that laboratory "
          "tests had matched the E. coli found in 19 patient samples to the strain found in the town's water, and "
          "that around 400 people had visited their doctor with symptoms of stomach illness, although no deaths "
          "were reported.", ["nw-0004", "nw-0005"], ["n1", "n3"], supported=["nw-0004"],
          note="nw-0005 reports 45 treated and no laboratory results"),
        C("Two public bodies, the Drinking Water Inspectorate and the Department of Health, then opened a joint "
          "investigation into how the contamination could have happened, an investigation which is examining both "
          "the design of the Lynde Road treatment plant and the question of whether earlier warnings were "
          "ignored, and which is expected to report by the summer.", ["nw-0006"], ["n4"]),
        C("Those warnings appear to have been real, since an inspection report from 2022, which was seen by the "
          "national news agency, had recommended that the chlorine dosing room be raised or otherwise protected "
          "against flooding, a recommendation whose fate the joint investigation is now examining.", ["nw-0006"],
          ["n6"]),
        C("The boil-water notice was finally lifted on 12 March 2025, nine days after it was imposed, once "
          "samples from across the network had come back clean on three consecutive days, households were advised "
          "to run their cold taps for two minutes before using the water again, and the authority's chief "
          "executive apologised once more to residents.", ["nw-0008"], ["n5"]),
        C("The water authority's chief executive has since said that relocating the chlorination equipment is "
          "the top priority, but he declined to say what the work will cost or who will pay for it, saying only "
          "that the authority's board would discuss in April whether customers would face higher bills, while the "
          "town's restaurant association estimates that its members lost about a third of their normal takings "
          "during the nine-day notice.", ["nw-0009"]),
        U("In short, and to summarise the main points of this report, Ridgefield's water was contaminated with "
          "E. coli after flooding disabled the chlorination pumps at the Lynde Road plant, 37 people were admitted "
          "to hospital as a result, the boil-water notice lasted for nine days, and two national bodies are now "
          "investigating what went wrong.", states=["n1", "n2", "n3"], requires=False, first=False),
    ],
    "s02": [
        U("This report responds to the request for an account of the 2025 wildfire season in Dunmore County, and "
          "it describes in some detail the largest fire of the season, the evacuations that it made necessary, the "
          "damage that it did to homes and to land, what investigators later concluded about its cause, and how "
          "the season as a whole compares with the years that came before it.", requires=False),
        C("The largest fire of the season broke out on Harrow Ridge near the town of Kellby on the afternoon of "
          "14 July 2025 and had already burned around 3,000 hectares of forest and heathland by the following "
          "morning, when more than 300 firefighters supported by four helicopters were working to contain it in "
          "temperatures above 34 degrees, and fire officials said at the time that lightning from a dry "
          "thunderstorm was the most likely cause.", ["nw-0014"]),
        C("By 17 July the fire had grown to about 12,000 hectares, and some 6,200 residents of Kellby and the "
          "village of Marsh End had been evacuated, many of them to emergency shelters set up at the Dunmore "
          "showground, where volunteers served meals and vets cared for the animals that had been evacuated with "
          "their owners.", ["nw-0015"], ["n3"]),
        C("On 18 July the government declared a state of emergency in Dunmore County, and neighbouring Estmark "
          "sent two water-bombing aircraft to help the national crews who had by then been fighting the blaze "
          "for four days, while the interior minister said that the emergency powers would allow the army to help "
          "with logistics and road closures.", ["nw-0016"]),
        # Two citations, only the first supports the whole sentence.
        C("Although officials had initially suspected lightning, investigators from the Dunmore Fire Service "
          "concluded in a report published on 20 August that the fire had in fact been started by sparks from a "
          "faulty Northgrid power line, where a worn clamp had allowed a conductor to touch a steel crossarm and "
          "shower sparks onto the dry grass below, and lightning detection data showed no strikes within "
          "4 kilometres at the time.", ["nw-0019", "nw-0014"], ["n2"], supported=["nw-0019"],
          note="nw-0014 supports only the early suspicion of lightning, not the investigators' conclusion"),
        C("Northgrid said that it did not accept all of the findings of the fire service report and that it had "
          "inspected the line in April and found no fault, but that it would nonetheless cooperate with the "
          "investigation, while lawyers acting for residents of Marsh End said that they were preparing a claim "
          "against the company.", ["nw-0020"]),
        C("The fire was finally contained on 2 August 2025, having burned some 21,000 hectares and destroyed "
          "112 homes, most of them in Marsh End, while two firefighters were treated for burns and no one was "
          "killed.", ["nw-0017", "nw-0018"], ["n1", "n4", "n6"]),
        C("Across the whole season, wildfires burned 38,500 hectares of Dunmore County, the largest area since "
          "records began in 1998 and more than double the previous record, crews responded to 214 separate fires, "
          "and the fire service said that it would ask the government for two more helicopters before next "
          "summer.", ["nw-0021"], ["n5"]),
        C("Smoke from the Harrow Ridge fire also drifted over the capital, pushing air quality in Almer to very "
          "poor levels, prompting health advice for people with asthma and heart conditions, and forcing the "
          "postponement of several outdoor concerts.", ["nw-0022"]),
        U("Overall, and taking all of these reports together, the 2025 season in Dunmore was the worst on "
          "record, and the Harrow Ridge fire, which was started by a faulty power line, burned 21,000 hectares on "
          "its own and was by far the largest and most destructive blaze of the year.", states=["n1", "n2"],
          requires=False, first=False),
    ],
    "s03": [
        U("The following report examines the strike by dockworkers at the Port of Almer in June 2025, and for the "
          "benefit of clients who import goods through the port it covers when and why the strike began, what the "
          "workers demanded, how the stoppage affected shipping and the wider economy, how the dispute was "
          "mediated, and what the final agreement that ended it contains.", requires=False),
        C("About 2,300 dockworkers at the Port of Almer went on strike on 9 June 2025 after talks with employers "
          "broke down.", ["nw-0027"], ["n1"]),
        C("The Dock and Harbour Workers' Union was demanding a 9% pay rise as well as limits on automation at the "
          "new Kestrel container terminal, while the port employers had offered a rise of only 4%, which left a "
          "large gap between the two sides at the very start of the dispute.", ["nw-0027", "nw-0028"], ["n2"]),
        C("The walkout brought container handling to a standstill at a port that handles about 60% of Norhaven's "
          "imports by value, and as the strike entered its second week the Chamber of Commerce estimated that it "
          "was costing the economy around 70 million crowns a day and urged the government to intervene.",
          ["nw-0029"]),
        C("The number of ships waiting at anchor off Almer to unload peaked at 64 on 21 June, according to the "
          "Port of Almer Authority, by which time some shipping lines had diverted vessels to ports in Estmark, "
          "supermarkets were reporting shortages of some imported fruit, and a car maker had paused a production "
          "line for lack of parts.", ["nw-0031"], ["n4"]),
        C("The government asked the National Conciliation Service to mediate, both sides agreed, and talks began "
          "on 19 June, although the union said that limits on automation at the Kestrel terminal remained the "
          "main sticking point, while the employers said that they had room to improve their pay offer.",
          ["nw-0030"], ["n5", ("n2", "limits on automation at the Kestrel terminal")]),
        C("The strike ended after 16 days with a deal giving a 6.5% pay rise over two years and no compulsory "
          "redundancies from automation at the Kestrel terminal until 2030.", ["nw-0033"], ["n3"]),
        C("Union leader Rasmus Vik described the agreement as a fair result, the port employers' association said "
          "that the deal secured the future of the Kestrel project, and the dockworkers returned to work on "
          "26 June under the deal brokered by the National Conciliation Service.", ["nw-0033"], ["n5"]),
        C("Clearing the backlog of ships and containers built up during the strike, which had peaked at 64 "
          "waiting vessels, was expected to take about a month, according to the port authority, which extended "
          "working hours at the container berths and asked importers to collect their goods promptly.",
          ["nw-0035"], ["n4"]),
        U("To summarise, the strike, which began on 9 June 2025 and lasted sixteen days, was resolved through "
          "mediation by the National Conciliation Service with a deal worth 6.5% over two years, together with "
          "protection from compulsory redundancies at the automated Kestrel terminal.",
          states=["n1", "n3", "n5"], requires=False, first=False),
    ],
    "s04": [
        U("This report answers the request for an overview of Norhaven's rollout of the RSV vaccine for older "
          "adults, and it covers who is eligible, when and where the vaccine has been offered, how many people "
          "have taken it up so far, where uptake has lagged, and what is known about its safety.",
          requires=False),
        C("The Ministry of Health announced in June 2025 that from 1 September the RSV vaccine would be offered "
          "free of charge to all adults aged 75 and over and to residents of care homes, a group of about 480,000 "
          "people, and that it had ordered 500,000 doses from the manufacturer Arvelle Pharma.", ["nw-0040"],
          ["n1", "n2"]),
        C("Vaccination began as planned on 1 September 2025, with the first doses given at GP practices across "
          "the country, and a 91-year-old former teacher in Almer, who said she did not want to spend another "
          "winter in hospital, was among the first people to receive the vaccine.", ["nw-0041"],
          ["n2", ("n4", "GP practices")]),
        C("Pharmacies also offer the vaccine, and several pharmacy chains reported high demand in the first weeks "
          "of the programme, with some of them asking older customers to book appointments rather than walk in "
          "after queues formed in city centres.", ["nw-0043"], [("n4", "pharmacies")]),
        C("By 31 October, according to figures from the Norhaven Public Health Institute, 61% of the 480,000 "
          "eligible people, or about 293,000 people, had been vaccinated, with uptake highest in the capital, "
          "Almer, at 68%.", ["nw-0045"], ["n3"]),
        C("Uptake was lowest in the region of Vasse, at only 44%, where local doctors blamed the long distances "
          "to GP practices in the remote valleys and where the regional health board is planning mobile clinics "
          "to reach people in remote areas before Christmas.", ["nw-0046"], ["n5"]),
        C("The Norhaven Medicines Agency is reviewing three reports of Guillain-Barre syndrome, a rare nerve "
          "disorder, in people who had recently been vaccinated, but it says that most side effects have been "
          "mild, such as a sore arm or tiredness, and that the benefits continue to outweigh the risks.",
          ["nw-0047"]),
        C("The Norhaven Public Health Institute says that it is still too early to say how many hospital "
          "admissions the programme has prevented, because the RSV season usually peaks in December and January, "
          "and that it expects to publish a first estimate of the programme's effect next spring.", ["nw-0048"]),
        U("In summary, older adults in Norhaven have been offered a free RSV vaccine since 1 September 2025, and "
          "by the end of October about 61% of those eligible had received it, although uptake has varied a great "
          "deal between regions.", states=["n1", "n2", "n3"], requires=False, first=False),
    ],
    "s05": [
        U("This report reviews the collapse of the Aldbrook Bridge in the city of Kessel in January 2025 and the "
          "public inquiry that followed it, and for the purposes of an engineering case study it explains what "
          "happened on the day, who was hurt, what the inquiry's interim report found about the cause, what was "
          "known about the bridge's condition beforehand, and which public bodies were held responsible for the "
          "failure.", requires=False),
        C("The central span of the Aldbrook Bridge over the Kessel River collapsed at about 07:40 on 22 January "
          "2025, sending two cars and a van into the water.", ["nw-0053"], ["n1"]),
        # Two citations, only the first supports the sentence (the second gives another construction year).
        C("One driver, a 52-year-old man from Kessel, was killed and four other people were injured, and the "
          "steel truss bridge, which had been built in 1968, had been carrying around 18,000 vehicles a day before "
          "it failed, while divers recovered the last vehicle from the river overnight.", ["nw-0054", "nw-0056"],
          ["n2"], supported=["nw-0054"], note="nw-0056 says the bridge opened in 1966"),
        C("A public inquiry into the collapse, which killed one person, opened on 3 March 2025 under the "
          "chairmanship of the retired judge Hanne Sorvik, with a remit to "
          "establish why the bridge failed and whether the collapse could have been prevented, and it was expected "
          "to publish an interim report in the autumn.", ["nw-0057"]),
        C("In the meantime a temporary steel bridge, with one lane in each direction and a speed limit of "
          "30 km/h, opened to traffic on 16 June 2025, restoring a crossing that thousands of commuters had relied "
          "on before the collapse.", ["nw-0058"]),
        C("The inquiry's interim report, published on 15 October 2025, found that corrosion of a gusset plate had "
          "caused the bridge to collapse.", ["nw-0059", "nw-0060"], ["n3", "n6"]),
        C("The report also found, and this is perhaps its most important finding for a case study of this kind, "
          "that an inspection carried out in 2019 had rated the condition of the bridge as poor and had "
          "recommended repairs, but that those repairs were deferred for budget reasons and were never carried "
          "out before the collapse.", ["nw-0059"], ["n4"]),
        C("In its conclusions the interim report criticised both Kessel City Council, which owns the bridge and "
          "which deferred the repairs, and the National Roads Agency, which carried out the inspection but then "
          "failed to follow up on its own findings.", ["nw-0059"], ["n5"]),
        C("The National Roads Agency, which inspects about 2,000 bridges owned by local councils, said that it "
          "accepted the criticism made of it in the interim report and that it would review how it follows up on "
          "inspection findings, with new guidance to be issued to its inspectors early next year.", ["nw-0061"],
          [("n5", "the National Roads Agency")]),
        C("A day later Kessel City Council said that it had never been told that the bridge was unsafe to use, "
          "even though the interim report had criticised both the council and the agency, and council leader "
          "Per Nygaard promised that the council would study the report carefully.", ["nw-0062"], ["n5"]),
    ],
    "s06": [
        U("This report responds to the request for an account of the Bank of Norhaven's interest rate decision of "
          "September 2025, and because it is intended for clients who have variable-rate mortgages it explains in "
          "turn what the bank decided, how its committee voted, why it acted as it did, what it signalled about "
          "future decisions, and how the markets and the mortgage lenders responded to the news.",
          requires=False),
        C("On 18 September 2025 the Bank of Norhaven cut its policy rate by 0.25 percentage points to 3.50%.",
          ["nw-0066"], ["n1", "n2"]),
        C("The decision of the monetary policy committee was not unanimous: five members voted for the cut and "
          "two voted to keep the rate at 3.75%, and minutes published later showed that the two dissenters were "
          "worried about wage growth of 4.8%, while the majority argued that inflation was now close to target "
          "and that the economy needed support.", ["nw-0074"], ["n4"]),
        C("The bank's decision came after inflation had fallen to 2.3% in August from 2.9% in July, bringing it "
          "close to the central bank's target of 2%, with lower fuel prices driving most of the fall, and most "
          "economists had expected the bank to cut rates at its meeting the following week.", ["nw-0071"],
          [("n3", "inflation fell to 2.3%")]),
        C("Figures published in August had also shown that the economy shrank by 0.1% in the second quarter, the "
          "first contraction in two years, as weak exports and lower construction activity weighed on output.",
          ["nw-0073"], [("n3", "the economy shrank")]),
        C("At her press conference Governor Elin Haugaard said that further cuts were possible if inflation "
          "continued to fall, but stressed that the committee had no pre-set course and would decide meeting by "
          "meeting, and she also noted that unemployment had risen to 4.6%.", ["nw-0069"], ["n5"]),
        C("Markets reacted quickly: the crown fell 0.6% against the US dollar, as traders had expected it to "
          "weaken after the decision, government bond yields dropped after the announcement, and shares in "
          "housebuilders rose.", ["nw-0070"], ["n6"]),
        C("The next day Almer Savings Bank, one of the country's largest mortgage lenders, cut its variable "
          "mortgage rates by 0.25 percentage points, passing the full reduction on to its borrowers, and other "
          "lenders were expected to follow, although customers with fixed-rate mortgages will not see any change "
          "until their fixed period ends.", ["nw-0072"]),
        C("An estate agents' survey published in early October also found that average house prices in Almer had "
          "risen by 0.4% in September, with agents saying that buyers had been encouraged by lower mortgage "
          "rates.", ["nw-0078"]),
        U("Taken together, the decision marks a cautious easing of monetary policy, with the governor signalling "
          "that more cuts are possible but by no means guaranteed, and with lenders already passing the lower rate "
          "on to borrowers with variable-rate mortgages.", states=["n5"], requires=False, first=False),
    ],
    "s07": [
        U("The following report, written with a secondary-school geography class in mind, describes the 2025 "
          "coral bleaching event on Tamsin Reef, which lies off the Saltmarsh Islands, and it covers in turn the "
          "cause of the bleaching, its extent, the coral deaths that followed, its place in the reef's recent "
          "history, and the response of the government, of scientists and of the tourism industry.",
          requires=False),
        C("A marine heatwave in early 2025 pushed sea temperatures on Tamsin Reef up to 1.8 degrees Celsius above "
          "average.", ["nw-0079"], ["n1"]),
        C("Scientists explain that corals bleach when water stays too warm for too long, because the stressed "
          "corals expel the tiny algae that live in their tissues and give them both their colour and most of "
          "their food, and that bleached corals can recover if the water temperature falls quickly enough.",
          ["nw-0087"]),
        # Two citations, only the first supports the whole sentence.
        C("An aerial survey of 240 individual reefs carried out by the Norhaven Institute of Marine Science in "
          "March found that 64% of the coral cover on Tamsin Reef had bleached, making it the third mass "
          "bleaching event on the reef since 2016 after the events of 2016 and 2020, following a heatwave that had "
          "kept sea temperatures up to 1.8 degrees Celsius above average for about ten weeks.",
          ["nw-0080", "nw-0081"],
          ["n2", "n4", "n5"], supported=["nw-0080"],
          note="nw-0081 does not name the earlier events or give the temperatures"),
        C("Tourism operators on the Saltmarsh Islands said in April that they feared a slump in bookings, as "
          "diving and snorkelling trips to the reef make up a large share of the islands' income, some operators "
          "began offering discounts, and the islands' tourism office said it would promote walking and "
          "birdwatching holidays instead.", ["nw-0085"]),
        C("Follow-up underwater surveys by the same institute in July found that 22% of the coral had died, with "
          "the worst losses on the shallow northern reefs, where in some places most of the coral was dead, and "
          "the institute has planned further surveys for next year.", ["nw-0083"], ["n3", "n5"]),
        C("In response, the government pledged 40 million crowns for a reef resilience programme, including "
          "coral nurseries and work to improve water quality in the rivers that drain onto the reef, although "
          "environmental groups, while welcoming the money, said that cutting emissions mattered more.",
          ["nw-0084"]),
        C("Dr Sunniva Rask of the Norhaven Institute of Marine Science warned in July that bleaching events are "
          "now coming too close together, since the reef needs 10 to 15 years to recover fully between them, and "
          "she called for faster cuts in emissions.", ["nw-0086"]),
        U("A marine heatwave, in other words, caused the reef's third mass bleaching since 2016, about two thirds "
          "of its coral cover bleached, and 22% of its coral has since died, which is a serious loss both for the "
          "reef itself and for the islands whose income depends on it.", states=["n1", "n3", "n4"],
          requires=False, first=False),
        U("The reports reviewed do not say how the bleaching has affected the reef's fish.", negative=True,
          agrees=["n6"], requires=False),
    ],
    "s08": [
        U("This report covers the disputed mayoral election held in Millbrook in May 2025, and because it is "
          "meant to help first-time voters understand how a very close local election is resolved, it explains the "
          "result of the first count, why and how a recount was held, what the recount found, how the two "
          "candidates and the election board responded to the outcome, and what the whole episode shows about the "
          "safeguards built into the counting of votes.", requires=False),
        C("In the Millbrook mayoral election of 4 May 2025, the first count put challenger Arvid Lund 38 votes "
          "ahead of Mayor Dora Pettersen.", ["nw-0092"], ["n2"]),
        C("The first count gave Lund 11,482 votes against 11,444 for Pettersen, on a turnout of 54%, a margin "
          "that was well below the 0.5% threshold under which election law allows a candidate to request a "
          "recount, and at first neither candidate commented on the result.", ["nw-0093"]),
        C("Mayor Pettersen requested a recount on 6 May, saying that she wanted to be sure every vote had been "
          "counted correctly, while Lund said he was confident that the result would stand, and the Municipal "
          "Election Board announced that it would recount all of the ballots by hand starting on 12 May, a "
          "process it expected to take about three days.", ["nw-0094"], ["n4"]),
        C("The recount confirmed Lund as the winner with a margin of 29 votes, after nine misfiled ballots were "
          "found in the Eastgate district.", ["nw-0096"], ["n1", "n3"]),
        C("Ingrid Solheim, the chair of the Municipal Election Board, which had conducted the recount, said that "
          "the errors found during the recount were clerical mistakes and that there was no sign of fraud.",
          ["nw-0096", "nw-0097"], ["n4"]),
        C("Claims circulating on social media that ballots had been destroyed during the recount were also "
          "dismissed by the board, which said it had found no evidence to support them, and its chair added that "
          "all of the ballots had been kept in sealed boxes under police guard throughout the recount.",
          ["nw-0100"]),
        C("Pettersen conceded on 15 May and congratulated Lund, remarking that the voters had spoken, if only "
          "just, and she said that she would remain a member of the town council, while Lund thanked her for her "
          "years of service and said that he would meet council leaders the following week.", ["nw-0098"],
          ["n5"]),
        C("Lund, a 41-year-old former teacher who is the youngest mayor in the town's history, was sworn in as "
          "mayor on 2 June at a ceremony attended by around 200 people, including his predecessor, and he "
          "promised to start work on a new bus depot and to review parking charges in the town centre.",
          ["nw-0099"], ["n1"]),
        # New detail stated without a citation.
        U("The recount, which was completed on 14 May, took three days in all and confirmed Lund's victory, which "
          "shows how even a very close result can be settled quickly and openly."),
    ],
}

# ================================================================================================ misses-topics
# Good, concise and well cited, but the system returned nothing for three of the eight requests.
REPORTS["misses-topics"] = {
    "s01": [
        C("E. coli was detected in Ridgefield's water supply on 3 March 2025, and the town's 41,000 residents "
          "were told to boil their tap water.", ["nw-0001"], ["n1"]),
        C("Ridgefield Water Authority chief Tomas Breck said floodwater had disabled both chlorination pumps at "
          "the Lynde Road plant, where the backup pump sat in the same room as the main one.", ["nw-0003"],
          ["n2"]),
        # Two citations, only the first supports the sentence.
        C("Health officials counted 37 hospital admissions linked to the outbreak.", ["nw-0004", "nw-0005"],
          ["n3"], supported=["nw-0004"], note="nw-0005 reports 45 treated, a figure officials had not confirmed"),
        C("The Drinking Water Inspectorate has opened an investigation.", ["nw-0007"],
          [("n4", "the Drinking Water Inspectorate")]),
        C("The notice was lifted on 12 March after nine days.", ["nw-0008"], ["n5"]),
    ],
    "s02": [
        C("A fire that began on Harrow Ridge in Dunmore County on 14 July 2025 forced about 6,200 people to leave "
          "their homes.", ["nw-0016"], ["n3"]),
        C("Officials first blamed lightning, but the fire service's investigation found that a faulty power line "
          "had sparked the blaze.", ["nw-0019"], ["n2"]),
        C("The fire burned about 21,000 hectares and destroyed 112 homes before being contained on 2 August.",
          ["nw-0018"], ["n1", "n4", "n6"]),
        C("It was the largest of 214 fires that together burned 38,500 hectares, a county record.", ["nw-0021"],
          ["n5"]),
        C("Northgrid, which owns the line, disputes parts of the report.", ["nw-0020"]),
    ],
    "s04": [
        C("Since 1 September 2025, people aged 75 and over in Norhaven have been able to get a free RSV vaccine "
          "at their GP practice or a pharmacy.", ["nw-0041"], ["n1", "n2", "n4"]),
        C("Public health figures show that 61% of the roughly 480,000 eligible people had been vaccinated by "
          "31 October.", ["nw-0045"], ["n3"]),
        C("The northern region of Vasse lagged behind, with 44% uptake.", ["nw-0045", "nw-0046"], ["n5"]),
        C("Regulators are looking into three reports of Guillain-Barre syndrome after vaccination.", ["nw-0047"]),
    ],
    "s06": [
        C("The Bank of Norhaven lowered its policy rate from 3.75% to 3.50% on 18 September 2025.", ["nw-0067"],
          ["n1"]),
        C("Five committee members backed the cut and two voted to hold the rate.", ["nw-0074"], ["n4"]),
        C("Inflation had fallen to 2.3% in August, near the bank's 2% target.", ["nw-0071"],
          [("n3", "inflation fell to 2.3%")]),
        C("Governor Elin Haugaard said further cuts were possible but not guaranteed.", ["nw-0069"], ["n5"]),
        C("The crown lost 0.6% against the US dollar following the decision.", ["nw-0070"], ["n6"]),
    ],
    "s07": [
        C("Tamsin Reef went through mass bleaching in 2025 as a marine heatwave kept sea temperatures up to "
          "1.8 degrees Celsius above normal.", ["nw-0080"], ["n1"]),
        C("The Norhaven Institute of Marine Science found 64% of coral cover bleached in its March aerial "
          "survey.", ["nw-0081"], ["n2", "n5"]),
        C("By July, 22% of the reef's coral was dead.", ["nw-0083"], ["n3"]),
        C("Scientists say this was the third mass bleaching since 2016 and that the gaps between events are too "
          "short for recovery.", ["nw-0086"], ["n4"]),
        C("The government has pledged 40 million crowns for reef resilience work.", ["nw-0084"]),
    ],
}
