"""The test window's size, shared by the fixtures and the tests that resize and restore it
(a module of its own: ``conftest`` is no name to import from, several folders have one)."""

TEST_WINDOW = (960, 600)  # smaller than a tablet: software GL draws every pixel
