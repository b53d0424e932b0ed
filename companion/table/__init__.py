"""Playing against the companion at the table, for every game.

One core for Raindropchess and the abstract games, shared by the terminal and the app:

- :mod:`~companion.table.seats`: who sits where (each seat a person or the companion at
  a level) and the hint limit, written to the journal's header and the record;
- :mod:`~companion.table.budget`: the companion's time for a turn, cut when its clock is
  short;
- :mod:`~companion.table.words`: every sentence the companion says (its turns, flips,
  check, the verdict, hints), the same on the screen and in speech;
- :mod:`~companion.table.tables`: what the runner needs of a session (the
  :class:`~companion.table.tables.TableGame` protocol) and its two adapters, for a
  Raindropchess :class:`~companion.game.Game` and an abstract game's
  :class:`~companion.games.session.GameSession`;
- :mod:`~companion.table.runner`: the companion's turn runner: it thinks off the
  caller's thread, applies its turn through the session's public API on the caller's
  thread, answers draw offers, takes back a person's turn with its reply (undo pairs),
  and gives hints under the limit; its events are frozen dataclasses
  (:mod:`~companion.table.events`);
- :mod:`~companion.table.hints`: the hint limit and what a hint shows;
- :mod:`~companion.table.review`: the review after the game (the estimate after each
  turn, each turn marked by the chance it gave away, the better turn);
- :mod:`~companion.table.speech`: speaking the sentences (a ``Speaker`` protocol, a
  fake one for tests, the desktop's pyttsx3, silence with a reason);
- :mod:`~companion.table.lead`: a sensing board follows the companion's turns (the
  players make them on the board, guided until it shows them).

The companion only ever sees public positions: in Raindropchess it flips its own card
from the game's virtual deck through the game's API, as a person pressing flip does.
"""
