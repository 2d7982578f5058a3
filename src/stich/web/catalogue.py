"""What a create form may offer (``GET /api/games``): the games with their variants and options, the
bots that may sit at a web table for each, and the table settings with their defaults."""

from __future__ import annotations

import stich
from stich.bots import default_bot_name
from stich.web.spec import signal_games


def games_catalogue() -> dict:
    """Games, variants, options and bots for a create form (``GET /api/games``)."""
    from stich.bots import bot_class, bot_names

    out = []
    for name in stich.games():
        try:
            cls = stich.engine.game_class(name)
        except Exception:  # noqa: BLE001 - a game under construction is left out
            continue
        variants = []
        for v in cls.variants:
            try:
                variants.append({"name": v, "players": stich.game(name, v).num_players,
                                 "default": v == cls.default_variant})
            except Exception:  # noqa: BLE001
                continue
        options = []
        for spec in cls.option_specs:
            values = ({"type": "int", "minimum": spec.minimum, "maximum": spec.maximum} if spec.values is int
                      else list(spec.values))
            options.append({"name": spec.name, "values": values, "default": spec.default,
                            "explanation": " — ".join(x for x in (spec.rule, spec.help) if x),
                            "variants": list(spec.variants) if spec.variants else None})
        bots = []
        for b in bot_names():
            try:
                c = bot_class(b)
                if not c.sees_everything and c.supports(name):
                    bots.append(b)
            except Exception:  # noqa: BLE001
                continue
        out.append({"name": name, "title": cls.title or name, "default_variant": cls.default_variant,
                    "variants": variants, "options": options, "bots": bots, "default_bot": default_bot_name(name),
                    "signals": list(cls.signal_words)})
    return {"games": out, "settings": {
        "grace": {"default": 60, "values": "seconds (0 to 86400) or \"never\"",
                  "explanation": "after a human disconnects (or, for a seat nobody has taken, after the table "
                                 "starts), the seat's bot plays for them after this many seconds and hands back "
                                 "when they arrive"},
        "timer": {"default": "off", "values": ["off", "relaxed", "fast"],
                  "explanation": "relaxed: 60 s per decision, fast: 15 s; then the seat's bot moves"},
        "signals": {"default": "off", "values": ["off", "on"],
                    "explanation": "signals between partners, where the game allows them: "
                                   + "; ".join(dict.fromkeys(cls.signals_where for cls in signal_games()))},
        "public": {"default": False, "values": [False, True], "explanation": "listed in the lobby"},
        "bot_delay": {"default": 0, "values": "seconds from 0 to 5",
                      "explanation": "bots wait this long before they move, so people can follow"},
    }, "seat_kinds": ["human", "bot", "bot:NAME", "bot:NAME@BUDGET"]}
