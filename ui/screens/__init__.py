"""The app's screens: one Python class and one .kv rule each."""
