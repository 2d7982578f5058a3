"""Barbu at the terminal: its events as sentences, its view as rows, seats 1-based throughout."""

import io

import stich
from stich.cli.render import action_lines, make_console, view_table
from stich.narration import describe_event

from .helpers import CardNames as Names  # the cards in the game's language, the reader's words in English


def _start(contract: str, seed: int = 2):
    """Deal 1 of a match whose first caller is seat 1 (P0): ``contract`` declared."""
    state = stich.game("barbu").new_state(seed=seed, first_caller=0)
    state.apply(f"contract {contract}")
    return state


def _table_text(view, names) -> str:
    console = make_console(file=io.StringIO(), width=200)
    console.print(view_table(view, names))
    return console.file.getvalue()


def test_declaration_and_doubling_read_as_sentences():
    state = _start("TRUMPS S")
    n = Names(state.game, "en", human=1)
    caller, contract = [ev for _aud, ev in state.events if ev["type"] in ("caller", "contract")]
    assert describe_event(caller, n).startswith("Seat 1 is the caller (deal 1 of 7 as caller); contracts left: ")
    assert describe_event(contract, n) == "[bold]Seat 1 declares TRUMPS, trumps S (Spades)[/bold]"
    state.apply("double 1")   # P1 (seat 2, the human) doubles the caller
    new = [ev for _aud, ev in state.events[-1:]]
    assert action_lines(1, "double 1", new, n) == ["You double Seat 1"]
    state.apply("pass")
    assert action_lines(2, "pass", [state.events[-1][1]], n) == ["Seat 3 passes"]


def test_businesses_and_results_name_seats_from_one():
    state = _start("NO_TRICKS", seed=5)
    for text in ("double 1 3 4", "double 1 4", "pass", "redouble 2 3"):
        state.apply(text)
    n = Names(state.game, "en", human=None)
    view = state.view(None)
    assert view["businesses"] == [[0, 1, 2], [0, 2, 2], [1, 2, 1], [1, 3, 1], [2, 3, 1]]
    text = _table_text(view, n)
    assert ("Seat 1 × Seat 2 (redoubled), Seat 1 × Seat 3 (redoubled), Seat 2 × Seat 3 (doubled), "
            "Seat 2 × Seat 4 (doubled), Seat 3 × Seat 4 (doubled)") in text
    assert "Block position" not in text and "Available contracts" not in text and "Domino log" not in text
    while state.hand_number == 1:
        state.apply(state.legal_actions()[0])
    result = next(ev for _aud, ev in state.events if ev["type"] == "deal_result")
    line = describe_event(result, n)
    assert line.startswith("[bold]Deal 1 (NO_TRICKS, called by Seat 1): contract points Seat 1 ")
    assert "; doubling " in line and "; total " in line
    total = [int(x.split()[-1]) for x in line.split("; total ")[1].removesuffix("[/bold]").split(", ")]
    assert total == result["final"] and sum(total) == -26   # NO_TRICKS deals out -26 in all


def test_domino_lines_and_layout():
    state = _start("DOMINO 7")
    for _ in range(4):
        state.apply("double 1" if state.current_player == 1 else "pass")
    n = Names(state.game, "en", human=0)
    assert state.current_player == 0   # the caller opens the domino
    act = str(state.legal_actions()[0])
    state.apply(act)
    new = [ev for _aud, ev in state.events if ev["type"].startswith("domino")][-1:]
    lines = action_lines(0, act, new, n)
    layout = {s: "—" for s in "SHDC"}
    if act == "pass":
        assert lines == ["You pass (no card fits)"]
    else:
        card = act.split()[1]
        assert lines == [f"[bold]You[/bold]: {n.action(act)}"]   # the domino_play event is its echo
        layout[card[0]] = "7"
    assert "Layout  " in (text := _table_text(state.view(0), n))
    assert " · ".join(f"{s} {v}" for s, v in layout.items()) in text
