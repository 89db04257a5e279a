"""Authoring source for the sample requests and nuggets.

``REQUESTS`` become ``topics/sample/requests.jsonl`` and ``NUGGETS`` become ``nuggets/sample/nuggets.jsonl``
(``build_track.py`` writes both). A nugget is ``(number, importance, aggregator, question, answers)`` where
``answers`` maps each acceptable answer to the documents that attest it. The bindings were made by reading
every document written for the topic (``track_documents.py``): a document is bound to an answer only when it
states that answer itself, so an early or mistaken figure (nw-0005's 45 admissions, nw-0032's 46 ships) is
deliberately not bound. A nugget whose only answer is ``"no"`` with no documents is negative: it records
that the collection does not report something.
"""
from __future__ import annotations

COLLECTION_IDS = ["sample-news"]

REQUESTS: list[dict] = [
    {
        "request_id": "s01",
        "title": "Ridgefield drinking water contamination",
        "background": "I am a reporter for a regional newspaper preparing a follow-up piece for Ridgefield residents "
        "who want to know why their tap water became unsafe in March 2025 and whether the authorities acted "
        "properly.",
        "problem_statement": "Report on the contamination of Ridgefield's drinking water in March 2025: what "
        "contaminated the water and why, how many people fell ill, how long the boil-water notice lasted, and "
        "who is investigating.",
        "limit": 2000,
        "limit_unit": "chars",
        "aspects": [
            "contaminant and cause",
            "health impact",
            "boil-water notice and official response",
            "investigations and earlier warnings",
        ],
    },
    {
        "request_id": "s02",
        "title": "Dunmore County wildfire season 2025",
        "background": "I work for an association of insurers and am briefing members on the 2025 fire season in "
        "Dunmore County before they review premiums for the area.",
        "problem_statement": "Describe the 2025 wildfire season in Dunmore County, focusing on the Harrow Ridge "
        "fire: its cause, its size and duration, the evacuations and damage it caused, and how the season "
        "compares with earlier years.",
        "limit": 2000,
        "limit_unit": "chars",
        "aspects": [
            "cause of the Harrow Ridge fire",
            "size and duration of the fire",
            "evacuations and damage",
            "season totals and records",
        ],
    },
    {
        "request_id": "s03",
        "title": "Port of Almer dockworkers' strike",
        "background": "I am an analyst at a logistics firm whose clients import goods through the Port of Almer, "
        "and I need to explain the June 2025 disruption to them.",
        "problem_statement": "Report on the June 2025 strike at the Port of Almer: when and why it began, how it "
        "affected shipping, how the dispute was resolved and what the settlement contains.",
        "limit": 2000,
        "limit_unit": "chars",
        "aspects": [
            "start of the strike and the union's demands",
            "effect on shipping and the economy",
            "mediation and settlement terms",
        ],
    },
    {
        "request_id": "s04",
        "title": "RSV vaccine rollout for older adults",
        "background": "I am a policy adviser to a pensioners' association and need a short briefing for our "
        "members' newsletter.",
        "problem_statement": "Summarise Norhaven's 2025 RSV vaccination programme for older adults: who is "
        "eligible, when and where the vaccine is offered, how many people have been vaccinated, how uptake "
        "differs between regions, and any safety concerns.",
        "limit": 250,
        "limit_unit": "words",
        "aspects": [
            "eligibility and start date",
            "where the vaccine is given",
            "uptake and regional differences",
            "safety and effectiveness",
        ],
    },
    {
        "request_id": "s05",
        "title": "Aldbrook Bridge collapse inquiry",
        "background": "I am a civil engineering student writing a case study on infrastructure failures and the "
        "way public inquiries assign responsibility.",
        "problem_statement": "Report on the January 2025 collapse of the Aldbrook Bridge in Kessel and the "
        "findings of the public inquiry so far: what happened, what caused the collapse, whether there were "
        "earlier warnings, and who was held responsible.",
        "limit": 2000,
        "limit_unit": "chars",
        "aspects": [
            "the collapse and its casualties",
            "cause of the failure",
            "earlier warnings and inspections",
            "responsibility and the inquiry",
        ],
    },
    {
        "request_id": "s06",
        "title": "Bank of Norhaven September 2025 rate decision",
        "background": "I am a financial adviser explaining the decision to clients who have variable-rate "
        "mortgages.",
        "problem_statement": "Explain the Bank of Norhaven's September 2025 interest rate decision: what was "
        "decided, how the committee voted, the reasons given, what the bank signalled about future moves and how "
        "markets and lenders reacted.",
        "limit": 2000,
        "limit_unit": "chars",
        "aspects": [
            "the decision and the vote",
            "reasons for the decision",
            "guidance on future rates",
            "market and lender reaction",
        ],
    },
    {
        "request_id": "s07",
        "title": "Tamsin Reef coral bleaching 2025",
        "background": "I am a secondary-school geography teacher preparing material on coral reefs for my class.",
        "problem_statement": "Report on the 2025 coral bleaching on Tamsin Reef: what caused it, how much of the "
        "reef bleached and how much coral died, how it compares with earlier events, and how the government and "
        "others responded.",
        "limit": 2000,
        "limit_unit": "chars",
        "aspects": [
            "cause of the bleaching",
            "extent of bleaching and coral death",
            "history of bleaching events",
            "response and impact on people",
        ],
    },
    {
        "request_id": "s08",
        "title": "Millbrook mayoral election recount",
        "background": "I volunteer in civic education and want to explain to first-time voters how a very close "
        "local election was resolved.",
        "problem_statement": "Report on the 2025 Millbrook mayoral election and its recount: the result of the first "
        "count, who carried out the recount and how, the final result, how the candidates responded, and whether "
        "any wrongdoing was found.",
        "limit": 2000,
        "limit_unit": "chars",
        "aspects": [
            "first count result",
            "the recount process",
            "final result and concession",
            "allegations of wrongdoing",
        ],
    },
]

