"""Hand-checked SLS, syllables, ASF, TSS and SScore values.

Lexicon values used (Brysbaert percent-known / SUBTLEX-US Zipf / syllables):
the 1.0 / 7.468477762 / 1, cat 1.0 / 4.821264497 / 1, table 1.0 / 5.023261729 / 2,
cannot 0.96 / 5.102469842 / 2, roadsweeper 0.96 / (not in SUBTLEX: 0) / 3.
"""

import math

import pytest
from simpeval_cescore.lexicons import percent_known, zipf
from simpeval_cescore.simplicity import (
    average_familiarity,
    sentence_length_score,
    sscore,
    text_simplicity,
)
from simpeval_cescore.syllables import count_syllables
from simpeval_cescore.text import analyse


def test_lexicon_values_the_hand_checks_rely_on():
    assert (percent_known()["cannot"], zipf()["cannot"]) == (0.96, 5.102469842)
    assert (percent_known()["the"], zipf()["the"]) == (1.0, 7.468477762)
    assert "roadsweeper" in percent_known() and "roadsweeper" not in zipf()
    # pandas, which the authors load the lists with, reads the word "null" as missing
    assert "null" not in percent_known() and "nan" not in zipf()


@pytest.mark.parametrize(("n_tokens", "expected"), [
    (13, 0.5),                       # 1 - 1/(1 + e^0)
    (0, 0.9458332995187639),         # 1 - 1/(1 + e^2.86)
    (23, 0.0997504891196852),        # 1 - 1/(1 + e^-2.2)
])
def test_sentence_length_score(n_tokens, expected):
    assert sentence_length_score(n_tokens) == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize(("word", "syllables"), [
    ("the", 1),       # final e dropped, "th" has no vowel group: 1
    ("table", 2),     # "tabl": one vowel group + "[aeiouy]bl$"
    ("social", 2),    # o, ia: 2, + "ia", - "cial"
    ("mr", 2),        # exception list
    ("idealism", 4),  # i, ea, i: 3, + "ism$"
    ("", 0),
])
def test_count_syllables(word, syllables):
    assert count_syllables(word) == syllables


def test_asf_averages_over_words_in_brysbaerts_list_only():
    # cannot: 0.96 * 5.102469842 / 2; table: 1 * 5.023261729 / 2; the: 7.468477762 / 1;
    # xyzzyq is not in the list and does not count.
    expected = (0.96 * 5.102469842 / 2 + 5.023261729 / 2 + 7.468477762) / 3
    assert average_familiarity(("cannot", "table", "xyzzyq", "the")) == pytest.approx(expected, abs=1e-12)
    assert expected == pytest.approx(4.14309805022, abs=1e-11)


def test_asf_word_missing_from_subtlex_counts_with_zipf_zero():
    assert average_familiarity(("roadsweeper", "the")) == pytest.approx(7.468477762 / 2, abs=1e-12)


def test_asf_of_no_known_word_is_zero():
    assert average_familiarity(()) == 0.0
    assert average_familiarity(("xyzzyq",)) == 0.0


def test_tss_of_one_sentence():
    asf = (7.468477762 + 4.821264497) / 2
    sls = 1 - 1 / (1 + math.exp(2.42))  # 2 words
    expected = 0.45 * (asf + 5 * sls ** 0.33) + 0.55 * asf * sls
    assert text_simplicity("The cat.") == pytest.approx(expected, abs=1e-12)
    assert expected == pytest.approx(8.056514476380837, abs=1e-12)


def test_tss_of_a_document_takes_its_most_complex_sentence():
    easy = "The cat sat."
    hard = ("The committee, having deliberated extensively over the contentious proposal, "
            "ultimately postponed its decision indefinitely.")
    document = f"{easy} {hard}"

    def structural(text):
        units = analyse(text).units
        return average_familiarity(units) * sentence_length_score(len(units))

    assert structural(hard) < structural(easy)
    units = analyse(document).units
    lexical = average_familiarity(units) + 5 * sentence_length_score(len(units)) ** 0.33
    assert text_simplicity(document) == pytest.approx(0.45 * lexical + 0.55 * structural(hard), abs=1e-12)


def test_sscore_is_one_half_for_an_unchanged_text_and_clipped():
    assert sscore("The cat sat.", "The cat sat.") == 0.5
    # TSS("") = 0.45 * 5 * SLS(0)**0.33 = 2.209; the output is far simpler: (S-C)/(S+C)+0.5 > 1
    assert text_simplicity("") == pytest.approx(2.25 * 0.9458332995187639 ** 0.33, abs=1e-12)
    assert sscore("", "The cat sat on the mat.") == 1.0
    assert sscore("The cat sat on the mat.", "") < 0.5
