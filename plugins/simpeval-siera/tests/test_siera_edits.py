"""Token and span edits on the paper's Figure 1 pair and on hand-made edit sequences."""

from simpeval_siera.edits import ADD, DEL, KEEP, Span, TokenEdit, apply_spans, edit_spans, token_edits
from simpeval_siera.normalize import normalize, tokenize


def edits_of(pair):
    source, target = tokenize(pair[0]), tokenize(pair[1])
    return source, target, token_edits(source, target)


def test_figure1_token_edits(figure1):
    _, _, edits = edits_of(figure1)
    assert " ".join(map(str, edits)) == (
        "KEEP KEEP KEEP KEEP KEEP DEL KEEP KEEP KEEP KEEP ADD(most) DEL DEL KEEP KEEP KEEP ADD(parts) "
        "KEEP KEEP ADD(.) ADD(It) ADD(would) ADD(create) DEL DEL DEL KEEP KEEP KEEP"
    )


def test_figure1_has_the_papers_four_spans(figure1):
    _, _, edits = edits_of(figure1)
    spans = edit_spans(edits)
    assert [s.kind for s in spans] == ["DEL", "ADD-DEL", "ADD", "ADD-DEL"]
    assert [[str(e) for e in edits[s.start : s.end]] for s in spans] == [
        ["DEL"], ["ADD(most)", "DEL", "DEL"], ["ADD(parts)"],
        ["ADD(.)", "ADD(It)", "ADD(would)", "ADD(create)", "DEL", "DEL", "DEL"],
    ]
    assert [e.token for e in edits[spans[3].start : spans[3].end] if e.op == DEL] == [",", "creating", "about"]


def test_applying_all_or_no_spans_gives_the_pair_back(figure1):
    source, target, edits = edits_of(figure1)
    spans = edit_spans(edits)
    assert apply_spans(edits, spans, range(len(spans))) == target
    assert apply_spans(edits, spans, []) == source
    assert " ".join(apply_spans(edits, spans, [0])) == (
        "According to Ledford , Northrop said they would build substantial parts of the bomber "
        "in Palmdale , creating about 1,500 jobs ."
    )


def test_tokens_match_case_insensitively_and_keep_the_source_casing():
    edits = token_edits(["The", "Cat", "sat"], ["the", "cat", "sat", "down"])
    assert edits == [TokenEdit(KEEP, "The"), TokenEdit(KEEP, "Cat"), TokenEdit(KEEP, "sat"), TokenEdit(ADD, "down")]


def test_span_kinds_from_a_hand_made_sequence():
    edits = [TokenEdit(DEL, "x"), TokenEdit(ADD, "y"), TokenEdit(DEL, "z"), TokenEdit(KEEP, "k"),
             TokenEdit(ADD, "w"), TokenEdit(ADD, "v")]
    assert edit_spans(edits) == [Span("DEL", 0, 1), Span("ADD-DEL", 1, 3), Span("ADD", 4, 6)]


def test_identical_sentences_have_no_spans():
    tokens = ["a", "b"]
    assert edit_spans(token_edits(tokens, tokens)) == []


def test_normalize_joins_moses_tokens():
    assert normalize("  Hello, world (really)! ") == "Hello , world ( really ) !"
