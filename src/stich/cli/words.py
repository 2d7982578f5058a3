"""The players' own words as input, and the standing orders that spare pointless prompts.

**Regional words.** A player at a Watten table says *bieten*, *schauen*, *gehen*, at a Battn table
*rilancio*, at a Barbu table *contre*: the words the rules and the players' guides (``docs/guides``) give
for each action in German, Italian and French.  :data:`REGIONAL` maps each word to the verbs it may mean
in any game (*bieten* is ``raise`` in Watten and ``bid`` in Biscambiggia; *passa* is ``fold`` in Watten
and ``pass`` in Biscambiggia); a word is accepted when exactly one of those verbs is an action of the
game being played, and refused with the candidates otherwise.  A game package may add its own words
(``INPUT_WORDS``: word -> verb, in its ``"help"`` companion), which win over the table here.  No game is
named here: the verbs decide.

**Standing orders.** The terminal asks only when the player has a real choice.  A raise poll (the
decision whose choices are ``pass`` or raising, as before each opponent's card in Battn) is answered by
the standing order, ``pass`` by default; ``auto ask`` asks at each such poll and at every decision the
rules give the player out of turn; ``auto raise`` (or ``auto VERB`` for another decision without an
argument, e.g. ``auto ask_exchange``) takes that action at the next moment it is legal, on turn or out of
turn, once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stich.engine import member


@dataclass
class Choice:
    """What a line of human input means: kind is action, help, rules, table, hint, autoplay, auto, quit, empty
    or error; ``message``: the help text, the error, ``on``/``off`` for autoplay, or the standing order for
    auto (``pass``, ``ask``, a verb, or empty: show it)."""

    kind: str
    action: str | None = None
    message: str = ""



#: language -> regional word (lower case) -> the verbs it may mean; from the players' guides' tables
BY_LANG: dict[str, dict[str, tuple[str, ...]]] = {
    "de": {   # Watten, Battn, Biscambiggia, Barbu guides
        "bieten": ("raise", "bid"), "biete": ("raise", "bid"), "hoch": ("raise",),
        "halten": ("accept",), "halte": ("accept",), "heben": ("accept",), "schauen": ("accept",),
        "gehen": ("fold",), "geh": ("fold",), "aufgeben": ("fold",),
        "passen": ("pass",), "passe": ("pass",), "weiter": ("pass",),
        "spielen": ("play",), "spiele": ("play",), "abheben": ("cut",), "zeigen": ("show",),
        "schönere": ("ask_exchange",), "schlagtausch": ("ask_swap",),
        "kontrieren": ("double",), "kontra": ("double",), "rekontrieren": ("redouble",), "re": ("redouble",),
        "rufen": ("call",),
    },
    "it": {
        "rilancio": ("raise",), "rilancia": ("raise",), "rilanciare": ("raise",),
        "tengo": ("accept",), "tieni": ("accept",), "tenere": ("accept",), "non vado": ("accept",),
        "passo": ("pass", "fold"), "passa": ("pass", "fold"),
        "vado": ("fold",), "abbandono": ("fold",), "abbandona": ("fold",), "lascio": ("fold",),
        "gioco": ("play",), "gioca": ("play",), "cala": ("play",), "calo": ("play",),
        "taglio": ("cut",), "taglia": ("cut",), "mostra": ("show",),
        "offro": ("bid",), "offri": ("bid",), "chiamo": ("call",), "chiama": ("call",),
        "contro": ("double",), "contra": ("double",), "surcontro": ("redouble",), "surcontra": ("redouble",),
    },
    "fr": {
        "relance": ("raise",), "relancer": ("raise",), "tenir": ("accept",), "tiens": ("accept",),
        "abandonner": ("fold",), "abandonne": ("fold",), "passe": ("pass",), "passer": ("pass",),
        "jouer": ("play",), "joue": ("play",), "couper": ("cut",), "coupe": ("cut",), "montrer": ("show",),
        "enchérir": ("bid",), "enchère": ("bid",), "appeler": ("call",), "appelle": ("call",),
        "contrer": ("double",), "contre": ("double",), "surcontrer": ("redouble",), "surcontre": ("redouble",),
    },
}
#: every regional word, whatever the reader's language (a player may say *bieten* at a French table)
REGIONAL: dict[str, tuple[str, ...]] = {}
for _words in BY_LANG.values():
    for _word, _verbs in _words.items():
        REGIONAL[_word] = tuple(dict.fromkeys(REGIONAL.get(_word, ()) + _verbs))


def _tr(names):
    return names._ if names is not None else (lambda text: text)


def _own_words(game) -> dict[str, tuple[str, ...]]:
    """The game package's own input words (``INPUT_WORDS``: word -> verb or verbs), lower case."""
    own = member(game, "help", "INPUT_WORDS")
    return {str(k).lower(): (v,) if isinstance(v, str) else tuple(v) for k, v in own.items()}


