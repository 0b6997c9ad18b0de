// Placeholder table client (the real client comes later): shows the state, sends actions.
const $ = (selector) => document.querySelector(selector);
const code = location.pathname.split("/").pop().toUpperCase();
const token = localStorage.getItem(`remikit.token.${code}`);
const scheme = location.protocol === "https:" ? "wss" : "ws";
const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${code}`);
let stateId = 0;

function send(action) {
  socket.send(JSON.stringify({type: "action", state_id: stateId, action}));
}

socket.addEventListener("open", () => {
  socket.send(JSON.stringify(token ? {type: "hello", token} : {type: "hello"}));
});
socket.addEventListener("message", (event) => {
  const message = JSON.parse(event.data);
  if (message.type === "welcome") {
    $("#who").textContent = message.seat === null ? `${code}: spectator` : `${code}: seat ${message.seat} (${message.name})`;
  } else if (message.type === "state") {
    stateId = message.state_id;
    $("#state").textContent = JSON.stringify(message, null, 1);
    $("#actions").replaceChildren(...message.view.legal_actions.map((action) => {
      const button = document.createElement("button");
      button.textContent = action;
      button.addEventListener("click", () => send(action));
      return button;
    }));
  } else if (message.type === "error") {
    $("#message").textContent = message.message;
  } else {
    $("#message").textContent = JSON.stringify(message);
  }
});
socket.addEventListener("close", (event) => { $("#message").textContent = `closed (${event.code})`; });
$("#act").addEventListener("submit", (event) => {
  event.preventDefault();
  send($("#text").value);
});
