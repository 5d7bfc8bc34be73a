"""Playing friends on their own phones: the host's referee protocol.

Pure Python (no browser import): :mod:`.wire` reads a peer's messages
strictly, :mod:`.deal` makes every round's decks from seeds all phones commit
to and audits a round, :mod:`.host` is the host's table around a
:class:`~chkobba.session.Session`. The transport (WebRTC) is in
``web/online/``; the design and trust model in ``docs/online.md``.
"""

from .deal import audit, commitment, deck, round_seed
from .host import COMPUTER, HOST, REMOTE, HostTable, SeatSpec, TokenBucket, new_secret
from .wire import REACTIONS, VERSION, OnlineError, encode, read

__all__ = ["audit", "commitment", "deck", "round_seed", "HostTable", "SeatSpec", "TokenBucket", "new_secret",
           "HOST", "REMOTE", "COMPUTER", "REACTIONS", "VERSION", "OnlineError", "encode", "read"]
