"""Tournaments (docs/tournaments.md): a director's evening of rounds, each round a set of tables.

Pure parts, tested on their own: :mod:`.rules` (what a request to create one means), :mod:`.draw`
(who sits where: a drawn round, a swiss round, a duplicate round's seats), :mod:`.scoring` (a table's
result from its record, the standings and their tie-breaks).  :mod:`.schema` holds the tables of the
database, :mod:`.stored` a tournament as read from it, :mod:`.keys` the director's key and the people's
tokens, :mod:`.service` the work against it (the API in ``stich.web.tournaments``)."""
