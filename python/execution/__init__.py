"""Running what IREE compiled, checking it and hunting what is wrong: the runtime side of opt-py."""
