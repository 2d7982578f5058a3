#!/usr/bin/env python3
"""A stich-bot/1 program that misbehaves on purpose: ``faultbot.py MODE [PIDFILE]``.

Modes: ``good`` (plays the first legal action, echoing ids), ``crash-start``, ``crash-mid``
(exits at the third act), ``garbage`` (bytes that are neither UTF-8 nor JSON), ``illegal``,
``silent`` (never answers an act), ``flood`` (endless blank lines and logs instead of an
answer), ``megaline`` (a 2 MB line, then the answer), ``closed-stdout`` (closes its output and
stays alive), ``slow-once`` (sleeps through the first act, then answers), ``extra`` (answers
every act five times, four of them late, with the id)).  ``PIDFILE`` receives the program's process id.
"""
import json
import os
import sys
import time

mode = sys.argv[1]
if len(sys.argv) > 2:
    with open(sys.argv[2], "w") as f:
        f.write(str(os.getpid()))


def say(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


if mode == "crash-start":
    sys.stderr.write("faultbot: cannot start\n")
    sys.exit(5)
acts = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        say({"type": "ready", "name": f"faultbot {mode}"})
        continue
    if msg["type"] == "quit":
        break
    if msg["type"] != "act":
        continue
    acts += 1
    answer = {"type": "action", "action": msg["legal"][0], "id": msg["id"]}
    if mode == "crash-mid" and acts == 3:
        sys.stderr.write("faultbot: fell over mid-match\n")
        sys.exit(3)
    elif mode == "garbage":
        sys.stdout.buffer.write(b"\xff\xfe\x00garbage{{{\n")
        sys.stdout.flush()
    elif mode == "illegal":
        say({"type": "action", "action": "play XX", "id": msg["id"]})
    elif mode == "silent":
        time.sleep(60)
    elif mode == "flood":
        chunk = ("\n" * 5000 + json.dumps({"type": "log", "message": "x"}) + "\n") * 20
        while True:
            sys.stdout.write(chunk)
    elif mode == "megaline":
        sys.stdout.write("{" + " " * 2_000_000 + "}\n")
        say(answer)
    elif mode == "closed-stdout":
        sys.stdout.close()
        os.close(1)
        time.sleep(60)
    elif mode == "slow-once" and acts == 1:
        time.sleep(60)
    elif mode == "extra":  # the answer, then four late copies (after the table sent the next act)
        say(answer)
        time.sleep(0.02)
        for _ in range(4):
            say(answer)
    else:
        say(answer)
