"""The lexical judge's heuristics on hand-made hard cases (each value below was checked by hand).

Quality on real data is measured in bench/bench_judge_fidelity.py; these tests pin what each heuristic
must get right and the shape of its verdicts (value, confidence, rationale, provenance, "cannot judge").
"""
from __future__ import annotations

import pytest

from argue_eval.errors import InputError
from argue_eval.judges.base import Question, make_key
from argue_eval.judges.lexical import LexicalJudge, _subject_names
from argue_eval.judges.lexical_tokens import content, content_set, numbers, word_windows
from argue_eval.judges.registry import make_judge
from argue_eval.model import Answer, Document, Nugget, Request, normalize_text
from argue_eval.passages import PassageSplitter

REQUEST = Request(
    "r1",
    title="Japan suicide rate COVID-19",
    problem_statement="I need a report on suicide rates in Japan during the COVID-19 pandemic.",
    background="I am a researcher studying the impact of the coronavirus pandemic on suicide rates in Japan.",
)

DOC = Document(
    "d1",
    "The number of suicides in Japan in 2020 increased by 750 (3.7%) over 2019 to 20,919 (estimated). "
    "The number of male suicides decreased by 135 to 13,943, while the number of female suicides rose "
    "by 885 to 6,976. Experts blamed isolation during the COVID-19 pandemic and economic hardship.",
    "Suicide toll rises again in 2020, after 11 years",
)
UNRELATED = Document(
    "d2",
    "The city council approved a new budget for road repairs on Tuesday. The mayor said potholes on "
    "Main Street would be fixed by the end of the summer, and bus routes would change during the works.",
    "Council approves road budget",
)


def nugget(question: str, *answers: str, negative: bool = False) -> Nugget:
    return Nugget("n1", "r1", question, [Answer(a, ("d1",)) for a in answers], negative=negative)


def ask(kind: str, sentence: str, *, answer: str | None = None, nug: Nugget | None = None,
        document: Document | None = None, earlier: tuple[str, ...] = (), cited: tuple[Document, ...] = (),
        request: Request | None = REQUEST) -> Question:
    key = make_key(kind, "r1", normalize_text(sentence), document.doc_id if document else None,
                   nug.nugget_id if nug else None, answer, "run", len(earlier))
    return Question(key, sentence, request=request, nugget=nug, answer=answer, earlier_sentences=earlier,
                    document=document, cited_documents=cited)


JUDGE = LexicalJudge()


def verdict(question: Question):
    v = JUDGE.answer(question)
    assert v is not None
    assert v.judge == "lexical"
    assert 0.5 <= v.confidence <= 1.0
    assert v.rationale
    assert v.provenance == JUDGE.provenance()
    return v


# ---------------------------------------------------------------------------------------------- text
def test_text_folds_number_and_date_formats() -> None:
    assert numbers("about 20,919 people") == numbers("20919 persons") == {"20919"}
    assert content("rose 3.7%") == content("rose 3.7 percent") == content("rose 3.70 per cent") == ("rose", "3.7", "percent")
    assert content("in July of 2019") == content("July 2019") == content("Jul. 2019") == ("july", "2019")
    assert content("1.2 million deaths") == ("1200000", "death")
    # a number spelled in parts, as machine translation writes it; but two numbers stay two
    assert numbers("13 thousand and 400 complaints") == numbers("13,400 lawsuits") == {"13400"}
    assert numbers("3 million and 2 more") == {"3000000", "2"}
    assert content("three women died") == ("3", "women", "death")
    # "may" is a month only next to a number; otherwise a function word
    assert content("It may rise in May 2021") == ("rise", "may", "2021")
    # token order and case do not matter for the sets the judge compares
    assert set(content("Female suicides increased")) == set(content("increase in suicides among women"))
    # a day before a year is two numbers, not one number with a space as thousands separator
    assert content("on July 23 2019") == ("july", "23", "2019")
    # a name with a number is a name: "COVID-19" never matches the figure 19
    assert numbers("COVID-19 cases rose by 19") == {"19"}


def test_word_windows_are_the_passage_windows() -> None:
    text = " ".join(f"w{i}" for i in range(10)) + " rose 3.7% in July of 2019"  # 16 words
    windows = word_windows(text, 8, 4)
    passages = PassageSplitter(8, 4).split(text)
    assert len(windows) == len(passages) == 3  # starts 0, 4, 8
    assert [w for w, _ in windows] == [content_set(p) for p in passages]
    assert windows[-1][1] == {"3.7", "2019"}


# ---------------------------------------------------------------------------------------------- answers
QUESTION = "How many people died by suicide in Japan in 2020?"


RISE = "By how much did suicides in Japan rise in 2020?"
LIFTED = "When was the notice lifted?"
BODIES = "Which two bodies are investigating the contamination?"
CONTAINED = "When was the fire contained?"
BLEACHINGS = "How many mass bleachings has the reef suffered since 2016?"
CAUSE = "Which group drove the increase in suicides in 2020?"


