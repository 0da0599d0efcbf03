"""The way out to Discord, within its budgets; it knows nothing of mahjong (and imports nothing of
the engine, the tables or the views).

* :mod:`.pacing`: at most N requests in a window (per channel, per token), at most N pieces of work
  at once, the most urgent first;
* :mod:`.folding`: a message many updates change is edited once per interval, with the newest state;
* :mod:`.workers`: the worker-process pool that draws pictures;
* :mod:`.delivery`: a message's state as the answer to a click, or through an interaction token;
* :mod:`.courier`: requests on the bot's token (channels, DMs, plain posts cut to Discord's length).

What a message says and shows is built by :mod:`bot.views`; which message is due when is decided
there too (:mod:`bot.views.presenter`).
"""
