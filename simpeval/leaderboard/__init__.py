"""``simpeval leaderboard``: every metric on every human-rated dataset (:mod:`~simpeval.leaderboard.run`, :mod:`~simpeval.leaderboard.render`)."""