@pytest.mark.parametrize(("sentence", "question", "answer", "expected"), [
    # number formats: 20,919 = 20919, token order and extra words do not matter
    ("Japan recorded 20919 suicide deaths in 2020.", QUESTION, "20,919", True),
    # the same figure written as words and a scale
    ("About 1.2 million people were affected.", "How many people were affected?", "1,200,000 people", True),
    # percent spelled out
    ("Suicides rose by 3.7 percent in 2020.", RISE, "3.7%", True),
    # a date inside a longer phrase
    ("The notice was lifted in July of 2019 after tests.", LIFTED, "July 2019", True),
    # a year beside a matched day is accessory ...
    ("The fire was contained on 2 August after burning 21,000 hectares.", CONTAINED, "2 August 2025", True),
    # ... but a year alone is the figure itself
    ("The fire was contained in 2024.", CONTAINED, "2025", False),
    # an ordinal is its number
    ("It was the reef's third mass bleaching since 2016.", BLEACHINGS, "3", True),
    # wrong number: every word matches but the figure is another one
    ("Japan recorded 21,919 suicide deaths in 2020.", QUESTION, "20,919", False),
    # partial answer: one of the two bodies of a two-part answer
    ("The Drinking Water Inspectorate opened an inquiry into the contamination.", BODIES,
     "the Drinking Water Inspectorate and the Department of Health", False),
    # paraphrase with the answer's words inflected differently
    ("Female suicides increased sharply in 2020.", CAUSE, "an increase in suicides among women", True),
    # unrelated sentence
    ("The council approved a budget for road repairs.", QUESTION, "20,919", False),
])
def test_answers(sentence: str, question: str, answer: str, expected: bool) -> None:
    v = verdict(ask("answers", sentence, answer=answer, nug=nugget(question, answer), document=DOC))
    assert v.value is expected, v.rationale


def test_answers_wrong_number_is_a_confident_no_and_says_why() -> None:
    v = verdict(ask("answers", "Japan recorded 21,919 suicide deaths in 2020.", answer="20,919",
                    nug=nugget(QUESTION, "20,919"), document=DOC))
    assert v.value is False
    assert v.confidence >= 0.75
    assert "20919 not in sentence" in v.rationale


def test_short_answer_counts_more_in_the_context_of_its_question() -> None:
    gender = nugget("Which gender contributed most to the increase in suicides in Japan in 2020?", "Women")
    on_topic = JUDGE.answer(ask("answers", "The increase in suicides in Japan in 2020 was driven by women.",
                                answer="Women", nug=gender, document=DOC))
    off_topic = JUDGE.answer(ask("answers", "Women made up most of the nursing staff.", answer="Women",
                                 nug=gender, document=DOC))
    assert on_topic.value is True and off_topic.value is True  # the answer is given either way ...
    assert on_topic.confidence > off_topic.confidence  # ... but surer in the question's context


# ---------------------------------------------------------------------------------------------- attested
def test_attested_by_the_cited_document() -> None:
    v = verdict(ask("attested", "Male suicides in Japan fell to 13,943 in 2020 while female suicides rose to 6,976.",
                    document=DOC))
    assert v.value is True


def test_not_attested_by_an_unrelated_document() -> None:
    v = verdict(ask("attested", "Male suicides in Japan fell to 13,943 in 2020.", document=UNRELATED))
    assert v.value is False
    assert v.confidence >= 0.8


def test_not_attested_when_the_figure_is_not_in_the_document() -> None:
    v = verdict(ask("attested", "The number of suicides in Japan in 2020 increased to 24,500.", document=DOC))
    assert v.value is False
    assert "24500 not in document" in v.rationale


def test_attested_cannot_be_judged_without_the_document() -> None:
    assert JUDGE.answer(ask("attested", "Suicides rose in 2020.", document=None)) is None
    # an empty document attests nothing; a sentence without content words is a least-confident yes
    empty = verdict(ask("attested", "Suicides rose in 2020.", document=Document("d3", "", "")))
    assert empty.value is False and empty.rationale == "cited document is empty"
    hollow = verdict(ask("attested", "And so on, as it were.", document=DOC))
    assert hollow.value is True and hollow.confidence == 0.5


def test_answers_cannot_be_judged_without_an_answer() -> None:
    assert JUDGE.answer(ask("answers", "Suicides rose.", answer=None, nug=nugget(QUESTION), document=DOC)) is None
    assert JUDGE.answer(ask("answers", "Suicides rose.", answer="  ", nug=nugget(QUESTION), document=DOC)) is None


# ---------------------------------------------------------------------------------------------- relevant
def test_relevant_by_overlap_with_the_request() -> None:
    assert verdict(ask("relevant", "Suicides rose.", document=DOC)).value is True
    assert verdict(ask("relevant", "Suicides rose.", document=UNRELATED)).value is False
    assert JUDGE.answer(ask("relevant", "Suicides rose.", document=None)) is None


# ---------------------------------------------------------------------------------------------- negative
@pytest.mark.parametrize(("sentence", "expected"), [
    ("The sources do not report how many children died.", True),
    ("No information was found on the number of hospital admissions.", True),
    ("Officials didn't say when the notice would be lifted.", True),
    ("There is no evidence linking the flood to the outbreak.", True),
    ("Suicides rose by 3.7 percent in 2020.", False),
    # an idiom that contains a cue but asserts something positive
    ("The pandemic affected not only women but also children.", False),
])
def test_negative(sentence: str, expected: bool) -> None:
    assert verdict(ask("negative", sentence)).value is expected


