"""The companion as an opponent: engines that choose a turn, for every game.

This package holds what every engine shares, whatever the game:

- :mod:`~companion.engine.levels`: the five levels and their time caps;
- :mod:`~companion.engine.contract`: the frozen values an engine returns
  (:class:`~companion.engine.contract.Analysis`, its ranked candidates), the
  search budget, and the :class:`~companion.engine.contract.Engine` protocol;
- :mod:`~companion.engine.thinker`: a search run off the caller's thread,
  stoppable at once, reporting progress;
- :mod:`~companion.engine.registry`: which engine plays a position text
  (an abstract game's position, or a Raindropchess RFEN);
- :mod:`~companion.engine.words`: an estimate said in words;
- :mod:`~companion.engine.mcts`: the generic tree search (PUCT with priors,
  progressive widening, a solver for proven results), knowing no game;
- :mod:`~companion.engine.bots`: what a game hands the search (its bot, in
  ``companion/games/<game>/bot.py``) and how a level plays;
- :mod:`~companion.engine.abstract`: the engine of Dropper, Rumbo, Raindrops
  and Crumble, the search with each game's bot.

Engines see only public positions (text); they never get a sealed deck order.
"""
