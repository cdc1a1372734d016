"""Readings that let a true claim's evidence support it, each with a lie it must not let in.

A true claim is often missed where its evidence refers back to the subject ("The company's
headquarters …", "Born in Smiljan, he …", "the wall" for "The Berlin Wall"), names an agent
beside its description ("by the Scottish scientist Alexander Fleming"), gives a passive's
recipient after "to" ("was awarded jointly to …"), or opens with a news dateline
("FRANKFURT — The bank …"). Each reading is tested on its own here; the recall suite of
the evaluation cases (``benchmarks/data/recall_probe.jsonl``) measures them together.
"""

from __future__ import annotations

from triqua.core.reading.agents import other_agent
from triqua.core.reading.analysis import Token, analyse
from triqua.core.reading.datelines import dateline_end
from triqua.core.reading.fact_parts import fact_parts, sentence_relation_hit
from triqua.core.reading.mentions import REFERS, passive, refers_back, subject_scores
from triqua.core.reading.part_rivals import roles_differ
from triqua.core.reading.passage_reading import read_pieces
from triqua.core.reading.quote_values import missing_values
from triqua.core.reading.statements import refusal
from triqua.core.reading.words import stem
from triqua.models.reader import statement_refusal
from triqua.schema import Fact, FactUnit


def _stems(text: str) -> set[str]:
    return {stem(w) for w in text.split()}


# ---- binding: which sentences speak about the subject


def test_a_possessive_description_refers_back() -> None:
    assert refers_back(analyse("The company's headquarters are in Stockholm, Sweden."))
    assert refers_back(analyse("The band’s debut album was released in 1993."))


def test_a_pronoun_after_an_opening_phrase_with_names_refers_back() -> None:
    assert refers_back(analyse("Born in the Austrian Empire, he studied engineering."))
    assert refers_back(analyse("Set in the Jazz Age on Long Island, it was published in 1925."))
    # The opening phrase's own subject is no reference back.
    assert not refers_back(analyse("In 1492, sailing west, Christopher Columbus reached land."))


def test_a_description_naming_someone_beside_it_does_not_refer_back() -> None:
    assert refers_back(analyse("The engineer designed the bridge."))
    assert not refers_back(analyse("The engineer Joseph Strauss designed the bridge."))


def test_more_nouns_of_a_topic_refer_back() -> None:
    for text in (
        "The telescope was launched in 1990.",
        "The planet has 95 moons.",
        "The carmaker employs around 370,000 people.",
        "Since 1797 the painting has been on display at the Louvre.",
    ):
        assert refers_back(analyse(text)), text


def test_the_subjects_own_head_noun_refers_back_to_it() -> None:
    sentences = [
        analyse("The Berlin Wall was a barrier that divided Berlin."),
        analyse("Construction of the wall began on 13 August 1961."),
    ]
    assert subject_scores(analyse("The Berlin Wall"), sentences, None) == [1.0, REFERS]
    # Another subject's passage: "the wall" is no reference to Hadrian's Wall's topic.
    other = [analyse("Canberra is a city."), sentences[1]]
    assert subject_scores(analyse("Hadrian's Wall"), other, None)[1] == 0.0


def test_the_class_a_passage_gives_its_subject_refers_back_to_it() -> None:
    sentences = [
        analyse("Okapia is a mammal genus of central Africa."),
        analyse("The genus has one living species."),
    ]
    assert subject_scores(analyse("Okapia"), sentences, None) == [1.0, REFERS]
    # Only the class the subject is given: "Pierre Curie was a chemist" names no class of
    # Marie Curie, and a class with a name beside it names that one.
    others = [
        analyse("Marie Curie was a physicist."),
        analyse("Pierre Curie was a chemist."),
        analyse("The chemist won a prize."),
    ]
    assert subject_scores(analyse("Marie Curie"), others, None)[2] == 0.0
    named = [analyse("Marie Curie was a physicist."), analyse("The physicist Paul Langevin.")]
    assert subject_scores(analyse("Marie Curie"), named, None)[1] == 0.0


def test_an_opening_phrase_keeps_the_topic_for_the_next_pronoun() -> None:
    sentences = [
        analyse("Nikola Tesla was a Serbian-American inventor."),
        analyse("Born in the Austrian Empire, he studied engineering."),
        analyse("He emigrated to the United States in 1884."),
    ]
    assert subject_scores(analyse("Nikola Tesla"), sentences, None) == [1.0, REFERS, REFERS]