def test_nugget_agrees_when_the_sentence_states_the_recorded_absence() -> None:
    absent = nugget("How many children died by suicide in 2020?", "not reported in the collection", negative=True)
    agree = verdict(ask("nugget_agrees", "The sources do not report how many children died by suicide in 2020.",
                        answer="not reported in the collection", nug=absent))
    other = verdict(ask("nugget_agrees", "There is no evidence linking the flood to the outbreak.",
                        answer="not reported in the collection", nug=absent))
    assert agree.value is True and other.value is False
    assert JUDGE.answer(ask("nugget_agrees", "No data.", nug=None)) is None


# ---------------------------------------------------------------------------------------------- requires_citation
def test_a_restatement_of_the_request_needs_no_citation() -> None:
    v = verdict(ask("requires_citation", "This report looks at suicide rates in Japan during the COVID-19 pandemic."))
    assert v.value is False


def test_a_claim_with_figures_and_names_needs_a_citation() -> None:
    v = verdict(ask("requires_citation", "The Ministry of Health counted 6,976 female suicides in 2020.", cited=(DOC,)))
    assert v.value is True
    assert "6976" in v.rationale


# ---------------------------------------------------------------------------------------------- first_instance
def test_first_instance_and_repeat() -> None:
    earlier = ("Female suicides in Japan rose by 885 to 6,976 in 2020.", "Experts blamed isolation.")
    repeat = verdict(ask("first_instance", "In 2020, suicides among Japanese women rose by 885 to 6,976.", earlier=earlier))
    new = verdict(ask("first_instance", "Male suicides fell to 13,943 in the same year.", earlier=earlier))
    other_figure = verdict(ask("first_instance", "Female suicides in Japan rose by 900 to 7,100 in 2021.", earlier=earlier))
    assert repeat.value is False
    assert new.value is True
    assert other_figure.value is True  # same words, other numbers: a new claim
    assert verdict(ask("first_instance", "Anything at all.", earlier=())).value is True


# ---------------------------------------------------------------------------------------------- identity
def test_thresholds_are_options_and_part_of_the_identity() -> None:
    strict = LexicalJudge(attested_threshold=0.95)
    assert strict.params()["attested_threshold"] == 0.95
    assert strict.identity() != JUDGE.identity()
    assert JUDGE.identity()["backend"] == "lexical"
    sentence = "Experts blamed isolation and hardship in Japan."  # 'hardship' is in the document, 'Japan' too
    loose = LexicalJudge(attested_threshold=0.3).answer(ask("attested", sentence, document=DOC))
    tight = LexicalJudge(attested_threshold=1.0).answer(ask("attested", sentence + " Banks collapsed.", document=DOC))
    assert loose.value is True and tight.value is False
    with pytest.raises(InputError, match="lexical.answer_threshold: expected a number between 0 and 1"):
        LexicalJudge(answer_threshold=1.5)


def test_registry_builds_the_lexical_judge_with_options() -> None:
    judge = make_judge("lexical", {"lexical": {"answer_threshold": 0.7}})
    assert isinstance(judge, LexicalJudge)
    assert judge.params()["answer_threshold"] == 0.7
    assert judge.kinds == {"relevant", "answers", "attested", "negative", "nugget_agrees", "requires_citation",
                           "first_instance"}


def test_a_transliterated_name_still_matches() -> None:
    accepted = nugget("Who accepted the Golden Bear award?", "Baran Rasoulof")
    v = verdict(ask("answers", "Baran Rasoulov accepted the prize for her father.", answer="Baran Rasoulof",
                    nug=accepted, document=DOC))
    assert v.value is True
    # but a short word or a figure never matches by spelling
    assert JUDGE.answer(ask("answers", "There were 2,091 deaths.", answer="20,919", nug=nugget(QUESTION, "20,919"),
                            document=DOC)).value is False


def test_a_name_in_a_sentence_about_something_else_does_not_answer() -> None:
    directed = nugget("Who directed the film Taxi?", "Jafar Panahi")
    elsewhere = verdict(ask("answers", "Jafar Panahi was convicted in Iran for anti-government activities.",
                            answer="Jafar Panahi", nug=directed, document=DOC))
    on_topic = verdict(ask("answers", "Taxi, the film by Jafar Panahi, won the Golden Bear.",
                           answer="Jafar Panahi", nug=directed, document=DOC))
    assert elsewhere.value is False and "something else" in elsewhere.rationale
    assert elsewhere.confidence < 0.7  # unsure: a cascade asks a stronger judge
    assert on_topic.value is True


def test_answer_words_repeated_from_the_question_prove_nothing() -> None:
    accepted = nugget("Who accepted the Golden Bear on behalf of Mohammad Rasoulof?", "Mohammad Rasoulof's daughter")
    about_him = verdict(ask("answers", "Mohammad Rasoulof could not accept the Golden Bear because he is in prison.",
                            answer="Mohammad Rasoulof's daughter", nug=accepted, document=DOC))
    daughter = verdict(ask("answers", "His daughter accepted the Golden Bear on behalf of Mohammad Rasoulof.",
                           answer="Mohammad Rasoulof's daughter", nug=accepted, document=DOC))
    assert about_him.value is False and "missing daughter" in about_him.rationale
    assert daughter.value is True


def test_a_summary_repeats_the_report_and_needs_no_citation() -> None:
    earlier = ("Male suicides in Japan fell to 13,943 in 2020.", "Female suicides rose by 885 to 6,976.",
               "Experts blamed isolation during the pandemic.")
    summary = "In short, female suicides rose to 6,976 while male suicides fell, and experts blamed isolation."
    assert verdict(ask("first_instance", summary, earlier=earlier)).value is False
    # without the cue the same words spread over three sentences still count as a repeat, at a discount
    assert JUDGE.repeat_score(summary.removeprefix("In short, "), earlier)[1] == -1
    assert verdict(ask("requires_citation", summary)).value is False
    # an absence in the sources is a statement about the sources, not a claim about the world
    assert verdict(ask("requires_citation", "The reports give no figure for the cost of the repairs.")).value is False


