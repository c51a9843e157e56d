"""Program generators that prove passes by numbers: importable by tests, tools and ``opt-py bundle``."""
