"""A label's new text goes onto a new texture (ui.widgets.text_textures): the frames
already drawn with the old one are never waited for (software GL's long frames)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app_driver import Driver


def test_a_label_renders_a_new_text_onto_a_new_texture(driver: Driver) -> None:
    from kivy.uix.label import Label

    label = Label(text="Black is thinking (level 3)...", size=(300, 40), text_size=(300, 40))
    label.texture_update()
    first = label.texture
    label.text = "Black: place the king on e8."
    label.texture_update()
    assert label.texture is not first      # Kivy alone writes the same-sized one anew
    assert tuple(label.texture.size) == tuple(first.size) == (300, 40)