def test_the_stemmer_in_use_gives_the_pure_python_snowball_stems():
    """PyStemmer (C) is picked up when installed; it must stem exactly as the pure-Python Snowball stemmer."""
    from snowballstemmer.english_stemmer import EnglishStemmer

    from argue_eval.judges.lexical_tokens import _STEMMER

    reference = EnglishStemmer()
    words = ["suicides", "increased", "generously", "flooding", "organizations", "hopefulness", "died", "running",
             "transliteration", "communities", "arguing", "bleached", "reefs", "cyclists", "nationalization"]
    assert [_STEMMER.stemWord(w) for w in words] == [reference.stemWord(w) for w in words]
    assert reference.stemWord("suicides") == "suicid" and reference.stemWord("generously") == "generous"


# ---------------------------------------------------------------------------------------------- issue 21, part 9
# Four mistakes an error analysis of the lexical judge against a 70B LLM found, each fixed as a general rule
# (docs/judging.md, "The heuristics"). Every expected value below was worked out by hand from the rule.
SPACE_REQUEST = Request("r1", title="SpaceX rocket launches",
                        problem_statement="A report on the rocket launches of SpaceX since 2010.")


def ask_answer(sentence: str, question: str, answer: str, request: Request | None = REQUEST):
    return verdict(ask("answers", sentence, answer=answer, nug=nugget(question, answer), document=DOC,
                       request=request))


def test_a_common_word_does_not_match_inside_a_longer_name() -> None:
    # "space" lies inside "spacex", which the sentence writes as a name (capital inside the word): before the
    # rule the answer was covered (1.0) and the score 0.6 * 1 + 0.4 * 0.75 = 0.9; now the answer coverage is 0
    # and the score 0.4 * 0.75 (museum, new, exhibit of museum, new, exhibit, explor) = 0.3 < 0.45
    inside = ask_answer("The museum's new exhibition was sponsored by SpaceX.",
                        "What did the museum's new exhibition explore?", "space")
    assert inside.value is False and "missing space" in inside.rationale
    # the other way round: the answer is the name, the sentence has the word (0.4 * 2/3 = 0.27)
    outside = ask_answer("The exhibition about space was sponsored by a bank.",
                         "Which company sponsored the exhibition?", "SpaceX")
    assert outside.value is False and "missing spacex" in outside.rationale
    # containment between common words is a derivation and still matches ("imprisoned" / "prison") ...
    assert ask_answer("Panahi was imprisoned after the trial.", "Where was Panahi sent after the trial?",
                      "prison").value is True
    # ... and so is a name inside a name its text writes as one ("Korea" inside "Korean")
    assert ask_answer("North Korean border guards detained the ship.", "Which country detained the ship?",
                      "North Korea").value is True


def test_a_designation_is_a_name_not_a_figure() -> None:
    # a capitalized word and a number, or a word, a hyphen and a number: one name token, no figure
    assert content("SpaceX launched a Falcon 9 rocket") == ("spacex", "launch", "falcon9", "rocket")
    assert content("a Falcon-9 rocket") == content("a Falcon 9 rocket") == ("falcon9", "rocket")
    assert content("The Model 351 crashed") == ("model351", "crash")
    assert content("F\u201135 jets") == content("F-35 jets") == content("F-35s jets") == ("f35", "jet")  # non-breaking hyphen
    assert numbers("SpaceX launched a Falcon 9 rocket") == numbers("The Model 351 crashed") == set()
    # ... but a number after a word that introduces a quantity, before the noun it counts, after a comma or a
    # possessive, or a year, stays a figure
    assert numbers("Nearly 300 people died") == {"300"}
    assert numbers("the count put Arvid Lund 38 votes ahead") == {"38"}
    assert numbers("in Paris, 9 people were hurt") == {"9"}
    assert numbers("SpaceX's 60 satellites") == {"60"}
    assert numbers("the Tokyo 2020 games") == numbers("in mid-2020") == {"2020"}
    # "Falcon 9" is not given by a sentence with a Falcon and a 9: the score 0.6 * 0 + 0.4 * 1 (rocket,
    # carri; the question is answered by the sentence's words) is capped at half the threshold, 0.225
    heavy = ask_answer("A Falcon Heavy rocket carried 9 satellites.", "Which rocket carried the satellites?", "Falcon 9")
    assert heavy.value is False and "designation falcon9 not in sentence" in heavy.rationale
    assert ask_answer("A Falcon-9 rocket carried the satellites.", "Which rocket carried the satellites?",
                      "Falcon 9").value is True
    # a sentence about the Falcon 9 mentions a Falcon (never the other way round)
    assert ask_answer("A Falcon 9 rocket carried the satellites.", "Which rocket carried the satellites?",
                      "a Falcon rocket").value is True
    # and the 9 of "Falcon 9" is not the figure 9 that the answer asks for (60 and no 9: capped at 0.225)
    counted = ask_answer("The Falcon 9 rocket carried 60 satellites.", "How many satellites did the rocket carry?", "9")
    assert counted.value is False and "number 9 not in sentence" in counted.rationale


