"""Score sheets of games played at a real table (``/sheet``).

:mod:`bot.sheet.service` keeps the sheets (stored entries, replayed by :mod:`engine.sheet`, the
game recorded in the standings at its end); :mod:`bot.sheet.text` words what a sheet shows and
what an entry changed. The commands are in ``cogs/sheet.py``.
"""
