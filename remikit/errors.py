"""Why an action is illegal, in words a player can read (Indonesian and English).

>>> str(IllegalAction("not_your_turn", seat=2))
'it is not your turn (seat 2 is to play)'
>>> IllegalAction("not_your_turn", seat=2).text("id")
'bukan giliran Anda (giliran kursi 2)'
"""

from __future__ import annotations

from collections.abc import Callable

REASONS: dict[str, dict[str, str]] = {
    "game_over": {
        "en": "the game is over",
        "id": "permainan sudah selesai",
    },
    "no_deal": {
        "en": "no deal is in progress",
        "id": "belum ada babak yang berjalan",
    },
    "not_your_turn": {
        "en": "it is not your turn (seat {seat} is to play)",
        "id": "bukan giliran Anda (giliran kursi {seat})",
    },
    "no_such_seat": {
        "en": "there is no seat {seat}",
        "id": "tidak ada kursi {seat}",
    },
    "draw_first": {
        "en": "draw a card first (from the stock or the discard)",
        "id": "ambil kartu dulu (dari tumpukan atau buangan)",
    },
    "already_drawn": {
        "en": "you have already drawn this turn: discard a card{or_close}",
        "id": "Anda sudah mengambil kartu: buang satu kartu{or_close}",
    },
    "or_close": {"en": " or close", "id": " atau tutup"},
    "stock_empty": {
        "en": "the stock is empty",
        "id": "tumpukan kartu sudah habis",
    },
    "no_discard": {
        "en": "there is no discard to take",
        "id": "tidak ada kartu buangan untuk diambil",
    },
    "discard_depth": {
        "en": "only the top discard can be taken here",
        "id": "hanya kartu buangan teratas yang boleh diambil",
    },
    "not_in_hand": {
        "en": "{card} is not in your hand",
        "id": "{card} tidak ada di tangan Anda",
    },
    "taken_card": {
        "en": "{card} was just taken from the discard and may not be discarded this turn",
        "id": "{card} baru diambil dari buangan dan tidak boleh dibuang pada giliran ini",
    },
    "close_refused": {
        "en": "cannot close: {why}",
        "id": "tidak bisa tutup: {why}",
    },
    "taken_card_only": {
        "en": "{card} may not be taken: every card in your hand is {card}, none could be discarded",
        "id": "{card} tidak boleh diambil: semua kartu Anda {card}, tak ada yang bisa dibuang",
    },
    "not_in_variant": {
        "en": "'{action}' is not an action of this game",
        "id": "'{action}' bukan langkah dalam permainan ini",
    },
}


class IllegalAction(ValueError):
    """An action the rules do not allow now; the state is unchanged.

    ``key`` names the reason in :data:`REASONS`; ``params`` fill it in.
    ``str()`` gives the English text, :meth:`text` either language.
    """

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return self.text("en")

    def text(self, lang: str) -> str:
        entry = REASONS[self.key]
        values = {k: (v.text(lang) if isinstance(v, Reason) else v) for k, v in self.params.items()}
        return entry.get(lang, entry["en"]).format(**values)


class Reason:
    """A piece of a reason that is itself translated (``why`` of a refused close)."""

    def __init__(self, en: str, id_: str) -> None:
        self.en = en
        self.id = id_

    def text(self, lang: str) -> str:
        return self.id if lang == "id" else self.en

    def __str__(self) -> str:
        return self.en


class LazyReason(Reason):
    """A reason worked out only when someone reads it (legal-move checks never do)."""

    def __init__(self, explain: Callable[[], Reason]) -> None:
        self._explain = explain
        self._reason: Reason | None = None

    def _get(self) -> Reason:
        if self._reason is None:
            self._reason = self._explain()
        return self._reason

    @property  # type: ignore[override]
    def en(self) -> str:
        return self._get().en

    @property  # type: ignore[override]
    def id(self) -> str:
        return self._get().id
