"""Raindropchess Companion: the core (rules, cards, game session, notation, sensing).

The core never imports Kivy or OpenCV; the app (``ui``) and the camera reader
(``vision``) build on it.
"""

__version__ = "0.1.0"
