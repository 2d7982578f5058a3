"""Cards, decks and the one card notation used everywhere in stich.

A card is a small integer (its index in its deck); a set of cards is a bitmask
(bit ``i`` set = card ``i`` present).  Every card has one canonical text code:

    <suit><rank>      suit code first, then rank code, no separator

* German (Watten):       suits ``H S E L`` (Herz, Schellen, Eichel, Laub),
                         ranks ``7 8 9 10 U O K A``; the Weli is ``S6``.
* Sappadine / Italian:   suits ``Po St Ra Sc`` (Porcini, Stelle Alpine, Rastrelli, Sci),
                         ranks ``A K N J 7 6 5 4 3 2`` (N = Cavallo / Minatore con Camoscio).
* Genoese 40:            suits ``H D C S``, ranks ``A 2 3 4 5 6 7 J Q K``.
* French 52:             suits ``S H D C``, ranks ``2 3 4 5 6 7 8 9 10 J Q K A``.

Parsing is lenient so that every rules file's own notation is accepted: case does not
matter, suit and rank may come in either order, a ``-`` may separate them, ``T`` means
10, and ``W`` / ``Weli`` is the Weli.  ``H-K``, ``k-h``, ``KH`` and ``hk`` are all ``HK``;
``K-Po`` is ``PoK``; ``TH`` and ``10h`` are ``H10``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from stich.errors import MalformedActionError

__all__ = ["Deck", "DECKS", "MaskLists", "bits", "deck", "iter_bits", "popcount"]


def iter_bits(mask: int):
    """Yield the indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask`` as a list, lowest first (no generator: the search's
    hot loops call it per card)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: :func:`bits_of`'s answers by mask (bounded: cleared when it holds :data:`BITS_CACHE` masks)
_BITS: dict[int, tuple[int, ...]] = {}
BITS_CACHE = 1 << 18


def bits_of(mask: int) -> tuple[int, ...]:
    """:func:`bits` as a tuple, remembered by mask: the playouts and solves ask for the legal cards
    of the same few hands again and again (a dictionary lookup for a loop per card)."""
    out = _BITS.get(mask)
    if out is None:
        if len(_BITS) >= BITS_CACHE:
            _BITS.clear()
        out = _BITS[mask] = tuple(bits(mask))
    return out


