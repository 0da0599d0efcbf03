"""Standings: seasons, recorded results, ratings, leaderboards and statistics (issue 8).

``scoring`` places players and applies uma/oka, ``ratings`` holds the rating systems and the
recomputation from a game list, ``stats`` replays stored action logs for play statistics,
``chart`` draws the rating-over-time picture and ``service`` ties them to the repository.
"""
