"""Checks on what a screen shows, by walking its widget tree: everything inside the
screen (or popup), touch targets of at least 48 dp, none overlapping another, every
text at least 14 sp and inside its widget (no clipping, no word cut in two, nothing
shortened with an ellipsis), a board's coordinates too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp, sp
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in window coordinates


def shown(root: Any, clip: Rect | None = None) -> Iterator[tuple[Any, Rect]]:
    """Widgets under ``root`` that are visible, with their on-screen rectangle (clipped
    to the scroll views around them; turned panels give their real place)."""
    if root.opacity <= 0 or root.width <= 0 or root.height <= 0:
        return
    rect = window_rect(root)
    if clip is not None:
        rect = (max(rect[0], clip[0]), max(rect[1], clip[1]),
                min(rect[2], clip[2]), min(rect[3], clip[3]))
        if rect[2] - rect[0] < 1 or rect[3] - rect[1] < 1:
            return
    yield root, rect
    inner = rect if isinstance(root, ScrollView) else clip
    for child in root.children:
        yield from shown(child, inner)


def window_rect(widget: Any) -> Rect:
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def interactive(widget: Any) -> bool:
    return isinstance(widget, ButtonBehavior | TextInput)


def problems(root: Any, *, min_sp: float = 14) -> list[str]:
    """Everything wrong with what ``root`` shows, in words (empty: all is well)."""
    found: list[str] = []
    targets = []
    outer = window_rect(root)
    for widget, rect in shown(root):
        name = describe(widget)
        if rect[0] < outer[0] - 1 or rect[1] < outer[1] - 1 or rect[2] > outer[2] + 1 \
                or rect[3] > outer[3] + 1:
            found.append(f"{name} reaches outside {describe(root)}")
        if interactive(widget):
            width, height = rect[2] - rect[0], rect[3] - rect[1]
            full = window_rect(widget)
            if full == rect and (width < dp(48) - 0.5 or height < dp(48) - 0.5):
                found.append(f"{name} is {width:.0f}x{height:.0f}, under 48 dp")
            targets.append((widget, rect))
        if isinstance(widget, Label) and widget.text.strip():
            found.extend(f"{name}: {issue}" for issue in text_issues(widget, min_sp))
        if hasattr(widget, "coordinate_labels"):
            found.extend(f"{name}: {issue}" for issue in coordinate_issues(widget, min_sp))
    for index, (first, a) in enumerate(targets):
        for second, b in targets[index + 1:]:
            overlap_w = min(a[2], b[2]) - max(a[0], b[0])
            overlap_h = min(a[3], b[3]) - max(a[1], b[1])
            if overlap_w > 1 and overlap_h > 1:
                found.append(f"{describe(first)} overlaps {describe(second)}")
    return found


def text_issues(label: Label, min_sp: float) -> list[str]:
    issues = []
    if label.font_size < sp(min_sp) - 0.1:
        issues.append(f"font {label.font_size / sp(1):.0f} sp, under {min_sp:g} sp")
    label.texture_update()
    tex_w, tex_h = label.texture_size
    if tex_h > label.height + 1.5 or tex_w > label.width + 1.5:
        issues.append(f"text {tex_w:.0f}x{tex_h:.0f} does not fit {label.width:.0f}x"
                      f"{label.height:.0f}")
    width = label.text_size[0]
    plain_text = label.text if not label.markup else _strip_markup(label.text)
    if width:
        core_args = {"font_size": label.font_size, "font_name": label.font_name,
                     "bold": label.bold}
        for word in plain_text.replace("\n", " ").replace("\u00a0", " ").split(" "):
            if "/" in word or "\\" in word:
                continue  # a folder path is data: it may break anywhere
            # strictly wider, as Kivy wraps (a word 59 px wide in 58.8 px is cut)
            if word and CoreLabel(text=word, **core_args).get_extents(word)[0] > width:
                issues.append(f"the word {word!r} is cut in two")
        if label.shorten:
            for line in plain_text.split("\n"):
                if CoreLabel(text=line, **core_args).get_extents(line)[0] > width + 0.5:
                    issues.append(f"{line!r} is shortened")
    return issues


def coordinate_issues(board: Any, min_sp: float) -> list[str]:
    """A board's file and rank labels: at least ``min_sp``, inside the board widget."""
    issues = []
    x0, y0, x1, y1 = window_rect(board)
    for text, size, (x, y, width, height) in board.coordinate_labels():
        if size < sp(min_sp) - 0.1:
            issues.append(f"coordinate {text!r}: font {size / sp(1):.0f} sp, under "
                          f"{min_sp:g} sp")
        lx0, ly0, lx1, ly1 = window_rect_of(board, (x, y, x + width, y + height))
        if lx0 < x0 - 1 or ly0 < y0 - 1 or lx1 > x1 + 1 or ly1 > y1 + 1:
            issues.append(f"coordinate {text!r} reaches outside the board widget")
    return issues


def window_rect_of(widget: Any, rect: Rect) -> Rect:
    """``rect`` (in ``widget``'s parent coordinates) in window coordinates."""
    ax, ay = widget.to_window(rect[0], rect[1])
    bx, by = widget.to_window(rect[2], rect[3])
    return (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))


def _strip_markup(text: str) -> str:
    import re

    return re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", text)


def describe(widget: Any) -> str:
    text = getattr(widget, "text", "")
    return f"{type(widget).__name__}({text[:30]!r})" if text else type(widget).__name__