def test_a_name_needs_the_relation_the_question_asks_for() -> None:
    # the request's topic is SpaceX: of "Who founded SpaceX?" only "found" is what the question asks; the
    # sentence has the name and "SpaceX", not "found": capped at 0.8 x 0.45 = 0.36 (before: 0.6 + 0.4 * 1/2)
    said = ask_answer("Elon Musk said SpaceX would launch again in May.", "Who founded SpaceX?", "Elon Musk",
                      request=SPACE_REQUEST)
    assert said.value is False and "a name in a sentence about something else (none of found)" in said.rationale
    assert said.confidence < 0.7  # unsure: a cascade asks a stronger judge
    assert ask_answer("Elon Musk founded SpaceX in 2002.", "Who founded SpaceX?", "Elon Musk",
                      request=SPACE_REQUEST).value is True
    # without a request every word of the question counts, and the sentence has "SpaceX"
    assert ask_answer("Elon Musk said SpaceX would launch again in May.", "Who founded SpaceX?", "Elon Musk",
                      request=None).value is True
    # a one-word answer is a name when the sentence writes it as one ("Bayer" inside the sentence): the
    # sentence says nothing of "compani" or "make" (0.6 * 1 + 0 = 0.6 before, capped at 0.36 now)
    roundup = Request("r1", title="Roundup lawsuits", problem_statement="The lawsuits over the herbicide Roundup.")
    shares = ask_answer("Shares of Bayer fell after the ruling.", "Which company makes Roundup?", "Bayer",
                        request=roundup)
    assert shares.value is False and "something else" in shares.rationale


def test_part_of_a_name_is_not_the_name() -> None:
    question = "Who sits on the board of Tesla?"
    # "musk" is there, "elon" is not: answer coverage 1.5 / 3 = 0.5, score 0.3 + 0.4 * 1 = 0.7 before; now
    # capped at 0.36, whether the surname is a relative's or another person's
    for sentence in ("Musk's brother Kimbal sits on the board of Tesla.", "Kimbal Musk sits on the board of Tesla."):
        v = ask_answer(sentence, question, "Elon Musk")
        assert v.value is False and "only part of the name elon musk" in v.rationale
    assert ask_answer("Elon Musk sits on the board of Tesla.", question, "Elon Musk").value is True
    # a company form is not part of the name, and a part the question already names is not required
    assert ask_answer("Bayer agreed to pay the settlement.", "Who agreed to pay the settlement?",
                      "Bayer AG").value is True
    assert ask_answer("Baran accepted the Golden Bear for her father.",
                      "Who accepted the Golden Bear on behalf of Mohammad Rasoulof?", "Baran Rasoulof").value is True


# ---------------------------------------------------------------------------------------------- statements
STATEMENT = "Jane Doe was born in Paris."
"""A statement nugget (an SCU): its question is the statement and so is its one answer. Content tokens
jane doe born pari; names jane doe pari (the first word counts: the second is capitalized too), weighing 1.5;
the relation (what it says of its names) is born."""


def statement_verdict(sentence: str):
    return verdict(ask("answers", sentence, answer=STATEMENT, nug=nugget(STATEMENT, STATEMENT)))


@pytest.mark.parametrize("sentence, score, value", [
    # all four tokens, relation too: (0.6 x 5.5/5.5) + (0.4 x 1)
    ("Born in Paris, Jane Doe became a painter.", 1.0, True),
    # a lower-cased sentence: the weights are the statement's, its capitals are not needed
    ("jane doe was born in paris in 1950.", 1.0, True),
    # the names without the relation: 0.6 x 4.5/5.5 = 0.49, a yes. Word overlap cannot tell another relation
    # from a paraphrased one ("sold by Porto" / "off the Porto production line"), and on REALSumm's human
    # labels a cap here missed 164 present facts for 46 absent ones it kept out: the names decide
    ("Jane Doe left Paris in 1990.", 0.6 * 4.5 / 5.5, True),
    # the surname alone names her (a later mention): 0.6 x 4/5.5 + 0.4 x 1 = 0.836
    ("Doe was born in Paris.", 0.6 * 4 / 5.5 + 0.4, True),
    # ... but not inside another name: "John Doe" is someone else, capped at 0.36
    ("John Doe was born in Paris.", 0.36, False),
])
def test_a_statement_nugget_needs_what_it_says_of_its_names(sentence: str, score: float, value: bool) -> None:
    assert JUDGE.answer_score(sentence, STATEMENT, STATEMENT)[0] == pytest.approx(score)
    assert statement_verdict(sentence).value is value


