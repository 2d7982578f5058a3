"""What a game's package builds its companions on: the mechanisms of the roles it fills.

A game declares its companion modules in ``Game.companions`` (checked by
:mod:`stich.engine.roles`) and keeps them in its own package (``stich.rulesets.<game>.heuristic``,
``.kernel``, ``.encoding``).  Those modules build on the helpers here - the heuristic's action
texts and trick play (:mod:`stich.roles.heuristic`), the fast card-play path's :class:`Kernel`
base (:mod:`stich.roles.kernel`), the encoders' blocks and layouts (:mod:`stich.roles.encoding`) -
which therefore sit below the games, not in the bots or encoding layers that call the companions:
a game's package must not import those layers, and imports point down.

Nothing is imported here: a game's rules load without numpy, and a companion loads its base
only when the caller asks for the companion.
"""
