"""The phases of a Battn state (the decision the seat to act faces), in a module of their own
so that the state and the position set-up (position.py) both read them without importing each other."""

# Phases (the decision the current player faces).
OVER, ORBI, CUT, CUT2, SCHE_ASK, SCHE_ANSWER, SCHLOK, TRUMPF, PREPLAY, POLL, MOVE, RESPOND = range(12)
PHASE_NAMES = ("over", "orbi", "cut", "second_cut", "scheanara", "scheanara_answer", "schlok", "trumpf",
               "preplay", "raise_poll", "play", "raise_response")
BOTH = -1            # raise right held by both teams (BT-14.3)
