"""LLM judges for simpeval (issue 26): a local instruction-tuned model rates an output on a rubric.

``judge`` asks one model for a 1-5 rating of one aspect (simplicity, meaning preservation, fluency) of
a sentence or a document, and scores the expected value of its next-token probabilities over the
answers "1" to "5" (G-Eval; Maddela & Alva-Manchego 2025). ``jury`` asks several models and reports
their mean, their spread and their agreement. The prompt template is part of the metric: its hash is
in the signature, beside the model's content hash and every setting that changes the prompt.
"""

__version__ = "0.1.0"