# ---- the agent gate: a description beside the agent's name


def test_an_agent_named_beside_its_description_is_the_facts_own() -> None:
    text = "It was discovered in 1928 by the Scottish scientist Alexander Fleming."
    assert other_agent(text, {"discov"}, _stems("Alexander Fleming"), {"penicillin"}) is None
    fact = Fact(subject="Penicillin", relation="was discovered by", object="Alexander Fleming")
    assert (
        refusal(fact, "Penicillin was discovered by the Scottish scientist Alexander Fleming.")
        is None
    )


def test_another_agent_beside_a_description_still_refuses() -> None:
    fact = Fact(subject="Penicillin", relation="was discovered by", object="Louis Pasteur")
    why = refusal(fact, "Penicillin was discovered by the Scottish scientist Alexander Fleming.")
    assert why is not None and "scientist" in why


# ---- roles: a recipient after "to"


def _roles_differ(fact: Fact, text: str) -> bool:
    parts, info = fact_parts(fact), analyse(text)
    hit = sentence_relation_hit(parts, info)
    assert isinstance(hit, Token)
    return roles_differ(parts.subject, parts.object, info, hit, parts.relation)


def test_a_recipient_after_to_states_the_recipients_passive() -> None:
    fact = Fact(
        subject="Pierre Curie", relation="was awarded", object="the 1903 Nobel Prize in Physics"
    )
    text = "The 1903 Nobel Prize in Physics was awarded jointly to Becquerel and Pierre Curie."
    assert not _roles_differ(fact, text)


def test_swapped_roles_without_to_still_differ() -> None:
    fact = Fact(subject="copper", relation="is more reactive than", object="iron")
    assert _roles_differ(fact, "Iron is more reactive than copper.")


def test_a_participle_without_in_names_the_subject_after_it() -> None:
    """ "a film … starring Tom Hanks" states "Tom Hanks starred in Big"."""
    fact = Fact(subject="Tom Hanks", relation="starred in", object="Big")
    text = "Big is a 1988 comedy film directed by Penny Marshall and starring Tom Hanks."
    assert not _roles_differ(fact, text)
    assert _roles_differ(Fact(subject="Big", relation="starred in", object="Tom Hanks"), text)


# ---- datelines


def test_a_news_dateline_is_no_part_of_its_sentence() -> None:
    assert dateline_end("FRANKFURT — The European Central Bank raised rates.") == 12
    assert dateline_end("WASHINGTON (Reuters) - The Senate passed the bill.") == 23
    assert dateline_end("NASA — the agency — launched it.") == 0
    assert dateline_end("The ECB raised rates.") == 0
    pieces = read_pieces("FRANKFURT — The bank raised its key rates. The bank said so.")
    assert [p.text for p in pieces] == ["The bank raised its key rates.", "The bank said so."]


def test_a_dateline_is_not_read_as_the_subject_of_the_clause() -> None:
    unit = FactUnit(
        kind="base", subject="The European Central Bank", relation="raised", object="interest rates"
    )
    text = "FRANKFURT — The European Central Bank on Thursday raised its key interest rates."
    assert statement_refusal(unit, text) is None
    other = FactUnit(kind="base", subject="The Fed", relation="raised", object="interest rates")
    assert statement_refusal(other, text) is not None


# ---- the grounding rule's reader of references (shared by both engines)


def test_a_pronoun_after_an_opening_phrase_carries_the_subject() -> None:
    unit = FactUnit(
        kind="base", subject="Nikola Tesla", relation="emigrated to", object="the United States"
    )
    before = (
        "Nikola Tesla was a Serbian-American inventor. Born in the Austrian Empire, he "
        "studied engineering and physics in the 1870s. "
    )
    assert missing_values(unit, "He emigrated to the United States in 1884.", before) == []


def test_a_pronoun_chain_after_another_persons_sentence_carries_no_subject() -> None:
    unit = FactUnit(kind="base", subject="Isaac Newton", relation="studied", object="physics")
    before = "Isaac Newton was a physicist. Albert Einstein was born in Ulm. He moved to Bern. "
    assert missing_values(unit, "He studied physics.", before) == ["isaac newton"]


def test_a_name_of_another_name_is_one_name() -> None:
    unit = FactUnit(
        kind="base",
        subject="The International Committee of the Red Cross",
        relation="was founded in",
        object="Geneva",
    )
    before = "The International Committee of the Red Cross is a humanitarian organisation. "
    assert missing_values(unit, "It was founded in 1863 in Geneva.", before) == []


