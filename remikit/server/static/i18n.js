// Every string of the browser client in Indonesian (id) and English (en). The server's own
// messages (errors, refusals) come in the language sent in the hello and with ?lang=.

const CATALOGUE = {
  // common
  "app.name": {id: "remikit", en: "remikit"},
  "app.tagline": {
    id: "Remi untuk meja Indonesia: Remi 13 D, Remi 500, Three-Thirteen",
    en: "Rummy for Indonesian tables: Remi 13 D, Rummy 500, Three-Thirteen",
  },
  "lang.switch": {id: "English", en: "Bahasa Indonesia"},
  "lang.switch_title": {id: "Ganti bahasa ke English", en: "Switch the language to Indonesian"},
  "common.you": {id: "Anda", en: "You"},
  "common.joker": {id: "Joker", en: "Joker"},
  "common.seat": {id: "Kursi {n}", en: "Seat {n}"},
  "common.bot": {id: "bot {level}", en: "{level} bot"},
  "common.close": {id: "Tutup jendela", en: "Close"},
  "common.continue": {id: "Lanjut", en: "Continue"},
  "common.lobby": {id: "← Lobi", en: "← Lobby"},
  "common.loading": {id: "Memuat…", en: "Loading…"},
  "common.error": {id: "Terjadi kesalahan: {message}", en: "Something went wrong: {message}"},

  // bot levels
  "level.random": {id: "acak", en: "random"},
  "level.greedy": {id: "serakah", en: "greedy"},
  "level.expert": {id: "ahli", en: "expert"},
  "level.strong": {id: "kuat", en: "strong"},

  // table status
  "status.waiting": {id: "menunggu pemain", en: "waiting for players"},
  "status.playing": {id: "sedang main", en: "playing"},
  "status.finished": {id: "selesai", en: "finished"},

  // lobby
  "lobby.title": {id: "remikit: lobi", en: "remikit: lobby"},
  "lobby.open_tables": {id: "Meja terbuka", en: "Open tables"},
  "lobby.no_tables": {id: "Belum ada meja terbuka. Buat satu di bawah!", en: "No open tables yet. Create one below!"},
  "lobby.col_table": {id: "Meja", en: "Table"},
  "lobby.col_variant": {id: "Varian", en: "Variant"},
  "lobby.col_status": {id: "Keadaan", en: "Status"},
  "lobby.col_seats": {id: "Pemain", en: "Players"},
  "lobby.free": {id: "kosong", en: "free"},
  "lobby.spectators": {id: "{n} penonton", en: "{n} watching"},
  "lobby.join": {id: "Duduk", en: "Sit down"},
  "lobby.back": {id: "Kembali ke kursi", en: "Back to my seat"},
  "lobby.watch": {id: "Tonton", en: "Watch"},
  "lobby.new_table": {id: "Meja baru", en: "New table"},
  "lobby.variant": {id: "Varian", en: "Variant"},
  "lobby.options": {id: "Aturan meja", en: "Table rules"},
  "lobby.seats": {id: "Kursi (urutan giliran)", en: "Seats (in turn order)"},
  "lobby.person": {id: "Orang", en: "Person"},
  "lobby.bot": {id: "Bot", en: "Bot"},
  "lobby.title_field": {id: "Judul meja (boleh kosong)", en: "Table title (optional)"},
  "lobby.your_name": {id: "Nama Anda", en: "Your name"},
  "lobby.name_placeholder": {id: "mis. Budi", en: "e.g. Budi"},
  "lobby.create": {id: "Buat meja dan duduk", en: "Create the table and sit down"},
  "lobby.create_watch": {id: "Buat meja bot dan tonton", en: "Create a bots' table and watch"},
  "lobby.join_code": {id: "Gabung dengan kode", en: "Join by code"},
  "lobby.code": {id: "Kode meja", en: "Table code"},
  "lobby.go": {id: "Buka meja", en: "Open the table"},
  "lobby.finished": {id: "Permainan selesai", en: "Finished games"},
  "lobby.no_games": {id: "Belum ada permainan yang selesai.", en: "No finished games yet."},
  "lobby.replay": {id: "Putar ulang", en: "Replay"},
  "lobby.download": {id: "Unduh rekaman", en: "Download the record"},
  "lobby.winner": {id: "Pemenang: {name}", en: "Winner: {name}"},
  "lobby.no_winner": {id: "Tanpa pemenang", en: "No winner"},
  "lobby.need_name": {id: "Isi nama Anda dulu.", en: "Enter your name first."},
  "lobby.need_code": {id: "Isi kode meja (8 huruf/angka).", en: "Enter a table code (8 letters and digits)."},
  "lobby.creating": {id: "Membuat meja…", en: "Creating the table…"},
  "lobby.more": {id: "Lebih banyak", en: "More"},

  // options
  "opt.players": {id: "Jumlah pemain", en: "Players"},
  "opt.games": {id: "Jumlah permainan dalam satu pertandingan", en: "Games in the match"},
  "opt.jokers": {id: "Joker", en: "Jokers"},
  "opt.ace": {id: "As dalam urutan", en: "Ace in runs"},
  "opt.target": {id: "Target poin", en: "Target score"},
  "opt.scoring": {id: "Cara menilai", en: "Scoring"},
  "opt.rummy_calls": {id: "Panggilan Rummy!", en: "Rummy! calls"},
  "opt.floating": {id: "Mengambang (floating)", en: "Floating"},
  "opt.unplayable_last_discard": {id: "Buangan terakhir tidak boleh bisa ditempel", en: "The last discard must not be playable"},
  "opt.joker_layoff": {id: "Joker boleh ditempel pada", en: "A joker may be laid off onto"},
  "opt.discard_taken_card": {id: "Boleh membuang kartu yang baru diambil dari buangan", en: "May discard the card just taken from the discard pile"},
  "optval.low": {id: "rendah (A 2 3)", en: "low (A 2 3)"},
  "optval.high": {id: "tinggi (Q K A)", en: "high (Q K A)"},
  "optval.standard": {id: "standar (nilai kartu)", en: "standard (card values)"},
  "optval.5-10-15": {id: "5-10-15", en: "5-10-15"},
  "opt.pure_run": {id: "Kartu dasar murni", en: "Pure run"},
  "optval.strict": {id: "tanpa Joker", en: "no joker"},
  "optval.natural4": {id: "4 asli + Joker", en: "4 natural + joker"},
  "optval.runs": {id: "urutan saja", en: "runs only"},
  "optval.any": {id: "urutan atau set", en: "runs or sets"},

  // positions (RULES.md §0: they follow the variant's direction of play)
  "pos.left": {id: "Kiri", en: "Left"},
  "pos.top": {id: "Atas", en: "Top"},
  "pos.right": {id: "Kanan", en: "Right"},
  "pos.bottom": {id: "Bawah", en: "Bottom"},

  // the table page
  "table.title": {id: "remikit: meja {code}", en: "remikit: table {code}"},
  "table.code": {id: "Kode meja", en: "Table code"},
  "table.copy_link": {id: "Salin tautan", en: "Copy the link"},
  "table.copied": {id: "Tautan disalin.", en: "Link copied."},
  "table.join_title": {id: "Duduk di meja {code}", en: "Take a seat at table {code}"},
  "table.choose_seat": {id: "Kursi", en: "Seat"},
  "table.sit": {id: "Duduk", en: "Sit down"},
  "table.just_watch": {id: "Tonton saja", en: "Just watch"},
  "table.no_table": {id: "Tidak ada meja {code}.", en: "There is no table {code}."},
  "table.spectating": {id: "Anda menonton meja ini.", en: "You are watching this table."},
  "table.waiting": {
    id: "Menunggu pemain: {n} kursi kosong. Bagikan kode {code} atau tautannya.",
    en: "Waiting for players: {n} free seat(s). Share the code {code} or the link.",
  },
  "table.stock": {id: "Tumpukan", en: "Stock"},
  "table.discard": {id: "Buangan", en: "Discard pile"},
  "table.empty": {id: "kosong", en: "empty"},
  "table.cards_n": {id: "{n} kartu", en: "{n} cards"},
  "table.prev_discard": {id: "buangan {name}", en: "{name}'s discard"},
  "table.your_discard": {id: "buangan Anda", en: "Your discard"},
  "table.deal.game": {id: "Permainan {n} dari {of}", en: "Game {n} of {of}"},
  "table.deal.hand": {id: "Tangan {n} · target {of}", en: "Hand {n} · target {of}"},
  "table.deal.round": {id: "Ronde {n} dari {of}", en: "Round {n} of {of}"},
  "table.wild": {id: "Kartu liar: {rank} (dan Joker)", en: "Wild: {rank}s (and jokers)"},
  "table.turn_of": {id: "Giliran {name}", en: "{name} to play"},
  "table.your_turn": {id: "Giliran Anda", en: "Your turn"},
  "table.hint_draw": {
    id: "Ambil kartu: klik tumpukan atau kartu buangan.",
    en: "Draw: click the stock or the discard.",
  },
  "table.hint_draw_spread": {
    id: "Ambil kartu: klik tumpukan, atau kartu di buangan (kartu ke-K dan semua di atasnya).",
    en: "Draw: click the stock, or a card of the discard pile (it and every card above it).",
  },
  "table.hint_discard": {id: "Pilih satu kartu lalu Buang.", en: "Select one card, then Discard."},
  "table.hint_discard_close": {
    id: "Pilih satu kartu lalu Buang, atau pilih kartu penutup (As/Joker) lalu Tutup.",
    en: "Select a card and Discard, or select the closing card (an ace or a joker) and Close.",
  },
  "table.hint_discard_melds": {
    id: "Turunkan kartu jadi (pilih kartu, Turunkan), tempel (pilih kartu, klik gabungan di meja), lalu buang.",
    en: "Meld (select cards, Meld), lay off (select a card, click a table meld), then discard.",
  },
  "table.must_meld": {id: "Anda wajib menurunkan {card} pada giliran ini.", en: "You must meld {card} this turn."},
  "table.went_out": {
    id: "{name} keluar! Setiap pemain lain mendapat satu giliran terakhir.",
    en: "{name} went out! Every other player takes one last turn.",
  },
  "table.last": {id: "Terakhir: {what}", en: "Last: {what}"},
  "table.melds": {id: "Kartu jadi di meja", en: "Melds on the table"},
  "table.no_melds": {id: "Belum ada kartu jadi.", en: "No melds yet."},
  "table.meld_owner": {id: "#{n} · {name}", en: "#{n} · {name}"},
  "table.layoff_here": {id: "Tempel kartu terpilih ke gabungan #{n}", en: "Lay off the selected card on meld #{n}"},
  "table.shown_melds": {id: "Kartu {name}", en: "{name}'s melds"},
  "table.total": {id: "Total {n}", en: "Total {n}"},
  "table.disconnected": {id: "terputus", en: "away"},
  "table.hand_label": {id: "Kartu Anda", en: "Your hand"},
  "table.hand_of": {id: "Kartu {name}", en: "{name}'s hand"},
  "table.select_help": {id: "Klik untuk memilih · geser untuk menyusun", en: "Click to select · drag to reorder"},
  "table.log": {id: "Jalannya permainan", en: "Play so far"},
  "table.seat_draw": {id: "Undian kursi", en: "Seat draw"},
  "table.choose_joker": {id: "Joker sebagai apa?", en: "What does the joker stand for?"},
  "table.cancel": {id: "Batal", en: "Cancel"},
  "table.show_results": {id: "Hasil terakhir", en: "Last results"},
  "table.reconnecting": {id: "Koneksi terputus, menyambung ulang…", en: "Connection lost, reconnecting…"},
  "table.bad_token": {
    id: "Token kursi Anda tidak berlaku di meja ini; Anda sekarang menonton.",
    en: "Your seat token does not hold a seat at this table; you are watching.",
  },
  "table.replay": {id: "Putar ulang permainan ini", en: "Replay this game"},

  // buttons
  "btn.sort_suit": {id: "Urut jenis", en: "By suit"},
  "btn.sort_rank": {id: "Urut angka", en: "By rank"},
  "btn.discard": {id: "Buang", en: "Discard"},
  "btn.meld": {id: "Turunkan", en: "Meld"},
  "btn.close": {id: "Tutup", en: "Close"},
  "btn.rummy": {id: "Rummy!", en: "Rummy!"},
  "btn.pass": {id: "Lewat", en: "No call"},
  "btn.decline": {id: "Tolak (akhiri tangan)", en: "Decline (end the hand)"},
  "btn.clear": {id: "Batal pilih", en: "Clear"},

  // Rummy 500 calls
  "call.open": {id: "Waktu memanggil Rummy! · kartu ke-{k} dari atas", en: "Rummy! may be called · card {k} from the top"},
  "call.window": {id: "Waktu memanggil Rummy!", en: "Rummy! may be called"},
  "call.pending": {id: "Anda memanggil Rummy! (kartu ke-{k}).", en: "You called Rummy! (card {k})."},
  "call.passed": {id: "Anda tidak memanggil.", en: "You did not call."},
  "call.lost": {id: "Panggilan Rummy! Anda kalah: {name} lebih dulu.", en: "Your Rummy! call lost: {name} came first."},
  "call.help": {
    id: "Klik kartu buangan untuk memilih kedalaman, lalu Rummy!",
    en: "Click a discard to choose how deep, then Rummy!",
  },

  // what happened (log lines)
  "act.draw_stock": {id: "{who} mengambil dari tumpukan", en: "{who} drew from the stock"},
  "act.draw_discard": {id: "{who} mengambil {card} dari buangan", en: "{who} took {card} from the discard pile"},
  "act.draw_deep": {id: "{who} mengambil {k} kartu dari buangan", en: "{who} took {k} cards from the discard pile"},
  "act.discard": {id: "{who} membuang {card}", en: "{who} discarded {card}"},
  "act.close": {id: "{who} tutup dengan {card}!", en: "{who} closed (tutup) with {card}!"},
  "act.meld": {id: "{who} menurunkan {cards}", en: "{who} melded {cards}"},
  "act.layoff": {id: "{who} menempel {card} ke #{n}", en: "{who} laid off {card} on #{n}"},
  "act.pass": {id: "{who} tidak memanggil Rummy", en: "{who} does not call Rummy"},
  "act.rummy": {id: "{who} memanggil Rummy! (kartu ke-{k})", en: "{who} called Rummy! (card {k})"},
  "act.decline": {id: "{who} menolak mengambil; tangan berakhir", en: "{who} declined; the hand ends"},
  "act.none": {id: "Belum ada langkah.", en: "No moves yet."},

  // end of a deal, end of the game
  "end.deal_over.game": {id: "Permainan {n} selesai", en: "Game {n} is over"},
  "end.deal_over.hand": {id: "Tangan {n} selesai", en: "Hand {n} is over"},
  "end.deal_over.round": {id: "Ronde {n} selesai", en: "Round {n} is over"},
  "end.by.close": {id: "{name} tutup.", en: "{name} closed (tutup)."},
  "end.by.stock": {id: "Tumpukan habis.", en: "The stock ran out."},
  "end.by.out": {id: "{name} keluar.", en: "{name} went out."},
  "end.by.declined": {id: "{name} menolak mengambil dari tumpukan kosong.", en: "{name} declined at an empty stock."},
  "end.melds": {id: "Kartu jadi", en: "Melds"},
  "end.dead": {id: "Kartu mati", en: "Dead cards"},
  "end.none": {id: "—", en: "—"},
  "end.points": {id: "{n} poin", en: "{n} points"},
  "end.deadwood": {id: "kartu mati {n}", en: "deadwood {n}"},
  "end.closing": {id: "Kartu penutup {card}, bonus {bonus}", en: "Closing card {card}, bonus {bonus}"},
  "end.went_out": {id: "keluar", en: "went out"},
  "end.game_over": {id: "Permainan selesai", en: "Game over"},
  "end.winner": {id: "{name} menang!", en: "{name} wins!"},
  "end.you_win": {id: "Anda menang!", en: "You win!"},
  "end.no_winner": {id: "Seri: tidak ada pemenang.", en: "A tie: nobody wins."},
  "end.lower_better": {id: "(nilai terkecil menang)", en: "(lowest total wins)"},

  // scores
  "scores.title": {id: "Skor", en: "Scores"},
  "scores.deal": {id: "#", en: "#"},
  "scores.total": {id: "Total", en: "Total"},
  "scores.chart": {id: "Total setelah setiap {deal}", en: "Totals after each {deal}"},
  "scores.deal_word.game": {id: "permainan", en: "game"},
  "scores.deal_word.hand": {id: "tangan", en: "hand"},
  "scores.deal_word.round": {id: "ronde", en: "round"},
  "scores.none": {id: "Belum ada skor.", en: "No scores yet."},

  // replay
  "replay.title": {id: "Putar ulang {code}", en: "Replay {code}"},
  "replay.step": {id: "Langkah {k} dari {n}", en: "Step {k} of {n}"},
  "replay.view": {id: "Sudut pandang", en: "Point of view"},
  "replay.public": {id: "Penonton (umum)", en: "Spectator (public)"},
  "replay.first": {id: "◀◀ Awal", en: "◀◀ Start"},
  "replay.prev": {id: "◀ Mundur", en: "◀ Back"},
  "replay.next": {id: "Maju ▶", en: "Forward ▶"},
  "replay.last": {id: "Akhir ▶▶", en: "End ▶▶"},
  "replay.play": {id: "Putar", en: "Play"},
  "replay.pause": {id: "Jeda", en: "Pause"},
  "replay.action": {id: "Langkah ini: {what}", en: "This step: {what}"},
  "replay.start": {id: "Awal permainan", en: "The start of the game"},
};

