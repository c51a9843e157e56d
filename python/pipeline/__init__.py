"""Text -> plan: pipeline syntax, pass options, the pass registry, C++ pass probing."""
