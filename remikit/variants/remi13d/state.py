"""How a Remi 13 D game ends beyond the action limit every variant has (R13-7, R13-13).

>>> Remi13DEnding("close")
<Remi13DEnding.CLOSE: 'close'>
"""

from remikit.views import DealEnding


class Remi13DEnding(DealEnding):
    """How a Remi 13 D game ends beyond the action limit."""

    CLOSE = "close"  # R13-7: a player closed
    STOCK = "stock"  # R13-13: the stock ran out