@pytest.mark.parametrize("statement, sentence, score", [
    # "one" written as a word is often no figure ("pulled one back", "one for an engineer", "no one"): not
    # required. Weights: names victor anicheb west brom 1.5 each, the figure 2, pull back 1: 8 of 10 found;
    # the relation pull 1 back: 2 of 3. 0.6 x 0.8 + 0.4 x 2/3
    ("Victor Anichebe pulled one back for West Brom.", "Victor Anichebe pulled a goal back for West Brom.",
     0.6 * 0.8 + 0.4 * 2 / 3),
    # ... written as a digit it is a figure, and missing caps the score at 0.5 x 0.45
    ("Victor Anichebe pulled 1 back for West Brom.", "Victor Anichebe pulled a goal back for West Brom.", 0.225),
    # a designation in a lower-cased sentence ("bump 2" is the statement's Bump 2): new app bump2 breast,
    # bump2 a name (1.5): 2.5 of 4.5 found, relation new app breast 1 of 3
    ("The new app is Bump 2 breast.", "she came up with the idea for bump 2 breast when pregnant .",
     0.6 * 2.5 / 4.5 + 0.4 / 3),
    # a figure inside a designation the tokenizer read from a capital ("Carding 14 - under - par"): justin rose
    # 1.5 each, 14 2, card par 1: 6 of 7, relation card 14 par 2 of 3
    ("Justin Rose carded 14-under-par.", "Justin Rose finished second after Carding 14 - under - par .",
     0.6 * 6 / 7 + 0.4 * 2 / 3),
    # ... but a designation written together states no figure: "F-35" is not 35 missions
    ("The jets flew 35 missions.", "The F-35 jets flew missions.", 0.225),
])
def test_a_statement_s_figures_are_read_as_a_summary_writes_them(statement: str, sentence: str,
                                                                   score: float) -> None:
    assert JUDGE.answer_score(sentence, statement, statement)[0] == pytest.approx(score)


def test_an_answer_restating_most_of_its_question_is_a_statement() -> None:
    from argue_eval.judges.lexical import _is_statement

    question = content_set("Was it Bayer or Monsanto that bought the firm?")  # bayer monsanto bought firm
    assert _is_statement(set(content("Bayer bought the firm")), question)  # 3 of its 4 words
    assert not _is_statement(set(content("Bayer")), question)  # a fifth: an answer to the question
    assert not _is_statement(set(content("Bayer and Pfizer")), question)  # adds a word: an answer
    assert _is_statement(set(content("Bayer")), frozenset())  # no question at all
    # an answer to the question is scored as one: the answer 0.6 x 1 and the question's other words (monsanto
    # bought firm, none in the sentence) 0.4 x 0; as a statement the sentence would score 1
    score, rationale = JUDGE.answer_score("Bayer said the weather was fine.", "Bayer", "Was it Bayer or Monsanto "
                                          "that bought the firm?")
    assert rationale.startswith("answer tokens") and score == pytest.approx(0.6)


# ---------------------------------------------------------------------------------------------- names in attested
SMITH = Document("d3", "Jane Smith joined the company in 2019 as chief engineer.", "")


def test_a_name_the_document_never_writes_takes_a_quarter_off_attested() -> None:
    # jane 1 + smith 1.5 + join 1 + acme 1.5 + 2019 2 = 7; the passage has all but acme: 5.5/7, then x 0.75
    v = verdict(ask("attested", "Jane Smith joined Acme in 2019.", document=SMITH))
    score = 5.5 / 7 * 0.75
    assert v.value is True and "name acm not in document" in v.rationale
    assert v.confidence == round(0.5 + 0.5 * (score - 0.45) / 0.55, 4)
    # the same name inside quotation marks is a title, which a translation renders otherwise: no reduction
    quoted = verdict(ask("attested", 'Jane Smith joined "Acme" in 2019.', document=SMITH))
    assert "not in document" not in quoted.rationale
    assert quoted.confidence == round(0.5 + 0.5 * (5.5 / 7 - 0.45) / 0.55, 4)


def test_a_derived_or_transliterated_name_is_written_by_the_document() -> None:
    from argue_eval.judges.lexical import _missing_names

    document = Document("d4", "Smith became an Iranian citizen.", "")
    passages, _ = JUDGE._passages_of(document)
    assert _missing_names("Smith moved to Iran.", passages) == []  # iran, iranian: the same first four letters
    assert _missing_names("Smith moved to Peru.", passages) == ["peru"]
    # smith 1 + move 1 + peru 1.5 (Smith is the first word: no name weight); found smith: 1/3.5, x 0.75
    assert JUDGE.support_score("Smith moved to Peru.", passages, frozenset())[0] == pytest.approx(1 / 3.5 * 0.75)


# ---------------------------------------------------------------------------------------------- statements, v9
# Rules read from the REALSumm dev share's disagreements (issue 30, item 3); each value checked by hand.
def test_a_statement_with_slashes_is_each_of_its_readings() -> None:
    from argue_eval.judges.lexical import _statement_alternatives

    assert _statement_alternatives("Singer/Bieber arrived at the artists' entrance.") == (
        "Singer arrived at the artists' entrance.", "Bieber arrived at the artists' entrance.")
    # a name of several words is one alternative; so is a word with its determiner
    assert _statement_alternatives("Carri Reichert / dominatrix said she felt overdressed.") == (
        "Carri Reichert said she felt overdressed.", "dominatrix said she felt overdressed.")
    assert _statement_alternatives("Accounts vanished from Twitter/the social network.")[1] == (
        "Accounts vanished from the social network.")
    assert _statement_alternatives("The campaign / Collective Anonymous / 'hacktavist' targeted jihadis.") == (
        "The campaign targeted jihadis.", "The Collective Anonymous targeted jihadis.",
        "The 'hacktavist' targeted jihadis.")
    # figures with a slash are a date or a rate, not alternatives
    assert _statement_alternatives("The towers fell on 9/11.") == ("The towers fell on 9/11.",)
    # the reading "425 young women ..." misses its figure (capped at 0.5 x 0.45); "many young women ..." is
    # stated word for word. Read as one statement, the missing 425 would cap it.
    score, rationale = JUDGE.statement_score("many young women and girls have been sleeping outdoors .",
                                             "425/many young women and girls have been sleeping outdoors.")
    assert score == 1.0 and "reading 'many young women" in rationale
    assert JUDGE.statement_score("many young women and girls have been sleeping outdoors .",
                                 "425 young women and girls have been sleeping outdoors.")[0] == pytest.approx(0.225)


