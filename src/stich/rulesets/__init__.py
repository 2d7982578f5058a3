"""The games: one package per game family (watten, battn, biscambiggia, barbu)."""