def regional_verbs(word: str, game) -> list[str]:
    """The verbs of ``game`` that ``word`` may mean (one: accepted; several: ambiguous; none: no such word)."""
    word = word.strip().lower()
    verbs = {a.verb for a in game.action_space}
    own = _own_words(game)
    found = own.get(word) or REGIONAL.get(word) or ()
    return [v for v in dict.fromkeys(found) if v in verbs]


def words_for(verb: str, game, lang: str | None = None) -> list[str]:
    """The regional words accepted for ``verb`` in ``game`` (those that mean only it there): the game's own
    and those of ``lang`` (every language's without one, or for English)."""
    table = {**BY_LANG.get(lang, REGIONAL), **_own_words(game)}
    return [w for w in table if regional_verbs(w, game) == [verb]]


def accepted_words(verbs, game, lang: str | None = None) -> str:
    """``raise (bieten, hoch), fold (gehen, …)``: the words accepted for ``verbs``, in ``lang``."""
    parts = []
    for verb in dict.fromkeys(verbs):
        words = words_for(verb, game, lang)
        parts.append(f"{verb} ({', '.join(words)})" if words else verb)
    return ", ".join(parts)


def regional(raw: str, state, legal, names=None):
    """``raw`` with a regional verb replaced by the game's (``bieten`` -> ``raise``, ``gioca eo`` ->
    ``play eo``); the text unchanged when its first word is no regional word or already a verb of the game;
    a ``Choice`` error when the word is ambiguous in this game or no action of it."""
    game = state.game
    low = raw.strip().lower()
    verbs = {a.verb for a in game.action_space}
    head, _sep, rest = low.partition(" ")
    if head in verbs or ":" in head:
        return raw
    for word, tail in ((low, ""), (head, rest)):   # a phrase first ("non vado"), then the first word
        if word in REGIONAL or word in _own_words(game):
            found = regional_verbs(word, game)
            if len(found) == 1:
                return f"{found[0]} {tail}".strip()
            _ = _tr(names)
            if found:
                return Choice("error", message=_("%(word)s can mean %(verbs)s in %(game)s: type the action.")
                              % {"word": repr(word), "verbs": " / ".join(found), "game": game.name}
                              + " " + _("Accepted now: %(words)s.") % {
                                  "words": accepted_words((a.verb for a in legal), game, getattr(names, "lang", None))})
            return Choice("error", message=_("%(word)s is no action of %(game)s.") % {
                "word": repr(word), "game": game.name} + " " + _("Accepted now: %(words)s.") % {
                "words": accepted_words((a.verb for a in legal), game, getattr(names, "lang", None))})
    return raw


#: the answers to the other side's raise: a standing order never gives one
ANSWERS = frozenset({"accept", "fold"})


@dataclass
class Standing:
    """The player's standing orders: ``mode`` answers raise polls (``pass``: pass them, ``ask``: ask at each
    poll and each decision out of turn); ``armed``: verbs to take at the next moment they are legal, once."""

    mode: str = "pass"
    armed: set[str] = field(default_factory=set)

    def due(self, legal) -> str | None:
        """The armed action to take now among ``legal`` (and disarm it), else None.  Never as the answer to
        the other side's raise (``accept``/``fold`` offered): that is a real choice, always asked."""
        if any(a.verb in ANSWERS for a in legal):
            return None
        for act in legal:
            if act.verb in self.armed and act.arg is None:
                self.armed.discard(act.verb)
                return str(act)
        return None

    def describe(self, names=None) -> str:
        _ = _tr(names)
        text = _("raise polls: you pass them") if self.mode == "pass" else _("raise polls: you are asked")
        if self.armed:
            text += "; " + _("at your next chance: %(verbs)s") % {"verbs": ", ".join(sorted(self.armed))}
        return text


def is_raise_poll(legal) -> bool:
    """Whether ``legal`` is a raise poll: exactly ``pass`` or ``raise``, where the sensible answer is nearly
    always ``pass`` (Battn's manual mode adds ``misraise`` to the poll: then it is asked, as that mode wants)."""
    return {a.verb for a in legal} == {"pass", "raise"}


def standing_choice(args: list[str], state, names=None):
    """``auto``, ``auto pass``, ``auto ask``, ``auto raise``, ``auto VERB``, ``auto off``: a Choice."""
    _ = _tr(names)
    if not args:
        return Choice("auto", message="")
    if len(args) == 1 and args[0] in ("pass", "ask", "off"):
        return Choice("auto", message=args[0])
    # (an answer to a raise is never armed: due() would never take it)
    verbs = {a.verb for a in state.game.action_space if a.arg is None} - {"pass", "wait"} - ANSWERS
    word = " ".join(args)
    found = [word] if word in verbs else [v for v in regional_verbs(word, state.game) if v in verbs]
    if len(found) == 1:
        return Choice("auto", message=found[0])
    takeable = sorted(v for v in verbs if v == "raise" or v.startswith("ask_"))
    return Choice("error", message=" ".join((
        _("'auto pass': pass raise polls; 'auto ask': be asked; 'auto off': forget what you armed;"),
        _("'auto ACTION' takes it at your next chance, for %(verbs)s.") % {
            "verbs": ", ".join(takeable or sorted(verbs))})))
