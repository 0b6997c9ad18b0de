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
    # -- Rummy 500 ------------------------------------------------------------
    "discard_too_deep": {
        "en": "there is no discard {depth} from the top (the pile has {size} cards)",
        "id": "tidak ada kartu buangan ke-{depth} dari atas (tumpukan buangan berisi {size} kartu)",
    },
    "deep_draw_unmeldable": {
        "en": "{card} (discard {depth} from the top) may be taken only if you can meld it "
        "this turn",
        "id": "{card} (buangan ke-{depth} dari atas) hanya boleh diambil jika bisa Anda "
        "turunkan pada giliran ini",
    },
    "taken_card_alone": {
        "en": "{card} may not be taken alone: with an empty hand you could neither lay it off "
        "nor discard it",
        "id": "{card} tidak boleh diambil sendiri: dengan tangan kosong kartu itu tidak bisa "
        "ditempel maupun dibuang",
    },
    "taken_card_left": {
        "en": "{card} was just taken from the discard and may not be discarded: keep another "
        "card to discard",
        "id": "{card} baru diambil dari buangan dan tidak boleh dibuang: sisakan kartu lain "
        "untuk dibuang",
    },
    "must_meld_first": {
        "en": "you must meld {card} (taken from the discard pile) before you discard",
        "id": "Anda harus menurunkan {card} (diambil dari buangan) sebelum membuang",
    },
    "would_strand_owed": {
        "en": "that would leave no way to meld {card}, which you must meld this turn",
        "id": "langkah itu membuat {card} tidak bisa diturunkan, padahal wajib diturunkan "
        "pada giliran ini",
    },
    "last_discard_playable": {
        "en": "{card} can be played on the table, so it may not be the discard that takes you out",
        "id": "{card} masih bisa ditempel di meja, jadi tidak boleh menjadi buangan terakhir Anda",
    },
    "meld_too_short": {
        "en": "a meld needs at least 3 cards",
        "id": "gabungan paling sedikit 3 kartu",
    },
    "meld_no_natural": {
        "en": "a meld needs at least one card that is not a joker",
        "id": "gabungan harus berisi paling sedikit satu kartu selain joker",
    },
    "meld_invalid": {
        "en": "{cards} is not a set (3 or 4 of one rank, all suits different) or a run "
        "(3 or more in a row of one suit)",
        "id": "{cards} bukan set (3 atau 4 kartu senilai, jenis berbeda semua) atau urutan "
        "(3 kartu atau lebih berurutan dari jenis yang sama)",
    },
    "joker_ambiguous": {
        "en": "say what the joker stands for: {choices}",
        "id": "sebutkan kartu yang diwakili joker: {choices}",
    },
    "declare_only_joker": {
        "en": "only a joker declares what it stands for, and as a card that is not a "
        "joker ({card})",
        "id": "hanya joker yang menyebutkan kartu yang diwakilinya, dan bukan joker ({card})",
    },
    "no_such_meld": {
        "en": "there is no meld {meld} on the table",
        "id": "tidak ada gabungan nomor {meld} di meja",
    },
    "layoff_invalid": {
        "en": "{card} does not fit meld {meld}",
        "id": "{card} tidak cocok dengan gabungan nomor {meld}",
    },
    "joker_layoff_runs": {
        "en": "at this table a joker may be laid off only onto a run, and meld {meld} is a set "
        "(option joker_layoff=runs)",
        "id": "di meja ini joker hanya boleh ditempel pada urutan, dan gabungan nomor {meld} "
        "adalah set (opsi joker_layoff=runs)",
    },
    "rummy_off": {
        "en": "Rummy calls are off at this table",
        "id": "panggilan Rummy tidak dipakai di meja ini",
    },
    "rummy_closed": {
        "en": "Rummy can be called only after a discard, before the next player draws",
        "id": "Rummy hanya bisa dipanggil setelah ada buangan, sebelum pemain berikutnya "
        "mengambil kartu",
    },
    "rummy_not_asked": {
        "en": "the Rummy call window asks the nearest seats first: seat {seat} answers now",
        "id": "jendela panggilan Rummy bertanya kepada kursi terdekat dulu: kursi {seat} "
        "menjawab sekarang",
    },
    "rummy_answer_first": {
        "en": "a Rummy call is possible on the last discard: answer first (call or pass)",
        "id": "buangan terakhir bisa dipanggil Rummy: jawab dulu (panggil atau lewat)",
    },
    "not_now": {
        "en": "{action} cannot be played now",
        "id": "{action} tidak bisa dimainkan sekarang",
    },
    "rummy_own_discard": {
        "en": "you cannot call Rummy on your own discard",
        "id": "Anda tidak bisa memanggil Rummy atas buangan Anda sendiri",
    },
    "rummy_not_playable": {
        "en": "the card at position {depth} cannot be melded at once",
        "id": "kartu di posisi {depth} tidak bisa langsung digabungkan",
    },
    "decline_stock_left": {
        "en": "you may decline to draw only when the stock is empty",
        "id": "Anda hanya boleh menolak mengambil kartu jika tumpukan kartu sudah habis",
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
    """A piece of a reason that is itself translated (``why`` of a refused close).

    With ``explain``, the texts are worked out only when someone reads them
    (legal-move checks never do).
    """

    def __init__(
        self, en: str = "", id_: str = "", *, explain: Callable[[], Reason] | None = None
    ) -> None:
        self._texts = (en, id_)
        self._explain = explain

    def _resolve(self) -> tuple[str, str]:
        if self._explain is not None:
            self._texts = self._explain()._resolve()
            self._explain = None
        return self._texts

    @property
    def en(self) -> str:
        return self._resolve()[0]

    @property
    def id(self) -> str:
        return self._resolve()[1]

    def text(self, lang: str) -> str:
        return self.id if lang == "id" else self.en

    def __str__(self) -> str:
        return self.en
