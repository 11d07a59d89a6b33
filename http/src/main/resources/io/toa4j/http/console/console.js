// The toa operator console: logs in for a bearer token (POST /.toa/token with Basic), keeps it in
// this tab's sessionStorage, polls GET state every two seconds with it, and posts replays and
// redeliveries with the header the gateway asks of every action (toa-console). Data reaches the
// page only through textContent: nothing from the server is ever parsed as HTML.
"use strict";

(function () {
  const TOKEN = "toa-console-token";
  const POLL = 2000;
  const $ = (id) => document.getElementById(id);
  let timer = null;
  let pending = null; // the action the confirmation dialog waits for

  function token() { return sessionStorage.getItem(TOKEN); }

  function show(which) {
    for (const id of ["login", "denied", "console"]) $(id).hidden = id !== which;
    $("logout").hidden = which === "login";
  }

  function basic(name, password) {
    const bytes = new TextEncoder().encode(name + ":" + password);
    let binary = "";
    for (const b of bytes) binary += String.fromCharCode(b);
    return "Basic " + btoa(binary);
  }

  async function problem(response) {
    try {
      const body = await response.json();
      return body.detail || response.status + " " + response.statusText;
    } catch (e) {
      return response.status + " " + response.statusText;
    }
  }

  async function login(event) {
    event.preventDefault();
    $("login-error").textContent = "";
    const response = await fetch("../token", {
      method: "POST",
      credentials: "omit",
      headers: { authorization: basic($("name").value, $("password").value) },
    });
    $("password").value = "";
    if (!response.ok) {
      $("login-error").textContent = await problem(response);
      return;
    }
    sessionStorage.setItem(TOKEN, (await response.json()).token);
    start();
  }

  function logout() {
    sessionStorage.removeItem(TOKEN);
    stop();
    clear();
    show("login");
  }

  function start() {
    stop();
    refresh();
    timer = setInterval(refresh, POLL);
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
  }

  function clear() {
    $("components").replaceChildren();
    $("parked").tBodies[0].replaceChildren();
    $("outbox").tBodies[0].replaceChildren();
    $("context").textContent = "";
    $("status").textContent = "";
  }

  /** A refusal from the gateway: back to the login form (401) or the reason, with no data (403). */
  async function refused(response) {
    const reason = await problem(response);
    stop();
    clear();
    if (response.status === 401) {
      sessionStorage.removeItem(TOKEN);
      show("login");
      $("login-error").textContent = reason;
    } else {
      show("denied");
      $("denied-reason").textContent = reason;
    }
  }

  async function refresh() {
    let response;
    try {
      response = await fetch("state", { credentials: "omit", cache: "no-store", headers: { authorization: "Bearer " + token() } });
    } catch (e) {
      stale("the gateway does not answer");
      return;
    }
    if (response.status === 401 || response.status === 403) return refused(response);
    if (!response.ok) return stale(await problem(response));
    render(await response.json());
  }

  function stale(reason) {
    $("status").textContent = "not refreshed: " + reason;
    $("status").className = "status stale";
  }

  async function act(path) {
    const response = await fetch(path, {
      method: "POST",
      credentials: "omit",
      headers: { authorization: "Bearer " + token(), "toa-console": "1" },
    });
    if (response.status === 401 || response.status === 403) return refused(response);
    if (!response.ok) stale(await problem(response));
    refresh();
  }

  function confirmThen(text, path) {
    pending = path;
    $("confirm-text").textContent = text;
    $("confirm").showModal();
  }

  function el(tag, text, className) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (className) e.className = className;
    return e;
  }

  function row(cells) {
    const tr = document.createElement("tr");
    for (const cell of cells) tr.append(cell instanceof Node ? wrap(cell) : cell);
    return tr;
  }

  function wrap(node) {
    if (node.tagName === "TD") return node;
    const td = document.createElement("td");
    td.append(node);
    return td;
  }

  function num(value, bad) {
    return el("td", value, "n" + (bad && value > 0 ? " bad" : ""));
  }

  function ms(value) {
    return el("td", value === 0 ? "–" : value.toFixed(value < 10 ? 2 : 0) + " ms", "n");
  }

  /** A payload as indented JSON when it is JSON (it may have been cut to its first characters). */
  function pretty(payload) {
    try {
      return JSON.stringify(JSON.parse(payload), null, 2);
    } catch (e) {
      return payload;
    }
  }

  function when(iso) {
    return iso ? new Date(iso).toLocaleString() : "–";
  }

  function table(headings, rows) {
    const t = document.createElement("table");
    const head = document.createElement("tr");
    for (const [text, numeric] of headings) head.append(el("th", text, numeric ? "n" : ""));
    t.createTHead().append(head);
    t.createTBody().append(...rows);
    return t;
  }

  function component(c) {
    const box = el("div", null, "component");
    box.dataset.label = c.label;
    const title = el("h3", c.label);
    title.append(el("span", c.hosted ? "hosted here" : "hosted elsewhere", "tag"));
    title.append(el("span", "outbox backlog " + c.backlog, "tag" + (c.backlog > 0 ? " backlog" : "")));
    box.append(title);
    box.append(el("h4", "Operations (calls run in this process)"));
    box.append(table(
      [["Operation"], ["Calls", 1], ["Output", 1], ["Replayed", 1], ["Refused", 1], ["Errors", 1], ["Mean", 1], ["Max", 1], ["Inbox answers", 1], ["Racing twins", 1]],
      c.operations.map((o) => {
        const tr = row([el("td", o.name, "id"), num(o.calls), num(o.outcomes.output), num(o.outcomes.replayed), num(o.outcomes.refused),
          num(o.errors, true), ms(o.meanMillis), ms(o.maxMillis), num(o.inboxAnswers), num(o.twins)]);
        tr.dataset.operation = c.label + "." + o.name;
        return tr;
      })));
    if (c.queues.length > 0) {
      box.append(el("h4", "Queues (waiting and parked now: the whole context; verdicts and lag: this process)"));
      box.append(table(
        [["Queue"], ["Waiting", 1], ["Parked now", 1], ["Delivered", 1], ["Refused", 1], ["Retried", 1], ["Parked", 1], ["Lag mean", 1], ["Lag max", 1]],
        c.queues.map((q) => {
          const tr = row([el("td", q.name, "id"), num(q.depth), num(q.parked, true), num(q.verdicts.delivered), num(q.verdicts.refused),
            num(q.verdicts.retried), num(q.verdicts.parked, true), ms(q.lagMeanMillis), ms(q.lagMaxMillis)]);
          tr.dataset.queue = q.name;
          return tr;
        })));
    }
    return box;
  }

  /** A button that asks to confirm the question, then posts to the action's path. */
  function action(label, className, question, path) {
    const button = el("button", label, className);
    button.type = "button";
    button.addEventListener("click", () => confirmThen(question, path));
    return button;
  }

  /** A row of a table that lists things by id, with its class and id for tests and styles. */
  function listed(cells, className, id) {
    const tr = row(cells);
    tr.className = className;
    tr.dataset.id = id;
    return tr;
  }

  function parked(p) {
    const replay = action("Replay", "replay", "Replay the message " + p.message + " on " + p.queue + "?", "replay?id=" + encodeURIComponent(p.id));
    const failure = el("td");
    failure.append(el("strong", p.code), el("div", p.reason));
    const message = el("td");
    message.append(el("div", p.label), el("div", p.message, "id"));
    return listed([el("td", p.queue, "id"), message, failure, num(p.attempts), el("td", when(p.firstFailed)), el("td", when(p.parked)),
      el("pre", pretty(p.payload)), replay],
      "parked", p.id);
  }

  function entry(o) {
    const again = action("Redeliver", "redeliver", "Deliver again what entry " + o.id + " of " + o.component + " sent?",
      "redeliver?id=" + encodeURIComponent(o.id));
    const sent = [...o.events, ...o.tasks.map((t) => "task " + t)].join(", ") || "–";
    return listed([el("td", when(o.committed)), el("td", o.component), el("td", o.id, "id"), el("td", sent),
      el("td", o.published ? when(o.published) : "waiting"), again], "entry", o.id);
  }

  function render(state) {
    show("console");
    $("context").textContent = state.context + (state.distributed ? " (distributed)" : "");
    $("status").textContent = "refreshed " + new Date().toLocaleTimeString();
    $("status").className = "status";
    $("components").replaceChildren(...state.components.map(component));
    $("parked").tBodies[0].replaceChildren(...state.parked.map(parked));
    $("parked").hidden = state.parked.length === 0;
    $("replay-all").hidden = state.parked.length === 0;
    $("no-parked").hidden = state.parked.length > 0;
    $("parked-count").textContent = state.parked.length;
    $("parked-count").className = "count" + (state.parked.length > 0 ? " alert" : "");
    $("outbox").tBodies[0].replaceChildren(...state.outbox.map(entry));
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("login-form").addEventListener("submit", login);
    $("logout").addEventListener("click", logout);
    $("replay-all").addEventListener("click", () => confirmThen("Replay every parked message?", "replay?all=true"));
    $("confirm-yes").addEventListener("click", () => {
      $("confirm").close();
      const path = pending;
      pending = null;
      if (path) act(path);
    });
    $("confirm-no").addEventListener("click", () => {
      pending = null;
      $("confirm").close();
    });
    if (token()) start();
    else show("login");
  });
})();