const KEY = "remikit.lang";

function initialLang() {
  const stored = localStorage.getItem(KEY);
  if (stored === "id" || stored === "en") return stored;
  const browser = (navigator.language || "id").toLowerCase();
  return browser.startsWith("en") ? "en" : "id";
}

let current = initialLang();
const listeners = [];

export const lang = () => current;

export function setLang(value) {
  if (value !== "id" && value !== "en") return;
  current = value;
  localStorage.setItem(KEY, value);
  document.documentElement.lang = value;
  for (const listener of listeners) listener(value);
}

export function onLangChange(listener) { listeners.push(listener); }

/** The string `key` in the current language with {fields} filled in. */
export function t(key, fields = {}) {
  const entry = CATALOGUE[key];
  if (!entry) {
    console.warn(`remikit: no string ${key}`);
    return key;
  }
  return entry[current].replace(/\{(\w+)\}/g, (match, name) => (name in fields ? String(fields[name]) : match));
}

export const has = (key) => key in CATALOGUE;

/** Every key has both languages (checked by the browser tests through window). */
export function missingTranslations() {
  return Object.entries(CATALOGUE).filter(([, entry]) => !entry.id || !entry.en).map(([key]) => key);
}

/** A button that switches between Indonesian and English. */
export function langButton() {
  const button = document.createElement("button");
  button.type = "button";
  button.id = "lang-toggle";
  button.className = "lang-toggle";
  const paint = () => {
    button.textContent = t("lang.switch");
    button.title = t("lang.switch_title");
    button.dataset.lang = current;
  };
  paint();
  button.addEventListener("click", () => setLang(current === "id" ? "en" : "id"));
  onLangChange(paint);
  document.documentElement.lang = current;
  return button;
}