class MaskLists:
    """The one way a game turns a mask of cards into its actions: ``lists(mask)`` is a new list of
    ``items[c]`` for every set bit ``c`` of ``mask``, lowest first, and with ``extra`` given, bit
    ``extra_bit`` (just above the last chunk) appends ``extra`` (e.g. a ``raise`` after the cards).

    The mask is cut into chunks of ``width`` bits (choose the suit length when suits are contiguous
    in the deck, so that chunk ``s`` is suit ``s``); each chunk has a table of the item lists of its
    bit patterns, filled lazily as patterns are met (``eager`` fills them at once) and shared by every
    state of a game, never mutated once filled.  A dict of whole masks misses too often (a 5-card hand
    has ~300,000 possible masks) and a loop over the bits costs more.

    Hot paths may read a chunk's table directly: ``tables[k][sub] or chunk(k, sub)`` is the list of
    the ``width``-bit pattern ``sub`` of chunk ``k`` (a led suit's cards, say) without a copy, and
    with ``eager`` every pattern of the items is filled, so ``tables[k][sub]`` alone is enough (a
    hot path may then inline the lookups without a call); ``lists.of`` is the call itself as a plain
    function (a little cheaper to call than the object).
    """

    __slots__ = ("items", "extra", "width", "eager", "tables", "halves", "extra_bit", "of")

    def __init__(self, items, extra=None, width: int = 11, eager: bool = False):
        items = tuple(items)
        if not 2 <= width <= 16:
            raise ValueError(f"MaskLists chunk width must be 2..16 bits, not {width}")
        k = max(1, -(-len(items) // width))
        if k > 6:
            raise ValueError(f"MaskLists handles up to 6 chunks ({6 * width} items of width {width})")
        self.items = items
        self.extra = extra
        self.width = width
        self.eager = eager
        self.extra_bit = 1 << (k * width)
        # The top chunk holds every bit above the others, the extra bit included (a clear error
        # in chunk() when there is no extra item).
        self.tables = tuple([[]] + [None] * ((1 << (width + (i == k - 1))) - 1) for i in range(k))
        self.halves = [None] * k
        self.of = _mask_lists_function(self.tables, width, self.chunk)
        if eager:   # every pattern of each chunk's own items (with the extra bit, if given)
            for i, table in enumerate(self.tables):
                subsets = _subset_lists(items[i * width:i * width + width])
                table[:len(subsets)] = subsets
                if extra is not None and i == k - 1:
                    for sub, lst in enumerate(subsets):
                        table[sub | 1 << width] = lst + [extra]

    def __call__(self, mask: int) -> list:
        return self.of(mask)

    def __reduce__(self):   # the generated function does not pickle: build the tables again
        return (MaskLists, (self.items, self.extra, self.width, self.eager))

    def chunk(self, k: int, sub: int) -> list:
        """The (shared, never mutated) list of the bit pattern ``sub`` of chunk ``k``, filling its
        table entry if needed: from the subset lists of the chunk's low and high half (built once
        per chunk, 2 x 2**(width/2) small lists), so that a miss costs one concatenation."""
        lst = self.tables[k][sub]
        if lst is None:
            halves = self.halves[k]
            if halves is None:
                w, lo = self.width, self.width // 2
                mine = self.items[k * w:k * w + w]
                halves = self.halves[k] = (_subset_lists(mine[:lo]), _subset_lists(mine[lo:]), lo)
            low, high, lo = halves
            lst = low[sub & ((1 << lo) - 1)] + high[sub >> lo & ((1 << (self.width - lo)) - 1)]
            if sub >> self.width:   # only the top chunk reaches extra_bit
                if self.extra is None:
                    raise ValueError("extra bit set but no extra item")
                lst.append(self.extra)
            self.tables[k][sub] = lst
        return lst


def _subset_lists(items) -> list[list]:
    """Index ``m``: the items whose bit is set in ``m``, in order (all ``2 ** len(items)`` of them)."""
    table = [[]]
    for x in items:
        table += [t + [x] for t in table]
    return table


def _mask_lists_function(tables, width: int, chunk):
    """``of(mask)`` for ``len(tables)`` chunks of ``width`` bits, written out (generated, as
    dataclasses does) so that the hot path is straight-line lookups: the lowest chunks of a wide
    mask are read from a small int (at most 30 bits, one CPython digit), which is cheaper to shift."""
    k = len(tables)
    make = _MAKERS.get((k, width))
    if make is None:
        make = _MAKERS[k, width] = _mask_lists_maker(k, width)
    return make(*tables, chunk)


_MAKERS: dict = {}   # (chunks, width) -> the compiled maker: compiled once per process


def _mask_lists_maker(k: int, width: int):
    names = [f"x{i}" for i in range(k)]
    m = (1 << width) - 1
    per = max(1, 30 // width)   # chunks per small-int piece
    lines = []
    for start in range(0, k, per):
        stop = min(k, start + per)
        shift = f" >> {start * width}" if start else ""
        if stop == k:   # the top piece: every bit that is left
            lines.append(f"p = mask{shift}")
        else:
            lines.append(f"p = mask{shift} & {(1 << ((stop - start) * width)) - 1}")
        for i in range(start, stop):
            sh = (i - start) * width
            expr = f"p >> {sh}" if sh else "p"
            if i < stop - 1:   # the piece's last chunk has only its own bits left
                expr += f" & {m}"
            lines.append(f"x{i} = t{i}[{expr}]")
    check = " or ".join(f"x{i} is None" for i in range(k))
    fills = ", ".join(f"chunk({i}, mask >> {i * width}" + (f" & {m})" if i < k - 1 else ")") for i in range(k))
    lines.append(f"if {check}:")
    lines.append(f"    {', '.join(names)}{',' if k == 1 else ''} = {fills}{',' if k == 1 else ''}")
    lines.append(f"return [{', '.join('*' + x for x in names)}]")
    src = (f"def make({', '.join(f't{i}' for i in range(k))}, chunk):\n    def of(mask):\n"
           + "".join(f"        {line}\n" for line in lines) + "    return of\n")
    ns: dict = {}
    exec(src, ns)
    return ns["make"]


def popcount(mask: int) -> int:
    """Number of cards in a bitmask."""
    return mask.bit_count()


@dataclass(frozen=True, eq=False)
class Deck:
    """A deck: its cards in a fixed order, their codes and their names.

    ``suit_codes`` / ``rank_codes`` are in the deck's natural order (ranks low to high
    as listed); ``cards`` is a tuple of (suit_index, rank_index) pairs.
    """

    name: str
    suit_codes: tuple[str, ...]
    rank_codes: tuple[str, ...]
    cards: tuple[tuple[int, int], ...]
    suit_names: dict[str, tuple[str, ...]]  # language -> names per suit
    rank_names: dict[str, tuple[str, ...]]  # language -> names per rank
    name_pattern: dict[str, str]  # language -> "{rank} {suit}" style pattern
    special_names: dict[str, dict[int, str]] = field(default_factory=dict)
    aliases: dict[str, int] = field(default_factory=dict)

    def __post_init__(self):
        codes = tuple(self.suit_codes[s] + self.rank_codes[r] for s, r in self.cards)
        lookup: dict[str, int] = {}
        for i, (s, r) in enumerate(self.cards):
            su, ra = self.suit_codes[s].lower(), self.rank_codes[r].lower()
            variants = {su + ra, ra + su, su + "-" + ra, ra + "-" + su}
            if ra == "10":
                variants |= {su + "t", "t" + su, su + "-t", "t-" + su}
            for v in variants:
                lookup[v] = i
        for alias, i in self.aliases.items():
            lookup[alias.lower()] = i
        object.__setattr__(self, "codes", codes)
        object.__setattr__(self, "_lookup", lookup)
        object.__setattr__(self, "full_mask", (1 << len(self.cards)) - 1)
        # codes_of is called for every deal's event (in lean states too: the arguments of emit are
        # evaluated before it discards them): a table lookup per 11 cards instead of a loop per card
        object.__setattr__(self, "_code_lists", MaskLists(codes))   # (the object pickles; its .of does not)

    def __len__(self) -> int:
        return len(self.cards)

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {len(self.cards)} cards)"

    # --- notation -------------------------------------------------------------------
    def code(self, card: int) -> str:
        """The canonical code of a card, e.g. ``EO``."""
        return self.codes[card]

    def parse(self, text: str) -> int:
        """The card index for a code in any accepted spelling; a clear error otherwise."""
        key = str(text).strip().lower().replace(" ", "")
        try:
            return self._lookup[key]
        except KeyError:
            raise MalformedActionError(
                f"{text!r} is not a card of the {self.name} deck "
                f"(cards are written suit+rank, e.g. {self.codes[0]!r} or {self.codes[-1]!r})"
            ) from None

    def is_card(self, text: str) -> bool:
        """Whether ``text`` names a card of this deck."""
        return str(text).strip().lower().replace(" ", "") in self._lookup

    def mask(self, codes) -> int:
        """A bitmask from an iterable of card codes (or indices)."""
        m = 0
        for c in codes:
            m |= 1 << (c if isinstance(c, int) else self.parse(c))
        return m

    def codes_of(self, mask: int) -> list[str]:
        """The codes of the cards in a bitmask, in deck order (a new list)."""
        return self._code_lists.of(mask)

    # --- card properties --------------------------------------------------------------
    def suit(self, card: int) -> int:
        return self.cards[card][0]

    def rank(self, card: int) -> int:
        return self.cards[card][1]

    def suit_mask(self, suit: int) -> int:
        """All cards of one suit."""
        m = 0
        for i, (s, _r) in enumerate(self.cards):
            if s == suit:
                m |= 1 << i
        return m

    def rank_mask(self, rank: int) -> int:
        """All cards of one rank."""
        m = 0
        for i, (_s, r) in enumerate(self.cards):
            if r == rank:
                m |= 1 << i
        return m

    def find(self, suit: int, rank: int) -> int | None:
        """The index of the card of this suit and rank, or None."""
        try:
            return self.cards.index((suit, rank))
        except ValueError:
            return None

    def long_name(self, card: int, lang: str = "en") -> str:
        """The card's long name in a language (``en``, ``de``, ``it``, ``fr``)."""
        special = self.special_names.get(lang, {}).get(card)
        if special:
            return special
        if lang not in self.suit_names:
            lang = "en"
        s, r = self.cards[card]
        name = self.name_pattern[lang].format(suit=self.suit_names[lang][s], rank=self.rank_names[lang][r])
        if lang == "fr":   # French elides "de" before a vowel: "quatre d'edelweiss"
            name = re.sub(r"\bde ([aeiouyéèê])", r"d'\1", name)
        return name


def _german(with_weli: bool) -> Deck:
    suits = ("H", "S", "E", "L")
    ranks = ("6", "7", "8", "9", "10", "U", "O", "K", "A")
    cards = [(s, r) for s in range(4) for r in range(1, 9)]
    special = {}
    aliases = {}
    if with_weli:
        cards.insert(8, (1, 0))  # S6 sits just before the other Schellen cards' block end
        cards.sort()
        weli = cards.index((1, 0))
        special = {"de": {weli: "Weli"}, "it": {weli: "Weli"}, "en": {weli: "Weli (Schellen 6)"},
                   "fr": {weli: "Weli (six de grelots)"}}
        aliases = {"w": weli, "weli": weli, "welli": weli}
    return Deck(
        "german33" if with_weli else "german32",
        suits,
        ranks,
        tuple(cards),
        {
            "en": ("Hearts", "Bells", "Acorns", "Leaves"),
            "de": ("Herz", "Schellen", "Eichel", "Laub"),
            "it": ("cuori", "palloni", "ghiande", "foglie"),
            # the French names of the German suits, as docs/guides/watten.fr.md gives them
            "fr": ("cœur", "grelots", "glands", "feuilles"),
        },
        {
            "en": ("6", "7", "8", "9", "10", "Unter", "Ober", "King", "Ace"),
            "de": ("Sechs", "Sieben", "Acht", "Neun", "Zehn", "Unter", "Ober", "König", "Ass"),
            "it": ("sei", "sette", "otto", "nove", "dieci", "sottufficiale", "ufficiale", "re", "asso"),
            # Unter and Ober keep their German names in French too (the guide: "l'Ober de feuilles")
            "fr": ("six", "sept", "huit", "neuf", "dix", "Unter", "Ober", "roi", "as"),
        },
        {"en": "{suit} {rank}", "de": "{suit}-{rank}", "it": "{rank} di {suit}", "fr": "{rank} de {suit}"},
        special,
        aliases,
    )


def _italian40() -> Deck:
    # Le Sappadine (Battn): ranks low -> high in natural code order 2..7 J N K A.
    suits = ("Po", "St", "Ra", "Sc")
    ranks = ("2", "3", "4", "5", "6", "7", "J", "N", "K", "A")
    return Deck(
        "sappadine40",
        suits,
        ranks,
        tuple((s, r) for s in range(4) for r in range(10)),
        {
            "it": ("Porcini", "Stelle Alpine", "Rastrelli", "Sci"),
            "en": ("Porcini", "Edelweiss", "Hay rakes", "Skis"),
            "de": ("Steinpilze", "Edelweiß", "Rechen", "Ski"),
            # docs/guides/battn.fr.md: cèpes, edelweiss, râteaux à foin, skis (the seasons of Sappada)
            "fr": ("cèpes", "edelweiss", "râteaux", "skis"),
        },
        {
            "it": ("2", "3", "4", "5", "6", "7", "Holzhockar", "Minatore con Camoscio", "Rollate", "Asso"),
            "en": ("2", "3", "4", "5", "6", "7", "Woodcutter (Jack)", "Miner (Knight)", "Rollate (King)", "Ace"),
            "de": ("2", "3", "4", "5", "6", "7", "Holzhockar (Bube)", "Bergmann (Reiter)", "Rollate (König)", "Ass"),
            "fr": ("deux", "trois", "quatre", "cinq", "six", "sept", "Holzhockar (valet)", "Minatore (cavalier)",
                   "Rollate (roi)", "as"),
        },
        {"it": "{rank} di {suit}", "en": "{rank} of {suit}", "de": "{suit} {rank}", "fr": "{rank} de {suit}"},
        aliases={},
    )


def _genoese40() -> Deck:
    suits = ("H", "D", "C", "S")
    ranks = ("2", "3", "4", "5", "6", "7", "J", "Q", "K", "A")
    return Deck(
        "genoese40",
        suits,
        ranks,
        tuple((s, r) for s in range(4) for r in range(10)),
        {
            "it": ("cuori", "quadri", "fiori", "picche"),
            "en": ("Hearts", "Diamonds", "Clubs", "Spades"),
            "de": ("Herz", "Karo", "Kreuz", "Pik"),
            "fr": ("cœur", "carreau", "trèfle", "pique"),   # the Genoese pattern is French-suited
        },
        {
            "it": ("2", "3", "4", "5", "6", "7", "fante", "donna", "re", "asso"),
            "en": ("2", "3", "4", "5", "6", "7", "Jack", "Queen", "King", "Ace"),
            "de": ("2", "3", "4", "5", "6", "7", "Bube", "Dame", "König", "Ass"),
            "fr": ("deux", "trois", "quatre", "cinq", "six", "sept", "valet", "dame", "roi", "as"),
        },
        {"it": "{rank} di {suit}", "en": "{rank} of {suit}", "de": "{suit} {rank}", "fr": "{rank} de {suit}"},
    )


def _french52() -> Deck:
    suits = ("S", "H", "D", "C")
    ranks = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    num = ("2", "3", "4", "5", "6", "7", "8", "9", "10")
    return Deck(
        "french52",
        suits,
        ranks,
        tuple((s, r) for s in range(4) for r in range(13)),
        {
            "en": ("Spades", "Hearts", "Diamonds", "Clubs"),
            "fr": ("pique", "cœur", "carreau", "trèfle"),
            "it": ("picche", "cuori", "quadri", "fiori"),
            "de": ("Pik", "Herz", "Karo", "Kreuz"),
        },
        {
            "en": num + ("Jack", "Queen", "King", "Ace"),
            "fr": num + ("valet", "dame", "roi", "as"),
            "it": num + ("fante", "donna", "re", "asso"),
            "de": num + ("Bube", "Dame", "König", "Ass"),
        },
        {"en": "{rank} of {suit}", "fr": "{rank} de {suit}", "it": "{rank} di {suit}", "de": "{suit} {rank}"},
    )


DECKS: dict[str, Deck] = {
    d.name: d for d in (_german(False), _german(True), _italian40(), _genoese40(), _french52())
}


def deck(name: str) -> Deck:
    """A deck by name: ``german32``, ``german33``, ``sappadine40``, ``genoese40``, ``french52``."""
    try:
        return DECKS[name]
    except KeyError:
        raise ValueError(f"unknown deck {name!r}; decks are {', '.join(DECKS)}") from None