@pytest.mark.parametrize("statement, sentence, score", [
    # "happened" only says the event exists: fight philadelphia (1.5), both found. With it: 2.5 of 3.5 and
    # the relation fight happen half, 0.6 x 0.714 + 0.4 x 0.5 = 0.63
    ("The fight happened in Philadelphia.", "a fight broke out on a subway platform in philadelphia .", 1.0),
    ("The wedding took place in Dunblane.", "The wedding is in Dunblane next Saturday .", 1.0),
    # a year the sentence leaves out is accessory: justin rose master play, all found
    ("Justin Rose played at the Masters 2015.", "Justin Rose played at the Masters .", 1.0),
    # ... but not when the sentence gives another year: names 4.5 + play 1 + 2015 2 = 7.5, 5.5 found; the
    # relation play 2015 half: 0.6 x 5.5 / 7.5 + 0.4 x 0.5
    ("Justin Rose played at the Masters 2015.", "Justin Rose played at the Masters in 2014 .",
     0.6 * 5.5 / 7.5 + 0.4 * 0.5),
    # an age is its figure: "74-year-old" is stated by "Lynne Abraham , 74 ," (lynne abraham 1.5, 74 2: all)
    ("Lynne Abraham is a 74-year-old.", "Lynne Abraham , 74 , collapsed on stage .", 1.0),
    # ... and the "year" of an age is no time: rori mcilroy 1.5 each, play last year: 4 of 6, relation 1 of 3
    ("Rory McIlroy played last year.", "The 25 - year - old Rory McIlroy played well .", 0.6 * 4 / 6 + 0.4 / 3),
    # a day of a month is no age: 18 missing, capped at 0.5 x 0.45 ...
    ("Charles Terreni was 18.", "Charles Terreni was found on March 18 .", 0.225),
    # ... unless the sentence writes it otherwise too, or the statement is a date itself
    ("Charles Terreni was 18.", "Charles Terreni , 18 , was found on March 18 .", 1.0),
    ("Charles Terreni was found on 18 March.", "Charles Terreni was found on March 18 .", 1.0),
])
def test_a_statement_s_accessory_words_are_not_required(statement: str, sentence: str, score: float) -> None:
    assert JUDGE.statement_score(sentence, statement)[0] == pytest.approx(score)


@pytest.mark.parametrize("statement, sentence, score, said", [
    # London is what the statement says of Ronnie Carroll: missing, as a figure would be, it caps the score at
    # 0.8 x 0.45 (uncapped: ronni carrol london 1.5, death 1, 4 of 5.5; relation all: 0.84)
    ("Ronnie Carroll died in London.", "Ronnie Carroll died just days after getting on the ballot paper .", 0.36,
     "name london not in sentence"),
    # the name a statement starts with is its subject, which a summary may give as a description: no cap
    # (maren sanchez 1.5 each, stab day prom 1: 3 of 6; relation all: 0.6 x 0.5 + 0.4)
    ("Maren Sanchez was stabbed on the day of prom.",
     "the 16-year-old girl was stabbed to death at a Connecticut school on the day of prom .", 0.7, None),
    # a derived name is the name (Cuba / Cuban: the same first four letters): kathi ferreiro found, 3 of 4.5
    ("Kathy Ferreiro is from Cuba.", "Kathy Ferreiro , 21 , is the Cuban Kim Kardashian .", 3 / 4.5, None),
    # a day is no name the sentence must write, though its capital weighs it as one: sir philip carter thursday
    # 1.5 each, death 1: 5.5 of 7; the relation death found
    ("Sir Philip Carter died on Thursday.", "Sir Philip Carter has died aged 87 .", 0.6 * 5.5 / 7 + 0.4, None),
])
def test_a_statement_s_other_names_must_be_in_the_sentence(statement: str, sentence: str, score: float,
                                                           said: str | None) -> None:
    value, rationale = JUDGE.statement_score(sentence, statement)
    assert value == pytest.approx(score)
    assert (said in rationale) if said else ("not in sentence" not in rationale)


def test_a_date_with_its_year_after_a_comma_is_no_thousands() -> None:
    assert content("April 25,2014") == ("april", "25", "2014")
    assert numbers("20,919 people and 1,234,567") == {"20919", "1234567"}