Answers = dict[str, list[str]]
NuggetSpec = tuple[int, str, str, str, Answers]

NUGGETS: dict[str, list[NuggetSpec]] = {
    "s01": [
        (1, "vital", "OR", "What contaminated Ridgefield's tap water in March 2025?",
         {"E. coli": ["nw-0001", "nw-0002", "nw-0003", "nw-0004", "nw-0006"]}),
        (2, "vital", "OR", "What caused the contamination?",
         {"flooding disabled the chlorination pumps": ["nw-0002", "nw-0003"]}),
        (3, "vital", "OR", "How many people were admitted to hospital?",
         {"37": ["nw-0004", "nw-0008", "nw-0010"]}),
        (4, "okay", "AND", "Which two bodies are jointly investigating the contamination?",
         {"the Drinking Water Inspectorate": ["nw-0006", "nw-0007", "nw-0010"],
          "the Department of Health": ["nw-0006", "nw-0010"]}),
        (5, "okay", "OR", "When was the boil-water notice lifted?",
         {"12 March 2025": ["nw-0008"], "12 March": ["nw-0008"]}),
        (6, "okay", "OR", "Had the flood risk at the treatment plant been flagged before the contamination?",
         {"a 2022 inspection recommended protecting the dosing room against flooding": ["nw-0006"]}),
        (7, "okay", "OR", "Does the collection report what the repairs to the Lynde Road plant will cost?",
         {"no": []}),
    ],
    "s02": [
        (1, "vital", "OR", "How large was the Harrow Ridge fire?",
         {"21,000 hectares": ["nw-0017", "nw-0018", "nw-0021"]}),
        (2, "vital", "OR", "What caused the Harrow Ridge fire?",
         {"a faulty power line": ["nw-0019", "nw-0020"]}),
        (3, "vital", "OR", "How many people were evacuated because of the fire?",
         {"6,200": ["nw-0015", "nw-0016"]}),
        (4, "okay", "OR", "How many homes did the fire destroy?",
         {"112": ["nw-0017", "nw-0018"]}),
        (5, "okay", "OR", "How much land burned in Dunmore County over the whole 2025 season?",
         {"38,500 hectares": ["nw-0021"]}),
        (6, "okay", "OR", "When was the Harrow Ridge fire contained?",
         {"2 August 2025": ["nw-0017", "nw-0018"]}),
    ],
    "s03": [
        (1, "vital", "OR", "When did the strike begin?",
         {"9 June 2025": ["nw-0027", "nw-0028", "nw-0029"]}),
        (2, "vital", "AND", "What were the union's two main demands?",
         {"a 9% pay rise": ["nw-0027", "nw-0028"],
          "limits on automation at the Kestrel terminal": ["nw-0027", "nw-0028", "nw-0030"]}),
        (3, "vital", "OR", "What does the settlement give the workers?",
         {"a 6.5% pay rise over two years": ["nw-0033", "nw-0034"],
          "no compulsory redundancies from automation until 2030": ["nw-0033"]}),
        (4, "okay", "OR", "How many ships were waiting off the port at the peak of the strike?",
         {"64": ["nw-0031", "nw-0035"]}),
        (5, "okay", "OR", "Who mediated the dispute?",
         {"the National Conciliation Service": ["nw-0030", "nw-0033", "nw-0034"]}),
        (6, "okay", "OR", "Does the collection report whether union members ratified the deal in a vote?",
         {"no": []}),
    ],
    "s04": [
        (1, "vital", "OR", "Who is eligible for the free RSV vaccine?",
         {"adults aged 75 and over": ["nw-0040", "nw-0041", "nw-0042", "nw-0043", "nw-0045"]}),
        (2, "vital", "OR", "When did the vaccination programme begin?",
         {"1 September 2025": ["nw-0040", "nw-0041", "nw-0042", "nw-0044"]}),
        (3, "vital", "OR", "What share of eligible people had been vaccinated by the end of October?",
         {"61%": ["nw-0045"]}),
        (4, "okay", "OR", "Where is the vaccine given?",
         {"GP practices": ["nw-0040", "nw-0041", "nw-0042", "nw-0044"],
          "pharmacies": ["nw-0040", "nw-0041", "nw-0042", "nw-0043"]}),
        (5, "okay", "OR", "Which region had the lowest uptake?",
         {"Vasse": ["nw-0045", "nw-0046"]}),
        (6, "okay", "OR", "Does the collection report how many hospital admissions the programme has prevented?",
         {"no": []}),
    ],
    "s05": [
        (1, "vital", "OR", "When did the Aldbrook Bridge collapse?",
         {"22 January 2025": ["nw-0053", "nw-0054", "nw-0055", "nw-0057"]}),
        (2, "okay", "OR", "What were the casualties of the collapse?",
         {"one person killed and four injured": ["nw-0054", "nw-0055"]}),
        (3, "vital", "OR", "What caused the collapse, according to the inquiry's interim report?",
         {"a corroded gusset plate": ["nw-0059", "nw-0060"]}),
        (4, "vital", "OR", "Had the bridge's poor condition been identified before the collapse?",
         {"a 2019 inspection rated it poor": ["nw-0056", "nw-0059", "nw-0060"]}),
        (5, "okay", "AND", "Which two bodies did the interim report criticise?",
         {"Kessel City Council": ["nw-0059", "nw-0060", "nw-0062"],
          "the National Roads Agency": ["nw-0059", "nw-0061", "nw-0062"]}),
        (6, "okay", "OR", "When was the interim report published?",
         {"15 October 2025": ["nw-0059", "nw-0060", "nw-0061"]}),
    ],
    "s06": [
        (1, "vital", "OR", "What is the Bank of Norhaven's new policy rate?",
         {"3.50%": ["nw-0066", "nw-0067", "nw-0068", "nw-0070", "nw-0072"]}),
        (2, "vital", "OR", "By how much was the rate cut?",
         {"0.25 percentage points": ["nw-0066", "nw-0067", "nw-0068", "nw-0072"]}),
        (3, "vital", "OR", "Why did the bank cut its rate?",
         {"inflation fell to 2.3%": ["nw-0066", "nw-0067", "nw-0071"],
          "the economy shrank": ["nw-0069", "nw-0073"]}),
        (4, "okay", "OR", "How did the monetary policy committee vote?",
         {"5-2": ["nw-0066", "nw-0067", "nw-0074"]}),
        (5, "okay", "OR", "What did the bank signal about future rate moves?",
         {"further cuts are possible": ["nw-0069"]}),
        (6, "okay", "OR", "How did the currency react to the decision?",
         {"the crown fell 0.6% against the US dollar": ["nw-0070"]}),
    ],
    "s07": [
        (1, "vital", "OR", "What caused the bleaching on Tamsin Reef?",
         {"a marine heatwave": ["nw-0079", "nw-0080", "nw-0081", "nw-0082", "nw-0087"]}),
        (2, "vital", "OR", "How much of the reef's coral cover was bleached?",
         {"64%": ["nw-0080", "nw-0081"]}),
        (3, "vital", "OR", "How much of the coral died?",
         {"22%": ["nw-0083", "nw-0084"]}),
        (4, "okay", "OR", "How many mass bleaching events has the reef had since 2016?",
         {"three": ["nw-0080", "nw-0081", "nw-0086"]}),
        (5, "okay", "OR", "Which institution surveyed the reef?",
         {"the Norhaven Institute of Marine Science": ["nw-0080", "nw-0081", "nw-0083"]}),
        (6, "okay", "OR", "Does the collection report how the bleaching affected fish populations?",
         {"no": []}),
    ],
    "s08": [
        (1, "vital", "OR", "Who won the mayoral election after the recount?",
         {"Arvid Lund": ["nw-0096", "nw-0097", "nw-0098", "nw-0099", "nw-0100"]}),
        (2, "vital", "OR", "What was the margin in the first count?",
         {"38 votes": ["nw-0092", "nw-0093", "nw-0094"]}),
        (3, "vital", "OR", "What was the final margin after the recount?",
         {"29 votes": ["nw-0096", "nw-0097", "nw-0098", "nw-0100"]}),
        (4, "okay", "OR", "Who carried out the recount?",
         {"the Municipal Election Board": ["nw-0094", "nw-0095", "nw-0096", "nw-0097"]}),
        (5, "okay", "OR", "How did Mayor Pettersen respond to the recount result?",
         {"she conceded": ["nw-0098"]}),
        (6, "okay", "OR", "Does the collection report any evidence of electoral fraud?",
         {"no": []}),
    ],
}