def test_the_subjects_own_head_noun_carries_it_in_a_quote() -> None:
    unit = FactUnit(kind="base", subject="The Berlin Wall", relation="was built in", object="1961")
    before = "The Berlin Wall was a guarded concrete barrier that divided Berlin. "
    quote = "Construction of the wall began on 13 August 1961."
    assert missing_values(unit, quote, before) == []
    assert missing_values(unit, quote, "Hadrian's Wall is a Roman wall. ") != []


def test_it_as_the_first_verbs_object_refers_back_to_a_patient_subject() -> None:
    sentences = [
        analyse("The Pell Telescope is an observatory built by Norland."),
        analyse("Ada Vance and Tom Ree launched it on 3 May 1999."),
    ]
    subject = analyse("The Pell Telescope")
    assert subject_scores(subject, sentences, None, patient=True) == [1.0, REFERS]
    assert subject_scores(subject, sentences, None) == [1.0, 0.0]  # an agent's fact: not


def test_it_after_another_object_does_not_refer_back() -> None:
    sentences = [
        analyse("Korvin is a carmaker."),
        analyse("Norland acquired Tessel in 2014 and renamed it later."),
    ]
    assert subject_scores(analyse("Korvin"), sentences, None, patient=True) == [1.0, 0.0]


def test_passive_relations_make_the_subject_the_patient() -> None:
    assert passive(analyse("was launched on")) and passive(analyse("was bought by"))
    assert not passive(analyse("launched")) and not passive(analyse("is a"))


# ---- a relation's own word, its agents, places by demonym, indefinite counts

_PRODUCED = (
    "Night Garden is a British animated series created for the BBC by Mara Kell and "
    "produced by Harbor Films and Tin Roof."
)


def test_the_relations_own_word_comes_before_an_earlier_synonym() -> None:
    parts = fact_parts(Fact(subject="Harbor Films", relation="produced", object="Night Garden"))
    hit = sentence_relation_hit(parts, analyse(_PRODUCED))
    assert isinstance(hit, Token) and hit.text == "produced"


def test_a_by_phrase_gives_the_relation_to_its_own_agents() -> None:
    sentence = analyse(_PRODUCED)
    for subject, differ in (("Harbor Films", False), ("Tin Roof", False), ("Mara Kell", True)):
        parts = fact_parts(Fact(subject=subject, relation="produced", object="Night Garden"))
        hit = sentence_relation_hit(parts, sentence)
        assert isinstance(hit, Token)
        assert roles_differ(parts.subject, parts.object, sentence, hit, parts.relation) is differ


def test_a_passive_fact_has_no_agent_to_check() -> None:
    sentence = analyse('"In the End" received positive reviews by music critics.')
    parts = fact_parts(Fact(subject="In the End", relation="was reviewed", object=""))
    hit = sentence_relation_hit(parts, sentence)
    assert isinstance(hit, Token)
    assert not roles_differ(parts.subject, parts.object, sentence, hit, parts.relation)


def test_a_demonym_names_its_place_on_both_engines() -> None:
    from triqua.core.reading.name_match import name_words_in

    chinese = analyse("Tarven University is a major Chinese research university.")
    assert name_words_in(analyse("China"), chinese)
    assert not name_words_in(analyse("Japan"), chinese)
    label = analyse("Lumen Hall (Italian: Sala Lumen) is an American concert hall in Boston.")
    assert name_words_in(analyse("the United States"), label)
    assert not name_words_in(analyse("Italy"), label)  # a language label names no place
    unit = FactUnit(kind="base", subject="Tarven University", relation="is in", object="China")
    assert missing_values(unit, chinese.text) == []
    assert missing_values(unit.model_copy(update={"object": "Japan"}), chinese.text) != []


def test_an_opening_bracket_ends_a_name_run() -> None:
    """Life dates in brackets after a name are no word of it ("Chris Kyle (April …")."""
    from triqua.core.reading.values.names import name_runs

    quote = "Chris Kyle (April 8, 1974 - February 2, 2013) was a United States Navy SEAL."
    assert [run.name for run in name_runs(quote)][:2] == ["chris kyle", "april"]
    unit = FactUnit(kind="base", subject="Chris Kyle", relation="was", object="a Navy SEAL")
    assert missing_values(unit, quote) == []
    other = unit.model_copy(update={"subject": "John Kyle"})
    assert missing_values(other, quote) != []
