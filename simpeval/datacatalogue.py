"""Every data set simpeval can read, where it goes in the data directory, and whether it is there.

``simpeval data`` prints this catalogue: the human-rated datasets of the registry (plugins'
included), the reference sets, EASSE's named test sets and the training corpora of the bundled
trainers, each with its files (relative to the data directory), public source and licence.
simpeval never downloads them: the user places them, and this module only looks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simpeval.registry import Registry

# Licences as the sources state them (the shared data's README); "" where the source states its own terms.
_LICENCES = {
    "https://github.com/facebookresearch/asset": "CC BY-NC 4.0",
    "https://github.com/eliorsulem/HSplit-corpus": "CC BY-SA",
    "https://github.com/nishkalavallabhi/OneStopEnglishCorpus": "CC BY-SA 4.0",
}
_ONESTOP = "https://github.com/nishkalavallabhi/OneStopEnglishCorpus"


@dataclass(frozen=True)
class DataSet:
    """One data set: its files or folders relative to the data directory, source and licence."""

    name: str
    kind: str
    paths: tuple[str, ...]
    source: str
    licence: str = ""
    lang: str = ""  # the language of its texts (ISO 639-1), where it has texts of one language

    def missing(self, data_dir: Path | None) -> list[str]:
        """The paths not present under ``data_dir`` (all of them when there is no directory)."""
        if data_dir is None:
            return list(self.paths)
        return [p for p in self.paths if not (data_dir / p).exists()]


def catalogue(registry: Registry) -> list[DataSet]:
    """Every data set, in the order ``simpeval data`` lists them."""
    from simpeval.datasets.dwiki import LICENCE as DWIKI_LICENCE
    from simpeval.datasets.dwiki import PERTURBATION_FILES
    from simpeval.datasets.dwiki import SOURCE as DWIKI_SOURCE
    from simpeval.datasets.lens import LENS_META_SOURCE
    from simpeval.datasets.references import reference_set_files
    from simpeval.datasets.testsets import TEST_SETS

    entries = [DataSet(name, "dataset", tuple(cls.files), cls.source_url, cls.licence, cls.lang)
               for name, cls in sorted(registry.datasets.items())]
    entries += [DataSet(name, "references", paths, source, _LICENCES.get(source, ""))
                for name, (paths, source) in reference_set_files().items()]
    entries += [DataSet(spec.name, "test set", tuple(dict.fromkeys(p for p in (spec.orig, *spec.refs, spec.meta) if p)),
                        spec.source, spec.licence or _LICENCES.get(spec.source, ""), spec.lang)
                for spec in TEST_SETS.values()]
    entries += [DataSet(f"{spec.name} outputs", "system outputs", (spec.systems,), spec.source)
                for spec in TEST_SETS.values() if spec.systems]  # their authors' terms: "see its source"
    entries.append(DataSet("simpeval-2022-refs", "references", ("references/simpeval-2022/test.src",
                                                                 "references/simpeval-2022/test.dst"), LENS_META_SOURCE))
    entries.append(DataSet("dwiki-perturbations", "perturbation sets", PERTURBATION_FILES, DWIKI_SOURCE, DWIKI_LICENCE))
    entries.append(DataSet("onestopenglish", "training (train sle)",
                           ("onestopenglish/Adv", "onestopenglish/Int", "onestopenglish/Ele"), _ONESTOP,
                           _LICENCES[_ONESTOP]))
    return entries
