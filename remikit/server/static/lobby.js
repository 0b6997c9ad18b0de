// Placeholder lobby (the real client comes later): list, create, join.
const $ = (selector) => document.querySelector(selector);
const say = (text) => { $("#message").textContent = text; };

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error ? data.error.message : response.statusText);
  return data;
}

async function refresh() {
  const {tables} = await api("/api/tables");
  const body = $("#tables tbody");
  body.replaceChildren();
  for (const table of tables) {
    const row = body.insertRow();
    const seats = table.seats.map((s) => s.kind === "bot" ? `bot:${s.level}` : (s.name || "—")).join(", ");
    for (const text of [table.id, table.variant, table.status, seats]) row.insertCell().textContent = text;
    const link = document.createElement("a");
    link.href = `/table/${table.id}`;
    link.textContent = "watch";
    row.insertCell().append(link);
  }
  const {games} = await api("/api/games");
  $("#games").replaceChildren(...games.map((g) => {
    const item = document.createElement("li");
    item.innerHTML = `${g.id} ${g.variant} <a href="${g.record}">record</a> <a href="${g.replay}?step=0">replay</a>`;
    return item;
  }));
}

$("#create").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  try {
    const body = {variant: form.get("variant"), options: JSON.parse(form.get("options") || "{}")};
    if (form.get("seats")) body.seats = JSON.parse(form.get("seats"));
    const {table} = await api("/api/tables", body);
    $("#join [name=code]").value = table.id;
    say(`table ${table.id} created`);
    refresh();
  } catch (error) { say(error.message); }
});

$("#join").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  try {
    const code = form.get("code").trim().toUpperCase();
    const joined = await api(`/api/tables/${code}/join`, {name: form.get("name")});
    localStorage.setItem(`remikit.token.${joined.table.id}`, joined.token);
    location.href = joined.link;
  } catch (error) { say(error.message); }
});

const {variants} = await api("/api/variants");
$("#variant").replaceChildren(...variants.map((v) => new Option(v.title.en, v.name)));
refresh();
setInterval(refresh, 5000);
