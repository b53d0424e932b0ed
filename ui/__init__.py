"""The tablet app (Kivy). Kivy is imported here and nowhere else in the project."""
