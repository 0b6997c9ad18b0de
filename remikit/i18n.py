"""The bilingual message catalogue: Indonesian (``id``) and English (``en``).

Every user-facing string of the front ends has an id here with both texts;
``{name}`` fields are filled in by :func:`t`.

>>> t("score.points", "id")
'Poin'
>>> t("score.bad_round", "en", round="12")
'a round is 1 to 11, not 12'
"""

from __future__ import annotations

import json
import math
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
    "score.help_pure_run": {
        "id": "Remi 13 D: opsi meja pure_run (R13-6): strict (bawaan: kartu dasar murni "
        "tanpa Joker) atau natural4 (4+ kartu asli berurutan tetap murni walau "
        "diperpanjang Joker)",
        "en": "Remi 13 D: the table option pure_run (R13-6): strict (default: a pure run "
        "holds no joker) or natural4 (a run with 4+ natural cards in a row is pure "
        "even when a joker extends it)",
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
    "score.gin_count": {
        "id": "gin: 10 kartu (atau 11, lalu buangan terbaik), bukan {count}",
        "en": "gin: 10 cards (or 11, then the best discard), not {count}",
    },
    "score.gin_options": {
        "id": "gin tidak memakai --closing, --round, --ace atau --pure-run",
        "en": "gin takes no --closing, --round, --ace or --pure-run",
    },
    "score.title_gin": {
        "id": "Gin Rummy: kartu mati terkecil{discard}",
        "en": "Gin Rummy: minimum deadwood{discard}",
    },
    "score.gin_discard": {
        "id": " setelah membuang {card}",
        "en": " after discarding {card}",
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
    "score.pure_run_not_here": {
        "id": "pure_run hanya untuk remi13d",
        "en": "pure_run is for remi13d only",
    },
    "score.bad_pure_run": {
        "id": "pure_run harus strict atau natural4, bukan {value}",
        "en": "pure_run must be strict or natural4, not {value}",
    },
    "score.round_not_here": {
        "id": "ronde dan ace hanya untuk three-thirteen",
        "en": "round and ace are for three-thirteen only",
    },
    "score.bad_json": {
        "id": "JSON rusak ({detail})",
        "en": "broken JSON ({detail})",
    },
    "score.too_deep": {
        "id": "bersarang terlalu dalam",
        "en": "nested too deeply",
    },
    "score.too_long": {
        "id": "angka terlalu panjang",
        "en": "a number too long to read",
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
    "score.natural4": {
        "id": "opsi meja pure_run=natural4: kartu dasar dengan 4+ kartu asli berurutan "
        "murni walau diperpanjang Joker (R13-6)",
        "en": "table option pure_run=natural4: a run with 4+ natural cards in a row is pure "
        "even when a joker extends it (R13-6)",
    },
    "ace.low": {"id": "rendah", "en": "low"},
    "ace.high": {"id": "tinggi", "en": "high"},
    "meld.run": {"id": "kartu dasar", "en": "run"},
    "meld.pure_run": {"id": "kartu dasar murni", "en": "pure run"},
    "meld.set": {"id": "kartu {size}", "en": "set of {size}"},
    "meld.royal": {"id": "royal flush", "en": "royal flush"},
    "meld.wild": {"id": "kartu wild", "en": "wild cards"},
    # -- table options (engine.Options: --option, records, the web app) --
    "option.unknown": {
        "id": "opsi {name!r} tidak dikenal; opsi yang ada: {names}",
        "en": "unknown option {name!r}; options: {names}",
    },
    "option.boolean": {
        "id": "opsi {name} bernilai true atau false, bukan {value}",
        "en": "option {name} takes true or false, not {value}",
    },
    "option.integer": {
        "id": "opsi {name} bernilai bilangan bulat, bukan {value}",
        "en": "option {name} takes a whole number, not {value}",
    },
    "option.string": {
        "id": "opsi {name} bernilai teks, bukan {value}",
        "en": "option {name} takes text, not {value}",
    },
    "option.range": {
        "id": "opsi {name} harus dari {low} sampai {high}, bukan {value}",
        "en": "option {name} must be from {low} to {high}, not {value}",
    },
    "option.choice": {
        "id": "opsi {name} harus salah satu dari {allowed}, bukan {value}",
        "en": "option {name} must be one of {allowed}, not {value}",
    },
    "option.t13_players": {
        "id": "Three-Thirteen dimainkan 2 sampai 7 pemain tanpa joker dan 2 sampai 8 pemain "
        "dengan jokers=2 atau jokers=4 (ronde 11 membagi 13 kartu ke setiap pemain dan "
        "membuka satu kartu): opsi players tidak bisa {players} dengan jokers={jokers}",
        "en": "Three-Thirteen is for 2 to 7 players without jokers and 2 to 8 with jokers=2 "
        "or jokers=4 (round 11 deals 13 cards to each player and turns one up): "
        "option players cannot be {players} with jokers={jokers}",
    },
    # -- remi play, remi arena, bots (cli/play.py, cli/tui/, cli/arena.py) --
    "arena.help": {
        "id": "adu bot melawan bot dan hitung tingkat menangnya",
        "en": "play bots against bots and report their win rates",
    },
    "arena.help_variant": {
        "id": "varian: remi13d, three-thirteen, rummy500 (atau aliasnya: 13d, 3-13, 500, …)",
        "en": "variant: remi13d, three-thirteen, rummy500 (or an alias: 13d, 3-13, 500, …)",
    },
    "arena.help_bots": {
        "id": "bot per kursi, dipisah koma: random, greedy, strong, expert (boleh dengan "
        "anggaran detik per langkah: strong@0.1)",
        "en": "one bot per seat, comma separated: random, greedy, strong, expert (with a "
        "budget in seconds per move: strong@0.1)",
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
        "id": "hitung per babak (satu permainan Remi 13 D, satu babak Rummy 500, satu ronde "
        "Three-Thirteen)",
        "en": "count per deal (a Remi 13 D game, a Rummy 500 hand, a Three-Thirteen round)",
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
    "arena.players": {
        "id": "{variant} dimainkan oleh {allowed} pemain: berikan {count} bot, bukan {bots}",
        "en": "{variant} is played by {allowed} players: give {count} bots, not {bots}",
    },
    "arena.players_options": {
        "id": "{variant} dengan opsi meja ini dimainkan oleh {allowed} pemain: berikan {count} "
        "bot, bukan {bots}. {why}",
        "en": "{variant} with these table options is played by {allowed} players: give {count} "
        "bots, not {bots}. {why}",
    },
    "arena.players_set": {
        "id": "meja ini punya {players} kursi (opsi players={players}): berikan {players} bot, "
        "bukan {bots}",
        "en": "the table has {players} seats (option players={players}): give {players} bots, "
        "not {bots}",
    },
    "arena.exactly": {"id": "tepat {count}", "en": "exactly {count}"},
    "arena.from_to": {"id": "{low} sampai {high}", "en": "{low} to {high}"},
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
    "play.help": {
        "id": "main melawan bot di terminal",
        "en": "play against bots at the terminal",
    },
    "play.help_variant": {
        "id": "varian: remi13d (bawaan), three-thirteen (3-13) atau rummy500 (500)",
        "en": "variant: remi13d (default), three-thirteen (3-13) or rummy500 (500)",
    },
    "play.help_bots": {
        "id": "tingkat bot: random, greedy, strong atau expert (satu untuk semua, atau satu "
        "per bot dipisah koma); strong@0.5 berpikir 0,5 detik per langkah (bawaan 1)",
        "en": "bot level: random, greedy, strong or expert (one for all, or one per bot, comma "
        "separated); strong@0.5 thinks 0.5 s a move (default 1)",
    },
    "play.help_seed": {
        "id": "benih acak untuk permainan yang bisa diulang (tanpa benih: kocokan kriptografis)",
        "en": "random seed for a repeatable game (without one: a cryptographic shuffle)",
    },
    "play.help_games": {
        "id": "Remi 13 D: jumlah permainan dalam satu pertandingan (bawaan 4)",
        "en": "Remi 13 D: number of games in the match (default 4)",
    },
    "play.help_record": {
        "id": "simpan catatan permainan (JSON) ke FILE, juga saat keluar",
        "en": "save the game record (JSON) to FILE, also on quitting",
    },
    "play.help_name": {
        "id": "nama Anda di meja",
        "en": "your name at the table",
    },
    "play.bad_bots": {
        "id": "--bots: satu tingkat untuk ketiga bot atau tepat tiga, bukan {count}",
        "en": "--bots: one level for all three bots or exactly three, not {count}",
    },
    "play.no_ui": {
        "id": "{variant} belum bisa dimainkan di terminal",
        "en": "{variant} cannot be played at the terminal yet",
    },
    "play.no_games": {
        "id": "--games hanya untuk Remi 13 D; {variant} punya panjang tetap",
        "en": "--games is for Remi 13 D only; {variant} has a fixed length",
    },
    "play.four_players": {
        "id": "meja terminal untuk 4 pemain (Anda dan tiga bot), bukan {players}",
        "en": "the terminal table seats 4 players (you and three bots), not {players}",
    },
    "play.you": {
        "id": "Anda",
        "en": "You",
    },
    "play.pos.left": {
        "id": "Kiri",
        "en": "Left",
    },
    "play.pos.top": {
        "id": "Atas",
        "en": "Top",
    },
    "play.pos.right": {
        "id": "Kanan",
        "en": "Right",
    },
    "play.pos.you": {
        "id": "Anda",
        "en": "You",
    },
    "play.welcome": {
        "id": "{variant}: selamat bermain!",
        "en": "{variant}: welcome to the table!",
    },
    "play.help_hint": {
        "id": "Ketik h untuk daftar perintah.",
        "en": "Type h for the list of commands.",
    },
    "play.seat_draw_title": {
        "id": "Undian kursi (R13-2)",
        "en": "Seat draw (R13-2)",
    },
    "play.seat_draw_rule": {
        "id": "kartu tertinggi (As, K, …, 2; nilai sama menurut jenis ♠ ♥ ♦ ♣) main pertama, "
        "terendah mengocok dan membagi; Joker menarik lagi; pemain berkartu kembar "
        "menarik lagi, hanya untuk urutan di antara mereka",
        "en": "the highest card (A, K, …, 2; equal ranks by suit ♠ ♥ ♦ ♣) plays first, the "
        "lowest shuffles and deals; a joker draws again; players with identical cards "
        "draw again, which orders only them among themselves",
    },
    "play.col_player": {
        "id": "Pemain",
        "en": "Player",
    },
    "play.col_drawn": {
        "id": "Kartu undian",
        "en": "Cards drawn",
    },
    "play.col_order": {
        "id": "Urutan",
        "en": "Turn order",
    },
    "play.plays_first": {
        "id": "(main pertama)",
        "en": "(plays first)",
    },
    "play.deals": {
        "id": "(membagi kartu)",
        "en": "(deals)",
    },
    "play.seating_left": {
        "id": "Di kiri Anda {left}, di atas {top}, di kanan {right}. Permainan berjalan ke "
        "kanan: Anda boleh mengambil buangan {previous}.",
        "en": "On your left sits {left}, at the top {top}, on your right {right}. Play runs to"
        " the right: you may take the discards of {previous}.",
    },
    "play.seating_right": {
        "id": "Di kiri Anda {left}, di atas {top}, di kanan {right}. Permainan berjalan searah"
        " jarum jam: Anda boleh mengambil buangan {previous}.",
        "en": "On your left sits {left}, at the top {top}, on your right {right}. Play runs "
        "clockwise: you may take the discards of {previous}.",
    },
    "play.game_title": {
        "id": "Permainan {number} dari {games}",
        "en": "Game {number} of {games}",
    },
    "play.deal_intro": {
        "id": "Pembagi kartu: {dealer}. Yang main pertama: {first}.",
        "en": "Dealer: {dealer}. First to play: {first}.",
    },
    "play.col_position": {
        "id": "Posisi",
        "en": "Position",
    },
    "play.col_cards": {
        "id": "Kartu",
        "en": "Cards",
    },
    "play.col_total": {
        "id": "Total",
        "en": "Total",
    },
    "play.stock_line": {
        "id": "Tumpukan: {stock} kartu · {discard}",
        "en": "Stock: {stock} cards · {discard}",
    },
    "play.no_discard_yet": {
        "id": "belum ada kartu buangan",
        "en": "no discard yet",
    },
    "play.discard_from": {
        "id": "buangan {who}: {card}",
        "en": "discard of {who}: {card}",
    },
    "play.your_hand": {
        "id": "Kartu Anda ({count}):",
        "en": "Your hand ({count} cards):",
    },
    "play.prompt_draw": {
        "id": "Ambil kartu: s = dari tumpukan, d = ambil {card} (h bantuan) >",
        "en": "Draw: s = from the stock, d = take {card} (h for help) >",
    },
    "play.prompt_draw_stock": {
        "id": "Ambil kartu: s = dari tumpukan (h bantuan) >",
        "en": "Draw: s = from the stock (h for help) >",
    },
    "play.prompt_discard": {
        "id": "Buang: b NOMOR atau b KARTU (m kartu jadi, h bantuan) >",
        "en": "Discard: b NUMBER or b CARD (m for melds, h for help) >",
    },
    "play.prompt_discard_close": {
        "id": "Buang: b NOMOR atau b KARTU; tutup: t KARTU (m kartu jadi, h bantuan) >",
        "en": "Discard: b NUMBER or b CARD; close: t CARD (m for melds, h for help) >",
    },
    "play.unknown_command": {
        "id": "perintah tidak dikenal: {text!r} (ketik h untuk bantuan)",
        "en": "unknown command: {text!r} (type h for help)",
    },
    "play.bad_number": {
        "id": "tidak ada kartu nomor {number}: pilih 1 sampai {count}",
        "en": "there is no card number {number}: pick 1 to {count}",
    },
    "play.you_drew": {
        "id": "Anda mengambil {card} dari tumpukan.",
        "en": "You drew {card}.",
    },
    "play.you_took": {
        "id": "Anda mengambil {card} dari buangan.",
        "en": "You took {card} from the discard.",
    },
    "play.you_discarded": {
        "id": "Anda membuang {card}.",
        "en": "You discarded {card}.",
    },
    "play.you_closed": {
        "id": "Anda tutup dengan {card}!",
        "en": "You closed with {card}!",
    },
    "play.narrate": {
        "id": "{who} {did}.",
        "en": "{who} {did}.",
    },
    "play.and": {
        "id": " lalu ",
        "en": " and ",
    },
    "play.did_draw_stock": {
        "id": "mengambil dari tumpukan",
        "en": "drew from the stock",
    },
    "play.did_take": {
        "id": "mengambil {card} dari buangan",
        "en": "took {card} from the discard",
    },
    "play.did_discard": {
        "id": "membuang {card}",
        "en": "discarded {card}",
    },
    "play.did_close": {
        "id": "[bold]tutup dengan {card}[/bold]",
        "en": "[bold]closed (tutup) with {card}[/bold]",
    },
    "play.help_title": {
        "id": "Perintah",
        "en": "Commands",
    },
    "play.cmd_stock": {
        "id": "ambil kartu dari tumpukan",
        "en": "draw the top card of the stock",
    },
    "play.cmd_take": {
        "id": "ambil kartu buangan terakhir pemain sebelumnya",
        "en": "take the previous player's discard",
    },
    "play.cmd_discard": {
        "id": "buang kartu: tulis kartunya (7h, 10h, Jk) atau nomornya di tangan",
        "en": "discard (buang) a card: by its text (7h, 10h, Jk) or its number in your hand",
    },
    "play.cmd_close": {
        "id": "tutup dengan kartu penutup itu (As atau Joker); t saja: penutup terbaik",
        "en": "close (tutup) with that closing card (an ace or a joker); t alone: the best one",
    },
    "play.cmd_melds": {
        "id": "susunan terbaik kartu Anda saat ini, dengan poin",
        "en": "the best arrangement of your hand now, with points",
    },
    "play.cmd_record": {
        "id": "notasi catatan juga boleh: draw stock, draw discard, discard 7h, close Ah",
        "en": "record notation works too: draw stock, draw discard, discard 7h, close Ah",
    },
    "play.cmd_show": {
        "id": "tampilkan meja lagi",
        "en": "show the table again",
    },
    "play.cmd_help": {
        "id": "bantuan ini",
        "en": "this help",
    },
    "play.cmd_quit": {
        "id": "keluar (dengan konfirmasi; catatan disimpan)",
        "en": "quit (asks first; the record is saved)",
    },
    "play.no_closing": {
        "id": "permainan ini tidak punya tutup: Anda keluar otomatis bila semua kartu jadi",
        "en": "there is no closing in this game: you go out by yourself when every card is melded",
    },
    "play.no_closing_card": {
        "id": "tidak bisa tutup: Anda tidak punya As atau Joker sebagai kartu penutup",
        "en": "cannot close: you have no ace or joker to close with",
    },
    "play.can_close": {
        "id": "Anda bisa tutup: t {card} untuk {points} poin (bonus {bonus}).",
        "en": "You can close: t {card} for {points} points (bonus {bonus}).",
    },
    "play.best_discard": {
        "id": "Buang terbaik: {card}; bila permainan berakhir sekarang: {points} poin.",
        "en": "Best discard: {card}; if the game ended now: {points} points.",
    },
    "play.no_pure_discard": {
        "id": "Belum ada kartu dasar murni 4+: semua kartu dihitung mati ({points}). Buang "
        "terbaik untuk kartu jadi: {card}.",
        "en": "No pure run of 4+ yet: every card would count as dead ({points}). Best discard "
        "for your melds: {card}.",
    },
    "play.hand_now": {
        "id": "Bila permainan berakhir sekarang: {points} poin.",
        "en": "If the game ended now: {points} points.",
    },
    "play.no_pure_now": {
        "id": "Belum ada kartu dasar murni 4+: semua kartu dihitung mati ({points}). Kartu "
        "jadi Anda sejauh ini:",
        "en": "No pure run of 4+ yet: every card would count as dead ({points}). Your melds so"
        " far:",
    },
    "play.closed_by": {
        "id": "{who} tutup dengan {card} (bonus {bonus})!",
        "en": "{who} closed with {card} (bonus {bonus})!",
    },
    "play.stock_out": {
        "id": "Tumpukan habis dan tidak ada yang tutup (R13-13).",
        "en": "The stock ran out and nobody closed (R13-13).",
    },
    "play.game_scores": {
        "id": "Skor permainan {number}",
        "en": "Scores of game {number}",
    },
    "play.col_closing": {
        "id": "Penutup",
        "en": "Closing",
    },
    "play.next_deal": {
        "id": "Tekan Enter untuk lanjut (q keluar) >",
        "en": "Press Enter to go on (q to quit) >",
    },
    "play.col_game": {
        "id": "Perm. {number}",
        "en": "Game {number}",
    },
    "play.match_scores": {
        "id": "Skor pertandingan",
        "en": "Match scores",
    },
    "play.winner": {
        "id": "Pemenang: {who} dengan {points} poin.",
        "en": "Winner: {who} with {points} points.",
    },
    "play.winner_none": {
        "id": "Tidak ada pemenang tunggal: total tertinggi seri.",
        "en": "No single winner: the highest total is tied.",
    },
    "play.winner_deadwood": {
        "id": "Pemenang: {who} dengan deadwood {points}.",
        "en": "Winner: {who} with {points} deadwood.",
    },
    "play.winner_deadwood_none": {
        "id": "Tidak ada pemenang: deadwood terendah seri (R3-8).",
        "en": "No winner: the lowest deadwood total is tied (R3-8).",
    },
    "play.you_win_who": {
        "id": "Anda",
        "en": "you",
    },
    "play.confirm_quit": {
        "id": "Yakin keluar? (y/n)",
        "en": "Really quit? (y/n)",
    },
    "play.bye": {
        "id": "Sampai jumpa!",
        "en": "Goodbye!",
    },
    "play.record_saved": {
        "id": "Catatan permainan disimpan di {path}.",
        "en": "Game record saved to {path}.",
    },
    "play.round_title": {
        "id": "Ronde {number} dari {rounds}: {size} kartu, kartu wild {wild}",
        "en": "Round {number} of {rounds}: {size} cards, wild rank {wild}",
    },
    "play.round_line": {
        "id": "Ronde {number}/{rounds} · wild: {wild} (bertanda *){jokers} · tumpukan: "
        "{stock} · buangan: {discard}",
        "en": "Round {number}/{rounds} · wild: {wild} (marked *){jokers} · stock: {stock} ·"
        " discard: {discard}",
    },
    "play.and_jokers": {
        "id": " dan Joker",
        "en": " and jokers",
    },
    "play.last_turn": {
        "id": "{who} sudah keluar: ini giliran terakhir Anda di ronde ini!",
        "en": "{who} went out: this is your last turn of the round!",
    },
    "play.went_out": {
        "id": "[bold]Keluar![/bold] Pemain lain masing-masing dapat satu giliran terakhir.",
        "en": "[bold]Out![/bold] Every other player has one last turn.",
    },
    "play.t13_hand_now": {
        "id": "Deadwood Anda sekarang: {points}.",
        "en": "Your deadwood now: {points}.",
    },
    "play.t13_best_discard": {
        "id": "Buang terbaik: {card}; deadwood setelahnya: {points}.",
        "en": "Best discard: {card}; deadwood after it: {points}.",
    },
    "play.t13_goes_out": {
        "id": "Buang {card} dan Anda keluar (deadwood 0)!",
        "en": "Discard {card} and you go out (deadwood 0)!",
    },
    "play.round_out": {
        "id": "Ronde {number} selesai: {who} keluar lebih dulu.",
        "en": "Round {number} is over: {who} went out first.",
    },
    "play.round_over": {
        "id": "Ronde {number} selesai.",
        "en": "Round {number} is over.",
    },
    "play.round_scores": {
        "id": "Deadwood ronde {number}",
        "en": "Deadwood of round {number}",
    },
    "play.col_deadwood": {
        "id": "Deadwood",
        "en": "Deadwood",
    },
    "play.col_round": {
        "id": "Ronde (wild)",
        "en": "Round (wild)",
    },
    "play.round_table": {
        "id": "Deadwood per ronde (terendah menang)",
        "en": "Deadwood by round (the lowest total wins)",
    },
    "play.no_melds": {
        "id": "Belum ada kartu jadi: semua kartu dihitung mati ({points}).",
        "en": "No melds yet: every card would count as dead ({points}).",
    },
    "play.marks": {
        "id": "▶ giliran · D pembagi kartu",
        "en": "▶ to play · D dealer",
    },
    "play.shown_melds": {
        "id": "Kartu jadinya:",
        "en": "Their melds:",
    },
    # remi play rummy500 (variants/rummy500/tui.py, the call pause in cli/tui/session.py)
    "play.help_players": {
        "id": "Rummy 500: jumlah pemain 2–8 (Anda dan N−1 bot; bawaan 3)",
        "en": "Rummy 500: number of players, 2–8 (you and N−1 bots; default 3)",
    },
    "play.help_warn_playable": {
        "id": "Rummy 500: tanya dulu sebelum Anda membuang kartu yang bisa ditempel di meja "
        "(untuk belajar)",
        "en": "Rummy 500: ask before you discard a card that can be laid off on the table "
        "(for learning)",
    },
    "play.fixed_players": {
        "id": "{variant} punya jumlah pemain tetap; --players untuk Rummy 500",
        "en": "{variant} has a fixed number of players; --players is for Rummy 500",
    },
    "play.bad_bots_count": {
        "id": "--bots: satu tingkat untuk semua {bots} bot atau tepat {bots}, bukan {count}",
        "en": "--bots: one level for all {bots} bots or exactly {bots}, not {count}",
    },
    "play.pos.top_left": {"id": "Kiri atas", "en": "Top left"},
    "play.pos.top_right": {"id": "Kanan atas", "en": "Top right"},
    "play.pos.lower_left": {"id": "Kiri bawah", "en": "Lower left"},
    "play.pos.lower_right": {"id": "Kanan bawah", "en": "Lower right"},
    "play.comma": {"id": ", ", "en": ", "},
    "play.on": {"id": "ya", "en": "on"},
    "play.off": {"id": "tidak", "en": "off"},
    "play.call_prompt": {
        "id": "Enter untuk lanjut, r K untuk panggil Rummy! (t meja, h bantuan) >",
        "en": "Enter to go on, r K to call Rummy! (t table, h help) >",
    },
    "play.call_help": {
        "id": "Rummy! (R5-10): bila sebuah kartu buangan bisa langsung diturunkan bersama "
        "kartu-kartu di atasnya, atau ditempel di meja, ketik r K untuk mengambil kartu "
        "ke-K dari atas dan semua kartu di atasnya; Anda wajib menurunkannya lalu "
        "menyelesaikan giliran, dan permainan berlanjut setelah Anda. Bila beberapa "
        "pemain memanggil, yang paling dekat setelah pembuang yang menang. Panggilan "
        "yang salah hanya dijawab dengan alasannya.",
        "en": "Rummy! (R5-10): if a card of the discard pile can be melded at once with the "
        "cards above it, or laid off on the table, type r K to take the K-th card from "
        "the top and every card above it; you must meld it, then finish the turn, and "
        "play goes on after you. When several call, the nearest after the discarder "
        "wins. A wrong call just gets its reason.",
    },
    "play.call_bad": {
        "id": "Tekan Enter untuk lanjut, atau r K untuk panggil Rummy! atas buangan ke-K "
        "(1 = teratas).",
        "en": "Press Enter to go on, or r K to call Rummy! on the K-th discard (1 = the top).",
    },
    "play.r5_bad_number": {
        "id": "posisi atau nomor harus angka mulai 1, bukan {token!r}",
        "en": "a position or number is a whole number from 1, not {token!r}",
    },
    "play.r5_declare_joker": {
        "id": "hanya Joker yang bisa menyebut kartu yang diwakilinya: {token!r}",
        "en": "only a joker declares what it stands for: {token!r}",
    },
    "play.r5_bad_layoff": {
        "id": "tempel ditulis l KARTU M, mis. l 7h 2 (7h ke gabungan nomor 2)",
        "en": "a lay-off is written l CARD M, e.g. l 7h 2 (7h onto meld 2)",
    },
    "play.r5_seating": {
        "id": "Permainan berjalan searah jarum jam: {order}. Tumpukan buangan dibentangkan: "
        "Anda boleh mengambil kartu mana saja beserta semua kartu di atasnya (d K), "
        "asal kartu itu Anda turunkan pada giliran yang sama.",
        "en": "Play runs clockwise: {order}. The discard pile is spread: you may take any of "
        "its cards with every card above it (d K), if you meld that card in the same "
        "turn.",
    },
    "play.r5_title": {
        "id": "Babak {number} · yang pertama mencapai {target} poin menang",
        "en": "Hand {number} · the first to {target} points wins",
    },
    "play.r5_rules": {
        "id": "Meja: panggilan Rummy {calls} · mengambang {floating} · buangan terakhir "
        "harus mati {last} · skor {scoring}",
        "en": "Table: Rummy calls {calls} · floating {floating} · unplayable last discard "
        "{last} · scoring {scoring}",
    },
    "play.r5_stock": {
        "id": "Tumpukan: {stock} kartu",
        "en": "Stock: {stock} cards",
    },
    "play.r5_pile": {
        "id": "Buangan (1 = teratas):",
        "en": "Discard pile (1 = top):",
    },
    "play.r5_no_table": {
        "id": "Belum ada gabungan di meja.",
        "en": "No melds on the table yet.",
    },
    "play.r5_table_title": {
        "id": "Gabungan di meja (l KARTU M menempel ke gabungan M)",
        "en": "Melds on the table (l CARD M lays off onto meld M)",
    },
    "play.r5_col_meld": {"id": "Gabungan", "en": "Meld"},
    "play.r5_col_laid_by": {"id": "Diturunkan oleh", "en": "Laid by"},
    "play.r5_col_laid_now": {"id": "Babak ini", "en": "This hand"},
    "play.r5_owed": {
        "id": "[bold yellow]Anda wajib menurunkan {card} pada giliran ini (gabungan baru atau "
        "tempel) sebelum membuang.[/]",
        "en": "[bold yellow]You must meld {card} this turn (a new meld or a lay-off) before "
        "you discard.[/]",
    },
    "play.r5_prompt_draw": {
        "id": "Ambil: s tumpukan · d ambil {card} · d K ambil buangan ke-K dan semua di "
        "atasnya (h bantuan) >",
        "en": "Draw: s stock · d take {card} · d K take the K-th discard and all above (h help) >",
    },
    "play.r5_prompt_empty": {
        "id": "Tumpukan habis: d / d K ambil dari buangan, atau decline (h bantuan) >",
        "en": "The stock is empty: d / d K take from the pile, or decline (h help) >",
    },
    "play.r5_prompt_play": {
        "id": "Main: m KARTU… turunkan · l KARTU M tempel · b KARTU buang (m saran, h bantuan) >",
        "en": "Play: m CARDS meld · l CARD M lay off · b CARD discard (m for a hint, h help) >",
    },
    "play.r5_prompt_owed": {
        "id": "Turunkan {card} dulu: m KARTU… atau l KARTU M (m saran, h bantuan) >",
        "en": "Meld {card} first: m CARDS or l CARD M (m for a hint, h help) >",
    },
    "play.r5_did_take_deep": {
        "id": "mengambil buangan ke-{depth} ({cards})",
        "en": "took discard {depth} ({cards})",
    },
    "play.r5_did_call": {
        "id": "[bold yellow]memanggil Rummy![/] atas buangan {who} dan mengambil {cards}",
        "en": "[bold yellow]called Rummy![/] on the discard of {who} and took {cards}",
    },
    "play.r5_did_call_you": {
        "id": "[bold yellow]memanggil Rummy![/] atas buangan Anda dan mengambil {cards}",
        "en": "[bold yellow]called Rummy![/] on your discard and took {cards}",
    },
    "play.r5_did_meld": {
        "id": "menurunkan {cards}",
        "en": "melded {cards}",
    },
    "play.r5_did_layoff": {
        "id": "menempel {card} ke gabungan {meld}",
        "en": "laid off {card} on meld {meld}",
    },
    "play.r5_did_decline": {
        "id": "tidak mengambil kartu (tumpukan habis)",
        "en": "declined to draw (the stock is empty)",
    },
    "play.r5_went_out": {
        "id": "[bold]Keluar![/bold]",
        "en": "[bold]Out![/bold]",
    },
    "play.r5_floats": {
        "id": "Semua kartunya sudah turun: ia mengambang sampai giliran berikutnya (R5-14).",
        "en": "Every card is melded: floating until the next turn (R5-14).",
    },
    "play.r5_you_took": {
        "id": "Anda mengambil {cards} dari buangan.",
        "en": "You took {cards} from the discard pile.",
    },
    "play.r5_you_owe": {
        "id": " Turunkan {card} pada giliran ini.",
        "en": " Meld {card} this turn.",
    },
    "play.r5_you_called": {
        "id": "[bold yellow]Rummy![/] Anda mengambil {cards}; turunkan {card} pada giliran ini.",
        "en": "[bold yellow]Rummy![/] You took {cards}; meld {card} this turn.",
    },
    "play.r5_you_melded": {
        "id": "Anda menurunkan {cards} (gabungan {meld}).",
        "en": "You melded {cards} (meld {meld}).",
    },
    "play.r5_you_laid_off": {
        "id": "Anda menempel {card} ke gabungan {meld}.",
        "en": "You laid {card} off on meld {meld}.",
    },
    "play.r5_you_declined": {
        "id": "Anda tidak mengambil kartu: babak selesai.",
        "en": "You declined to draw: the hand is over.",
    },
    "play.r5_warn_playable": {
        "id": "{card} bisa ditempel ke gabungan {meld}: siapa saja bisa memakainya. Tetap "
        "buang? (y/n)",
        "en": "{card} can be laid off on meld {meld}: anyone may use it. Discard it anyway? (y/n)",
    },
    "play.r5_warn_call": {
        "id": "Dengan {card} di buangan, pemain lain bisa memanggil Rummy!. Tetap buang? (y/n)",
        "en": "With {card} on the pile the others could call Rummy!. Discard it anyway? (y/n)",
    },
    "play.r5_hint_take": {
        "id": "Saran: ambil buangan ke-{depth} ({cards}).",
        "en": "Suggested draw: take discard {depth} ({cards}).",
    },
    "play.r5_hint_stock": {
        "id": "Saran: ambil dari tumpukan.",
        "en": "Suggested draw: the stock.",
    },
    "play.r5_hint_decline": {
        "id": "Saran: decline (tidak ada buangan yang membantu).",
        "en": "Suggested: decline (nothing in the pile helps).",
    },
    "play.r5_hint_hand": {
        "id": "Yang bisa Anda turunkan setelah mengambil:",
        "en": "What you could lay down after drawing:",
    },
    "play.r5_hint_plays": {
        "id": "Saran (+{points} poin di meja):",
        "en": "Suggested (+{points} points on the table):",
    },
    "play.r5_hint_out": {
        "id": "Anda bisa keluar (+{points} poin di meja):",
        "en": "You can go out (+{points} points on the table):",
    },
    "play.r5_hint_nothing": {
        "id": "Tidak ada yang bisa diturunkan atau ditempel sekarang:",
        "en": "Nothing to meld or lay off now:",
    },
    "play.your_hand_one": {
        "id": "Kartu Anda (1):",
        "en": "Your hand (1 card):",
    },
    "play.r5_hint_discard": {
        "id": "buang {card}",
        "en": "discard {card}",
    },
    "play.r5_hint_stuck": {
        "id": "Kartu wajib tidak bisa diturunkan dengan kartu Anda.",
        "en": "The card you owe cannot be melded with your cards.",
    },
    "play.r5_cmd_stock": {
        "id": "ambil kartu teratas tumpukan",
        "en": "draw the top card of the stock",
    },
    "play.r5_cmd_take": {
        "id": "ambil buangan teratas, atau buangan ke-K (1 = teratas) dan semua di atasnya; "
        "kartu ke-K wajib diturunkan giliran ini",
        "en": "take the top discard, or the K-th discard (1 = top) and every card above it; "
        "the K-th card must be melded this turn",
    },
    "play.r5_cmd_meld": {
        "id": "turunkan gabungan (kartu atau nomornya); Joker: Jk=8h (boleh tanpa =, bila "
        "hanya satu kartu cocok)",
        "en": "lay a meld (cards or their numbers); a joker: Jk=8h (the = part may be left "
        "out when only one card fits)",
    },
    "play.r5_cmd_layoff": {
        "id": "tempel 7h ke gabungan nomor 2 di meja (Joker: l Jk=Th 2)",
        "en": "lay 7h off onto table meld 2 (a joker: l Jk=Th 2)",
    },
    "play.r5_cmd_rummy": {
        "id": "panggil Rummy! atas buangan ke-K (setelah pemain lain membuang)",
        "en": "call Rummy! on the K-th discard (after another player's discard)",
    },
    "play.r5_cmd_decline": {
        "id": "saat tumpukan habis: tidak mengambil kartu (babak selesai)",
        "en": "at an empty stock: do not draw (the hand ends)",
    },
    "play.r5_cmd_hint": {
        "id": "saran: cara mengambil, menurunkan dan membuang yang terbaik sekarang",
        "en": "a hint: the best draw, melds, lay-offs and discard now",
    },
    "play.r5_cmd_record": {
        "id": "notasi catatan juga boleh: draw discard 3, meld 7h 8h 9h, rummy 2",
        "en": "record notation works too: draw discard 3, meld 7h 8h 9h, rummy 2",
    },
    "play.r5_out": {
        "id": "Babak {number} selesai: {who} keluar.",
        "en": "Hand {number} is over: {who} went out.",
    },
    "play.r5_declined": {
        "id": "Babak {number} selesai: tumpukan habis dan {who} tidak mengambil kartu.",
        "en": "Hand {number} is over: the stock ran out and {who} declined to draw.",
    },
    "play.r5_hand_scores": {
        "id": "Skor babak {number} (turun − di tangan)",
        "en": "Scores of hand {number} (laid down − left in hand)",
    },
    "play.r5_col_laid": {"id": "Diturunkan", "en": "Laid down"},
    "play.r5_col_in_hand": {"id": "Di tangan", "en": "Left in hand"},
    "play.r5_col_score": {"id": "Skor babak", "en": "Hand score"},
    "play.r5_col_hand": {"id": "Babak {number}", "en": "Hand {number}"},
    "play.r5_game_scores": {
        "id": "Skor per babak (target {target})",
        "en": "Scores by hand (target {target})",
    },
    # -- end of remi play, remi arena, bots --
    # remi replay
    "replay.help": {
        "id": "putar ulang catatan permainan dan tampilkan skornya",
        "en": "replay a game record and print the scores",
    },
    "replay.help_json": {"id": "keluaran satu objek JSON", "en": "print one JSON object"},
    "replay.failed": {
        "id": "catatan tidak dapat diputar ulang{where}: {reason}",
        "en": "the record does not replay{where}: {reason}",
    },
    "replay.title": {"id": "Putar ulang: {variant}", "en": "Replay: {variant}"},
    "replay.not_finished": {
        "id": "Permainan belum selesai.",
        "en": "The game is not finished.",
    },
    "common.deal": {"id": "Babak", "en": "Deal"},
    "common.total": {"id": "Total", "en": "Total"},
    "common.winner_seat": {"id": "Pemenang: kursi {seat}", "en": "Winner: seat {seat}"},
    "common.no_winner": {"id": "Tidak ada pemenang.", "en": "No winner."},
    # remi serve: the web table (remikit.server)
    "serve.help": {
        "id": "jalankan meja web (lobi, meja, bot, penonton)",
        "en": "run the web table (lobby, tables, bots, spectators)",
    },
    "serve.help_host": {
        "id": "alamat yang didengarkan (bawaan: 127.0.0.1)",
        "en": "address to listen on (default: 127.0.0.1)",
    },
    "serve.help_port": {
        "id": "port (bawaan: 8000; 0: port bebas mana saja)",
        "en": "port (default: 8000; 0: any free port)",
    },
    "serve.help_database": {
        "id": "URL basis data SQLAlchemy (bawaan: REMI_DATABASE_URL, atau berkas SQLite)",
        "en": "SQLAlchemy database URL (default: REMI_DATABASE_URL, or a SQLite file)",
    },
    "serve.help_bot_delay": {
        "id": "detik paling sedikit untuk satu langkah bot (bawaan: {default})",
        "en": "seconds a bot's move takes at least (default: {default})",
    },
    "serve.help_call_window": {
        "id": "detik untuk memanggil Rummy setelah setiap buangan (bawaan: {default})",
        "en": "seconds to call Rummy after each discard (default: {default})",
    },
    "serve.bad_database": {
        "id": "tidak bisa membuka basis data: {why}",
        "en": "cannot open the database: {why}",
    },
    "serve.needs_web": {
        "id": "meja web memerlukan paket tambahan web ({module} tidak terpasang): "
        "pip install 'remikit[web]'",
        "en": "the web table needs the web extra ({module} is not installed): "
        "pip install 'remikit[web]'",
    },
    "server.waiting": {
        "id": "permainan dimulai setelah semua kursi terisi",
        "en": "the game starts when every seat is taken",
    },
    "server.stale_state": {
        "id": "meja sudah berubah: langkah Anda dibuat pada keadaan {sent}, sekarang {current}",
        "en": "the table has moved on: your action was made at state {sent}, it is now "
        "at {current}",
    },
    "server.call_window_open": {
        "id": "tunggu: waktu memanggil Rummy sedang berjalan; kini hanya panggilan Rummy "
        "yang diterima",
        "en": "wait: the Rummy call window is open; only Rummy calls (or pass) are taken now",
    },
    "server.storage": {
        "id": "server tidak bisa menyimpan langkah itu; tidak ada yang berubah, coba lagi",
        "en": "the server could not store that action; nothing changed, try again",
    },
    "server.unknown_table": {
        "id": "tidak ada meja {table}",
        "en": "there is no table {table}",
    },
    "server.broken_table": {
        "id": "meja {table} tidak bisa dibangun ulang dari catatannya",
        "en": "table {table} cannot be rebuilt from its record",
    },
    "server.too_many_tables": {
        "id": "terlalu banyak meja terbuka; coba lagi nanti",
        "en": "too many open tables; try again later",
    },
    "server.bad_variant": {
        "id": "varian {variant!r} tidak dikenal; varian: {variants}",
        "en": "unknown variant {variant!r}; variants: {variants}",
    },
    "server.bad_option": {
        "id": "pilihan meja tidak sah: {why}",
        "en": "bad table option: {why}",
    },
    "server.seat_count": {
        "id": "meja ini punya {players} kursi, bukan {given}",
        "en": "this table has {players} seats, not {given}",
    },
    "server.bad_bot": {
        "id": "kursi {seat}: {why}",
        "en": "seat {seat}: {why}",
    },
    "server.seat_kind": {
        "id": 'kursi {seat}: jenisnya "person" atau "bot", bukan {kind!r}',
        "en": 'seat {seat}: kind is "person" or "bot", not {kind!r}',
    },
    "server.bad_name": {
        "id": "nama harus 1 sampai {max} karakter yang bisa dicetak",
        "en": "a name is 1 to {max} printable characters",
    },
    "server.table_full": {
        "id": "tidak ada kursi kosong di meja {table}",
        "en": "there is no free seat at table {table}",
    },
    "server.no_seat": {
        "id": "tidak ada kursi {seat}",
        "en": "there is no seat {seat}",
    },
    "server.seat_bot": {
        "id": "kursi {seat} diduduki bot",
        "en": "seat {seat} is a bot's",
    },
    "server.seat_taken": {
        "id": "kursi {seat} sudah terisi",
        "en": "seat {seat} is taken",
    },
    "server.bad_request": {
        "id": "permintaan tidak sah: {why}",
        "en": "bad request: {why}",
    },
    "server.not_finished": {
        "id": "permainan di meja {table} belum selesai",
        "en": "the game at table {table} is not finished",
    },
    "server.bad_step": {
        "id": "langkah {step} tidak ada; permainan ini punya {steps} langkah",
        "en": "there is no step {step}; this game has {steps} steps",
    },
    "server.need_hello": {
        "id": 'kirim hello dulu: {{"type": "hello", "token": ...}} (tanpa token untuk menonton)',
        "en": 'say hello first: {{"type": "hello", "token": ...}} (no token to watch)',
    },
    "server.bad_token": {
        "id": "token itu bukan milik kursi mana pun di meja {table}",
        "en": "that token holds no seat at table {table}",
    },
    "server.not_text": {
        "id": "pesan harus berupa teks JSON",
        "en": "messages are JSON text",
    },
    "server.bad_json": {
        "id": "pesan bukan JSON yang sah: {why}",
        "en": "the message is not valid JSON: {why}",
    },
    "server.not_object": {
        "id": 'pesan harus objek JSON dengan "type"',
        "en": 'a message is a JSON object with a "type"',
    },
    "server.unknown_type": {
        "id": "jenis pesan tidak dikenal: {type}",
        "en": "unknown message type: {type}",
    },
    "server.need_state_id": {
        "id": 'pesan action memerlukan "state_id" (bilangan bulat: jumlah langkah yang '
        "sudah dijalankan)",
        "en": 'an action message needs "state_id" (an integer: the number of actions '
        "applied so far)",
    },
    "server.need_action": {
        "id": 'pesan action memerlukan "action" (teks, misalnya "discard 7h")',
        "en": 'an action message needs "action" (text, like "discard 7h")',
    },
    "server.spectator": {
        "id": "penonton tidak bisa melangkah; duduklah di kursi untuk bermain",
        "en": "spectators cannot act; take a seat to play",
    },
    "server.call_answered": {
        "id": "Anda sudah menjawab jendela panggilan Rummy ini",
        "en": "you have already answered this Rummy call window",
    },
    "server.bad_action": {
        "id": "bukan langkah: {why}",
        "en": "not an action: {why}",
    },
    "arena.help_jobs_all": {
        "id": "jumlah proses (bawaan 0 = semua inti); hasil tidak bergantung padanya",
        "en": "worker processes (default 0 = every core); results do not depend on it",
    },
    "play.thinking": {"id": "{name} sedang berpikir…", "en": "{name} is thinking…"},
    "serve.newer_database": {
        "id": "basis data ini memakai skema revisi {revision}, lebih baru daripada yang "
        "dikenal remikit ini (sampai {head}): pakai remikit yang lebih baru untuk membukanya",
        "en": "the database is at schema revision {revision}, newer than this remikit "
        "knows (up to {head}): open it with a newer remikit",
    },
}


def t(key: str, lang: str, /, **kw: object) -> str:
    """The message ``key`` in ``lang`` (English when it has no such text), fields filled in."""
    texts = MESSAGES[key]
    return texts.get(lang, texts["en"]).format(**kw)


_BRIEF = 20
_MAX_SHOWN_BITS = 14_000  # about 4200 digits, within what str() of an int converts


def brief(value: object) -> str:
    """A value as a message quotes it: in JSON's spelling, cut short when long, so that a
    refusal of a huge number or a long text stays readable.

    >>> brief(True), brief(3.7), brief("3"), brief(None), brief([1, 2])
    ('true', '3.7', '"3"', 'null', '[…]')
    >>> brief(10**50), brief(-(10**9000))
    ('10000000000000000000…', '-~1e9000')
    """
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        if value.bit_length() > _MAX_SHOWN_BITS:  # more digits than str() converts
            return f"{'-' if value < 0 else ''}~1e{int(value.bit_length() * math.log10(2))}"
        text = str(value)
    elif isinstance(value, float):
        text = repr(value)
    elif isinstance(value, str):
        text = json.dumps(value[: _BRIEF + 1], ensure_ascii=False)
    elif isinstance(value, list | tuple):
        text = "[…]"
    elif isinstance(value, dict):
        text = "{…}"
    else:
        text = type(value).__name__
    return text if len(text) <= _BRIEF else text[:_BRIEF] + "…"


def default_lang() -> str:
    """The locale's language (LC_ALL, LC_MESSAGES, LANG): ``id`` for Indonesian, else ``en``."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return "id" if value.lower().startswith("id") else "en"
    return "en"
