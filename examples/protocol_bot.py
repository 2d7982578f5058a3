#!/usr/bin/env python3
"""A complete stich-bot/1 program: plays the first legal card it sees, else the first legal action.

Seat it with `stich play watten --bots "cmd:python3 examples/protocol_bot.py"` or in the arena.
"""
import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "first-card"}), flush=True)
    elif msg["type"] == "act":
        plays = [a for a in msg["legal"] if a.startswith("play ")]
        # echoing the request's id lets the table drop a late answer; a bot may leave it out
        print(json.dumps({"type": "action", "action": (plays or msg["legal"])[0], "id": msg["id"]}), flush=True)
    elif msg["type"] == "quit":
        break
