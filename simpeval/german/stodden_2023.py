"""Stodden, Momen and Kallmeyer (2023), DEplain: the published DEplain-web tables (sentence level,
n = 1,846; document level, n = 147), with the settings that reproduce them.

The settings, found in the scripts DEplain evaluated with (EASSE-de, ``easse evaluate -lang de``
with its defaults) and confirmed by recomputing every cell:

- tokens: spaCy's German tokenizer (EASSE-de's default ``de_core_news_sm``, whose tokenizer is
  spaCy's German rules: ``spacy-de``), **case-sensitive** (EASSE-de's ``-lc`` is off by default);
- BLEU: sacrebleu's corpus BLEU on those tokens (exponential smoothing); SARI: EASSE's corpus SARI;
- FRE: textstat 0.7.3's German Flesch Reading Ease (Amstad: 180 - ASL - 58.5 ASW, textstat's
  roundings) on the same tokens; the sentence-level tables report the mean of the sentences' FRE
  (EASSE-de's ``fre_sent``), the document-level tables the FRE of all outputs as one text
  (``fre_corpus``);
- documents: one per line, the lines of each document in the CSV joined with spaces;
- outputs: the sentence-level rows are ``trimmed_mbart_35k_DEplain-APA.txt`` and
  ``trimmed_mbart_35k_DEplain-APA-web.txt`` (the ``DEplain_trimmed_mbart_sents_*`` files are other
  runs and give other numbers); ``src2src`` scores the originals as the output.
"""

from __future__ import annotations

from simpeval.reproduce.scores import SOURCE, ScorePaper, ScoreTable

PAPER = "stodden-2023"
PRESET = "deplain-2023"
TITLE = "Stodden, Momen and Kallmeyer (2023), DEplain: DEplain-web test, sentence and document level"
BS_P = ("DEplain's BERTScore is bert_score's choice for lang=de, bert-base-multilingual-cased (layer 9), rescaled "
        "with bert_score's German baseline, on the spaCy tokens; no package on the index ships those weights and "
        "nothing else may be downloaded here, so simpeval cannot compute it")

SENTENCE_METRICS = {"SARI": "sari", "BLEU": "bleu", "BS-P": "bertscore-p", "FRE": "fre-textstat:aggregate=mean"}
DOCUMENT_METRICS = {"SARI": "sari", "BLEU": "bleu", "BS-P": "bertscore-p", "FRE": "fre-textstat"}

# PUBLISHED_RESULTS.md: "Results on DEplain-web test (n=1846)", sentence level
SENTENCE = {
    "DEplain-APA": {"SARI": 30.867, "BLEU": 15.727, "BS-P": 0.413, "FRE": 64.516},
    "DEplain-APA+web": {"SARI": 34.828, "BLEU": 17.88, "BS-P": 0.436, "FRE": 65.249},
    "src2src-baseline": {"SARI": 11.931, "BLEU": 20.85, "BS-P": 0.423, "FRE": 60.825},
}
# "Results on DEplain-web test (n=147)", document level
DOCUMENT = {
    "DEplain-APA": {"SARI": 43.087, "BLEU": 21.9, "BS-P": 0.377, "FRE": 64.7},
    "DEplain-web": {"SARI": 49.584, "BLEU": 23.282, "BS-P": 0.462, "FRE": 63.5},
    "DEplain-APA+web": {"SARI": 49.745, "BLEU": 23.37, "BS-P": 0.445, "FRE": 57.95},
    "src2src-baseline": {"SARI": 12.848, "BLEU": 23.132, "BS-P": 0.432, "FRE": 59.4},
}

TABLES = {
    table.key: table
    for table in (
        ScoreTable(PAPER, "sentence", "Sentence level: mBART on DEplain-web test (n=1,846)", "sentence",
                   "deplain-web_test", PRESET, SENTENCE_METRICS,
                   {"DEplain-APA": "trimmed_mbart_35k_DEplain-APA.txt",
                    "DEplain-APA+web": "trimmed_mbart_35k_DEplain-APA-web.txt", "src2src-baseline": SOURCE},
                   SENTENCE, unavailable={"BS-P": BS_P}),
        ScoreTable(PAPER, "document", "Document level: long-mBART on DEplain-web test (n=147)", "document",
                   "deplain-web-doc_test", PRESET, DOCUMENT_METRICS,
                   {"DEplain-APA": "trimmed_longmbart_35k_on_APA", "DEplain-web": "trimmed_longmbart_35k_on_web",
                    "DEplain-APA+web": "trimmed_longmbart_35k_on_APA-web", "src2src-baseline": SOURCE},
                   DOCUMENT, unavailable={"BS-P": BS_P}),
    )
}

STODDEN_2023 = ScorePaper(PAPER, TITLE, TABLES)
