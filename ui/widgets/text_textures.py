"""Labels whose text is rendered anew onto a new texture, never into the one the last
frames drew.

Kivy renders a label's new text into the texture it already has when the size is the
same (a message bar, a move list, a name line). The GL driver must then wait, before
writing it, until every frame already drawn with that texture is finished. A GPU is done
with the last frame in a millisecond or two; software GL (Mesa's llvmpipe, on a desktop
with no GPU and in the headless tests) rasterises on threads of its own a frame or more
behind, so the first label rendered anew in a frame waited for them: 0.1 to 2 s on two
busy cores, the long frames of ``benchmarks/bench_app_frames.py``. A new texture waits for
nothing, and the old one is freed once nothing draws it (what GL programmers call
orphaning). Rendering the text itself costs the same.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.uix.label import Label

LOGGER = logging.getLogger(__name__)


def use_fresh_textures() -> None:
    """From now on, every Label (and so every Button) renders a new text onto a new
    texture. Call before the first label is made (their render trigger is bound when
    they are); calling again changes nothing."""
    current = Label.texture_update
    if getattr(current, "fresh_texture", False):
        return

    def texture_update(self: Label, *args: Any) -> None:
        self._label.texture = None   # the core label makes a new one in refresh()
        current(self, *args)

    texture_update.fresh_texture = True  # type: ignore[attr-defined]
    texture_update.__doc__ = current.__doc__
    Label.texture_update = texture_update
