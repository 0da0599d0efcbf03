"""What a table's messages say and show, and when each is due.

Content, built from the table's state and the reader's language (no Discord request made here):

* :mod:`.words`: tiles, action labels, rounds, moves, rules, winds, places;
* :mod:`.table`: the channel's status text, the table picture's data, a hand's result, the standings;
* :mod:`.hand`: a player's own hand message (its text, its moment of the game);
* :mod:`.buttons`: every button (data only; ``cogs.play``'s ``DynamicItem``\\ s answer the clicks);
* :mod:`.pictures`: the picture jobs, and the worker program that draws them;
* :mod:`.readers`: each message's language and tile style.

Delivery, through :mod:`bot.outbound` (which knows Discord's budgets and nothing of mahjong):

* :mod:`.presenter`: hears each table update and hands it to
* :mod:`.channel` (the table's channel: results and standings once, the picture folded) and
* :mod:`.hands` (each player's hand message; a click's answer by its one owner, ``HandClick``).
"""
