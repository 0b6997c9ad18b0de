"""How each variant scores a hand, built on the shared solver."""
