"""Several bot processes on one token and one database: who acts for a table, how a click that
arrives at the wrong process reaches the right one, the token's 50 requests/s shared by all, and
results posted once (README, "Running at scale").

The design:

* **Ownership** (:mod:`.ownership`). A table belongs to the process holding its guild's shard,
  ``(guild_id >> 22) % shard_count``. Only that process acts for the table, runs its clocks and
  posts its results and final standings; its in-memory ``Game`` stays the truth beside the stored
  log, exactly as in one process. Discord already sends a guild's slash commands and channel
  buttons only to that shard, so most clicks need nothing.
* **Forwarding** (:mod:`.forward`, :mod:`.route`). Discord sends every DM, the buttons of the hand
  messages included, only to shard 0. The process holding shard 0 looks up the table's guild and,
  when another process owns it, publishes the raw interaction (its hidden content stripped) on the
  owner's Redis channel. The owner claims the interaction (``SET NX``), acknowledges it and runs it
  through discord.py as if it had come off its own gateway; the answer is the interaction
  callback, plain HTTP that any process may send with the interaction's id and token. When no
  owner takes it in ``patience`` (no subscriber, a process that is down or hung), the receiver
  claims it instead and answers with one sentence ("the table is moving to another process, try
  again in a moment") well before Discord's 3 s. The same claim decides between owner and
  receiver, so a click is answered exactly once even when the owner wakes up late.
* **The token's budget** (:mod:`.budget`). One Redis sorted set per token (keyed by the token's
  hash) holds the requests of the last second, by Redis's clock, taken and counted by an atomic
  Lua script; every bot-token request of every process awaits it. A request is counted while it
  is under way and for a second after it ends, so the arrivals Discord sees never exceed the
  limit in any second. When Redis does not answer, each process keeps to a configured share
  (its shards' part of the budget: 50/N for N equal processes) and says so once in its log.
* **Once only** (:mod:`.once`). The timer dispatcher claims each clock's move (``clock_key``)
  before playing it. Results and final standings need no claim: only the owner holds the table,
  each post is followed by its stored counter (``results_posted``, ``final_posted``), and each
  carries a nonce per table and hand with Discord's ``enforce_nonce``; ``result_key`` and
  ``final_key`` stay for a design where any process could post.

Where the bot calls this (``bot/client.py``): ``Node.open``/``attach`` when Redis is named and the
process holds part of the shards; the table service's restore, clocks and look-ups by number keep
to the owned servers (:attr:`bot.tables.restore.Restore.shards`, a SQL filter on the shard), and the
league's deadlines likewise.

Why this and not the alternatives:

* *Any process acts under a per-table lock, the database the truth.* Every click would reload or
  re-check the game from PostgreSQL (the in-memory game of a process is stale the moment another
  one acts), the clocks would need a lock of their own, and the AI seats' moves would race
  between processes. Owning by shard keeps today's one-process code path (one ``asyncio.Lock``
  per table, the game in memory) and adds one hop only for DM clicks.
* *PostgreSQL LISTEN/NOTIFY instead of Redis.* It would spare one service, but a NOTIFY goes out
  only at commit, its payload must stay under 8,000 bytes (a hand message's interaction, with its 25 buttons,
  comes near that),
  and it does not tell the sender whether anyone is listening; ``PUBLISH`` returns the number of
  subscribers, so a click for a dead owner is answered at once. Redis also gives the atomic
  scripts the limiter needs at a few hundred microseconds a call.
* *A Redis stream per shard with consumer acks instead of pub/sub.* A stream keeps messages for a
  subscriber that is away, which is what a job queue wants and what a click must not have: an
  interaction is worth answering for 3 s, so a restarted owner replaying clicks from before its
  death would make moves whose players were already told to try again. Pub/sub loses exactly
  those messages, and the receiver's claim covers the loss.
* *An HTTP proxy holding the token's limits* (twilight-http-proxy; nirn-proxy, which Dyno runs).
  twilight-http-proxy is one process every request goes through: the single point of failure
  this issue removes. nirn-proxy clusters (memberlist gossip) and keeps each token's global
  bucket on one node chosen by hashing the token, which the others ask before every request;
  our Redis key plays that node's part without a service of our own. A proxy also cannot tell
  a hand from a table picture; the bot's own pacing (hands first) stays in front of the budget.
* *A fixed split of the 50/s* (each process 50/N): simple and needs nothing shared, but an idle
  process's share is lost to a busy one. It is the fallback here, not the rule.
* RoboDanny and Red run one ``AutoShardedBot`` process (Red does not support several processes;
  discord.py's maintainers leave inter-process coordination to the bot), so neither has an
  answer for this part; both keep their state in one database, as Jantaku does.

Limits: a process that dies after claiming a click and before answering leaves that click
unanswered ("This interaction failed"); a result posted by a process that dies before marking
it done is posted again by the next owner unless Discord's ``enforce_nonce`` catches it (the
posts carry a nonce per table and hand). Ownership follows the shard settings of each process:
two processes started with overlapping shard ranges both think they own a table, and only the
database's refusal of a second action with the same serial keeps the game whole.
"""
