"""The bilingual message catalogue: Indonesian (``id``) and English (``en``).

Every user-facing string of the front ends has an id here with both texts;
``{name}`` fields are filled in by :func:`t`.

>>> t("score.points", "id")
'Poin'
>>> t("score.bad_round", "en", round="12")
'a round is 1 to 11, not 12'
"""

from __future__ import annotations

import os

LANGUAGES = ("id", "en")

MESSAGES: dict[str, dict[str, str]] = {
    # remi score: help
    "score.help": {
        "id": "hitung skor satu tangan (untuk wasit dan pemeriksaan)",
        "en": "score one hand (for a referee, and for checks)",
    },
    "score.help_variant": {
        "id": "varian: remi13d, three-thirteen, gin (atau aliasnya: 13d, 3-13, …)",
        "en": "variant: remi13d, three-thirteen, gin (or an alias: 13d, 3-13, …)",
    },
    "score.help_cards": {
        "id": "kartu, terpisah atau dalam satu string: As 10h Td Jk",
        "en": "cards, separately or as one quoted string: As 10h Td Jk",
    },
    "score.help_closing": {
        "id": "Remi 13 D: kartu penutup (As atau Joker); tanpanya, skor tangan yang tidak tutup",
        "en": "Remi 13 D: the closing card (an ace or a joker); without it, "
              "the score of a hand that did not close",
    },
    "score.help_round": {
        "id": "Three-Thirteen: ronde 1–11",
        "en": "Three-Thirteen: the round, 1–11",
    },
    "score.help_ace": {
        "id": "Three-Thirteen: As rendah atau tinggi (bawaan: low)",
        "en": "Three-Thirteen: ace low or high (default: low)",
    },
    "score.help_json": {
        "id": "keluaran satu objek JSON",
        "en": "print one JSON object",
    },
    "score.help_batch": {
        "id": "berkas baris JSON (atau - untuk stdin); satu baris JSON keluar per baris",
        "en": "file of JSON lines (or - for standard input); one JSON line out per line",
    },
    "score.help_lang": {
        "id": "bahasa keluaran: id atau en (bawaan dari LANG)",
        "en": "output language: id or en (default from LANG)",
    },
    # remi score: input errors
    "score.need_variant": {
        "id": "sebutkan varian dan kartu, atau --batch FILE",
        "en": "give a variant and cards, or --batch FILE",
    },
    "score.batch_alone": {
        "id": "--batch tidak dipakai bersama varian, kartu atau opsi tangan",
        "en": "--batch takes no variant, cards or hand options",
    },
    "score.unknown_variant": {
        "id": "varian tidak dikenal: {variant!r} (pilih remi13d, three-thirteen atau gin)",
        "en": "unknown variant: {variant!r} (choose remi13d, three-thirteen or gin)",
    },
    "score.gin_unavailable": {
        "id": "skor gin belum tersedia",
        "en": "gin scoring is not available yet",
    },
    "score.bad_card": {
        "id": "bukan kartu: {token!r} (tulis nilai lalu jenis, mis. As, 10h, Td, 7c, atau Jk)",
        "en": "not a card: {token!r} (write rank then suit, e.g. As, 10h, Td, 7c, or Jk)",
    },
    "score.too_many_copies": {
        "id": "tidak mungkin: {count} × {card} (dek ini hanya punya {limit})",
        "en": "impossible hand: {count} × {card} (the deck holds only {limit})",
    },
    "score.remi13d_count": {
        "id": "Remi 13 D: tangan harus 13 kartu (tanpa kartu penutup), bukan {count}",
        "en": "Remi 13 D: a hand has 13 cards (not counting the closing card), not {count}",
    },
    "score.t13_count": {
        "id": "Three-Thirteen ronde {round} membagikan {size} kartu; tangan ini {count} kartu "
              "(hitung tangan sebelum mengambil atau setelah membuang)",
        "en": "Three-Thirteen round {round} deals {size} cards; this hand has {count} "
              "(score a hand before drawing or after discarding)",
    },
    "score.need_round": {
        "id": "Three-Thirteen butuh nomor ronde: 1–11",
        "en": "Three-Thirteen needs the round: 1–11",
    },
    "score.bad_round": {
        "id": "ronde adalah 1 sampai 11, bukan {round}",
        "en": "a round is 1 to 11, not {round}",
    },
    "score.bad_ace": {
        "id": "ace harus low atau high, bukan {ace}",
        "en": "ace must be low or high, not {ace}",
    },
    "score.closing_not_here": {
        "id": "kartu penutup hanya untuk remi13d",
        "en": "a closing card is for remi13d only",
    },
    "score.round_not_here": {
        "id": "ronde dan ace hanya untuk three-thirteen",
        "en": "round and ace are for three-thirteen only",
    },
    "score.bad_json": {
        "id": "JSON rusak ({detail})",
        "en": "broken JSON ({detail})",
    },
    "score.not_object": {
        "id": "baris harus berupa objek JSON",
        "en": "a line must be a JSON object",
    },
    "score.missing_key": {
        "id": "kunci {key!r} tidak ada",
        "en": "missing key {key!r}",
    },
    "score.bad_hand": {
        "id": "'hand' harus daftar kartu",
        "en": "'hand' must be a list of cards",
    },
    "score.line_error": {
        "id": "baris {line}: {error}",
        "en": "line {line}: {error}",
    },
    "score.no_file": {
        "id": "tidak bisa membaca {path}: {detail}",
        "en": "cannot read {path}: {detail}",
    },
    # remi score: refused closes (R13-7)
    "score.refused": {
        "id": "Tutup ditolak: {reason}",
        "en": "Close refused: {reason}",
    },
    # remi score: the human report
    "score.title_close": {
        "id": "Remi 13 D: tutup dengan {card} ({bonus_name}, bonus {bonus})",
        "en": "Remi 13 D: close with {card} ({bonus_name}, bonus {bonus})",
    },
    "score.title_hand": {
        "id": "Remi 13 D: tangan yang tidak tutup (R13-12)",
        "en": "Remi 13 D: a hand that did not close (R13-12)",
    },
    "score.title_t13": {
        "id": "Three-Thirteen: ronde {round}, kartu wild {wild}, As {ace}",
        "en": "Three-Thirteen: round {round}, wild rank {wild}, ace {ace}",
    },
    "score.melds": {"id": "Kartu jadi", "en": "Melds"},
    "score.dead": {"id": "Kartu mati", "en": "Dead cards"},
    "score.none": {"id": "tidak ada", "en": "none"},
    "score.points": {"id": "Poin", "en": "Points"},
    "score.deadwood": {"id": "Nilai kartu mati (deadwood)", "en": "Deadwood"},
    "score.no_pure": {
        "id": "tidak ada kartu dasar murni 4+: semua kartu mati",
        "en": "no pure run of 4+: every card is dead",
    },
    "ace.low": {"id": "rendah", "en": "low"},
    "ace.high": {"id": "tinggi", "en": "high"},
    "meld.run": {"id": "kartu dasar", "en": "run"},
    "meld.pure_run": {"id": "kartu dasar murni", "en": "pure run"},
    "meld.set": {"id": "kartu {size}", "en": "set of {size}"},
    "meld.royal": {"id": "royal flush", "en": "royal flush"},
    "meld.wild": {"id": "kartu wild", "en": "wild cards"},
    # -- remi play, remi arena, bots (cli/play.py, cli/arena.py, cli/table.py) --
    "arena.help": {
        "id": "adu bot melawan bot dan hitung tingkat menangnya",
        "en": "play bots against bots and report their win rates",
    },
    "arena.help_variant": {
        "id": "varian: remi13d, three-thirteen (atau aliasnya: 13d, 3-13, …)",
        "en": "variant: remi13d, three-thirteen (or an alias: 13d, 3-13, …)",
    },
    "arena.help_bots": {
        "id": "bot per kursi, dipisah koma: random, greedy (boleh dengan anggaran: greedy@0.1)",
        "en": "one bot per seat, comma separated: random, greedy (with a budget: greedy@0.1)",
    },
    "arena.help_games": {
        "id": "jumlah permainan lengkap (bawaan {games})",
        "en": "number of complete games (default {games})",
    },
    "arena.help_seed": {
        "id": "benih acak; hasil yang sama untuk benih yang sama (bawaan: acak, dicetak)",
        "en": "random seed; the same seed gives the same results (default: random, printed)",
    },
    "arena.help_jobs": {
        "id": "jumlah proses (bawaan 1; 0 = semua inti); hasil tidak bergantung padanya",
        "en": "worker processes (default 1; 0 = every core); results do not depend on it",
    },
    "arena.help_json": {
        "id": "keluaran satu objek JSON",
        "en": "print one JSON object",
    },
    "arena.help_deals": {
        "id": "hitung per babak (satu permainan Remi 13 D, satu ronde Three-Thirteen)",
        "en": "count per deal (a Remi 13 D game, a Three-Thirteen round)",
    },
    "arena.help_option": {
        "id": "opsi meja, mis. games=1, jokers=2, ace=high (boleh diulang)",
        "en": "table option, e.g. games=1, jokers=2, ace=high (repeatable)",
    },
    "arena.bad_option": {
        "id": "opsi ditulis KEY=VALUE, bukan {option!r}",
        "en": "an option is written KEY=VALUE, not {option!r}",
    },
    "arena.no_bots": {
        "id": "sebutkan bot dengan --bots, mis. --bots greedy,random,random,random",
        "en": "name the bots with --bots, e.g. --bots greedy,random,random,random",
    },
    "arena.bad_games": {
        "id": "--games harus 1 atau lebih, bukan {games}",
        "en": "--games must be 1 or more, not {games}",
    },
    "arena.bad_jobs": {
        "id": "--jobs harus 0 (semua inti) atau lebih, bukan {jobs}",
        "en": "--jobs must be 0 (every core) or more, not {jobs}",
    },
    "arena.bot_count": {
        "id": "{variant} dimainkan {players} pemain: berikan {players} bot, bukan {bots}",
        "en": "{variant} is played by {players} players: give {players} bots, not {bots}",
    },
    "arena.playing": {
        "id": "Bermain",
        "en": "Playing",
    },
    "arena.title": {
        "id": "{variant}: {games} permainan, benih {seed}, {seconds} detik",
        "en": "{variant}: {games} games, seed {seed}, {seconds} s",
    },
    "arena.title_deals": {
        "id": "{variant}: {deals} babak dari {games} permainan, benih {seed}, {seconds} detik",
        "en": "{variant}: {deals} deals of {games} games, seed {seed}, {seconds} s",
    },
    "arena.caption_higher": {
        "id": "poin: rata-rata total per permainan; tertinggi menang",
        "en": "points: mean total per game; the highest wins",
    },
    "arena.caption_lower": {
        "id": "poin: rata-rata deadwood per permainan; terendah menang",
        "en": "points: mean deadwood per game; the lowest wins",
    },
    "arena.caption_higher_deal": {
        "id": "poin: rata-rata skor per babak; tertinggi (tanpa seri) menang",
        "en": "points: mean score per deal; the unique highest wins",
    },
    "arena.caption_lower_deal": {
        "id": "poin: rata-rata deadwood per babak; terendah (tanpa seri) menang",
        "en": "points: mean deadwood per deal; the unique lowest wins",
    },
    "arena.col_bot": {
        "id": "Bot",
        "en": "Bot",
    },
    "arena.col_wins": {
        "id": "Menang",
        "en": "Wins",
    },
    "arena.col_rate": {
        "id": "Tingkat menang",
        "en": "Win rate",
    },
    "arena.col_ci": {
        "id": "Selang 95%",
        "en": "95% interval",
    },
    "arena.col_points": {
        "id": "Rata-rata poin",
        "en": "Mean points",
    },
    # -- end of remi play, remi arena, bots --
}


def t(key: str, lang: str, /, **kw: object) -> str:
    """The message ``key`` in ``lang`` (English when it has no such text), fields filled in."""
    texts = MESSAGES[key]
    return texts.get(lang, texts["en"]).format(**kw)


def default_lang() -> str:
    """The locale's language (LC_ALL, LC_MESSAGES, LANG): ``id`` for Indonesian, else ``en``."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return "id" if value.lower().startswith("id") else "en"
    return "en"