def test_covers_summed_by_groups_are_the_floats_summed_token_by_token() -> None:
    """``_cover`` and ``support_score`` count the tokens of each weight apart when the weights are exact
    (multiples of 1/1024, as the defaults 2.0 and 1.5): the same floats as summing token by token, in set order;
    other weights (1.7, 1.3) are summed token by token. Checked on random token sets against that sum."""
    import random

    from argue_eval.judges import lexical

    def by_tokens(needle, hay, weights):
        distinct = set(needle)
        return sum(weights.get(t, 1.0) for t in distinct if t in hay) / sum(weights.get(t, 1.0) for t in distinct)

    rng = random.Random(5)
    vocabulary = [f"w{k}" for k in range(40)]
    for weights_of in ((2.0, 1.5), (1.7, 1.3), (3.0, 0.25)):
        for _ in range(400):
            needle = rng.sample(vocabulary, rng.randint(1, 25))
            hay = frozenset(rng.sample(vocabulary, rng.randint(0, 40)))
            weights = {t: rng.choice(weights_of) for t in rng.sample(vocabulary, rng.randint(0, 12))}
            assert lexical._cover(needle, hay, weights) == by_tokens(needle, hay, weights)
            assert lexical._cover(needle, hay) == by_tokens(needle, hay, {})
    assert lexical._exact_weight(1.5) and lexical._exact_weight(2.0) and not lexical._exact_weight(1.7)
    sentence = "Acme paid 42 million to Smith in 2019 for the Orbital plant near Dover"
    passages = (frozenset(lexical.content("Acme paid Smith 42 million")), frozenset(lexical.content("plant Dover")))
    for options in ({}, {"number_weight": 1.7, "entity_weight": 1.3}):
        judge = LexicalJudge(**options)
        weighted, total = lexical._support_weights(sentence, judge.number_weight, judge.entity_weight)
        expected = max(sum(w for t, w in weighted if t in p) / total for p in passages)
        score, rationale = judge.support_score(sentence, passages, frozenset({"42", "2019"}))
        assert f"covers {lexical._fmt(expected)}" in rationale and 0 < score <= expected


# ---------------------------------------------------------------------------------------------- statements, v10
# Rules read from the REALSumm dev share's disagreements under v9 (issue 30, item 3); each value checked by hand.
def test_irregular_past_forms_are_their_verb() -> None:
    # no stemmer relates "won" to "win" or "caught" to "catch"; the tokenizer folds the past forms to the base
    assert content("She won the race and sold her car") == ("win", "race", "sell", "car")
    assert content("Smith caught the ball.") == content("smith will catch the ball .") == ("smith", "catch", "ball")
    # smith catch ball: all three in the sentence (v9: "caught" missing, 2/3 and 2/3 -> 0.667)
    assert JUDGE.statement_score("smith will catch the ball .", "Smith caught the ball.")[0] == 1.0
    # forms that are as often a name or a noun are left alone
    assert content("Drew Miller rose") == ("drew", "miller", "rose")


def test_clitics_are_function_words_and_n_t_is_not() -> None:
    assert content("they're sure it's over") == ("sure",)  # they, it, over: function words
    assert content("they 're here") == ()  # tokenized text writes the clitic apart
    assert content("didn't go") == content("did n't go") == content("did not go") == content("cannot go") == ("not", "go")


def test_no_one_is_nobody_not_a_figure() -> None:
    assert content("no one was hurt") == content("No-one was hurt") == content("nobody was hurt") == ("no", "hurt")
    assert numbers("No-one was hurt") == frozenset()
    assert numbers("one man was hurt") == {"1"}


def test_a_statement_that_denies_is_not_stated_by_a_sentence_that_does_not() -> None:
    # no hurt fire; the sentence has hurt and fire (2/3, 2/3 -> 0.667), denies nothing: capped at 0.8 x 0.45
    score, rationale = JUDGE.statement_score("one man was hurt in the fire .", "No one was hurt in the fire.")
    assert score == pytest.approx(0.36) and "the statement denies, the sentence does not" in rationale
    assert JUDGE.statement_score("no one was hurt in the fire .", "No one was hurt in the fire.")[0] == 1.0
    assert JUDGE.statement_score("nobody was hurt in the fire .", "No one was hurt in the fire.")[0] == 1.0


def test_each_clause_of_a_statement_must_be_given() -> None:
    # bridge closed | road stayed open: the sentence has bridge closed road (3/5 -> 0.6), but of the second
    # clause only road (1/3 < 1/2): capped at 0.8 x 0.45
    statement = "The bridge was closed, but the road stayed open."
    score, rationale = JUDGE.statement_score("the bridge was closed and the road reopened .", statement)
    assert score == pytest.approx(0.36) and "only one of the statement's two clauses" in rationale
    assert JUDGE.statement_score("the bridge was closed , but the road stayed open .", statement)[0] == 1.0


# ---------------------------------------------------------------------------------------------- statements, v11
# Read from the REALSumm dev share's disagreements under v10 (issue 30, item 3); each value checked by hand.
def test_names_joined_by_and_at_the_start_are_the_subject() -> None:
    # "Paul and Laura Elliott" is who ran: a summary names the two as "the pair", as it names one subject by a
    # pronoun. Tokens paul laura elliott run finish line; names laura, elliott (weight 1.5; the first word is no
    # name read from its capital); the sentence has run, finish, line: 3 / 7 weighted, relation (paul run finish
    # line) 3 / 4, 0.6 x 3/7 + 0.4 x 0.75 = 0.557 (v10: "laura elliott" not in the sentence, capped at 0.36)
    sentence = "The pair , who live in Clapham , ran across the finish line together ."
    score, rationale = JUDGE.statement_score(sentence, "Paul and Laura Elliott ran across finish line.")
    assert score == pytest.approx(0.6 * 3 / 7 + 0.4 * 0.75) and "not in sentence" not in rationale
    assert _subject_names("Paul and Laura Elliott ran across finish line.") == {"paul", "laura", "elliott"}
    # a name the subject does something to is still required: Chloe is no part of the subject
    score, rationale = JUDGE.statement_score("She was forced into the car .", "Zbigniew Huminski forced Chloe into the car.")
    assert score == pytest.approx(0.36) and "name chloe not in sentence" in rationale
