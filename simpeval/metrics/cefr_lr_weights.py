"""The weights of ``cefr-lr``: written by ``python benchmarks/cefr_lr_train.py`` (do not edit).

Ridge penalty 100, chosen by leave-one-language-out on ReadMe++'s validation splits; fit on the
train and validation splits of ReadMe++ ar, en, fr, hi, ru."""

FEATURES = ('log-words', 'letters-per-word', 'long-words', 'log-words-per-sentence', 'mean-zipf', 'rare-words', 'min-zipf')
WEIGHTS = {
    "mean": [2.8839875785965856, 4.740037263698367, 0.24210811680719865, 2.8638329104891365, 4.7559984464605485, 0.15126627255914774, 1.675465573012937],
    "scale": [0.6110535664191583, 1.3997130377397835, 0.1873194708436452, 0.612942157506698, 1.09416060492928, 0.16827186282934742, 1.583298325137728],
    "coef": [0.5625392381829927, 0.3958778299337339, -0.11284966559971046, 0.3404249992317152, -0.13328661793986724, 0.1641297156166489, -0.0006739836114786936],
    "intercept": 3.3359519408502774,
}
