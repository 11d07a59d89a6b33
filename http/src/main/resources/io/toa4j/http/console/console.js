// The toa operator console: logs in for a bearer token (POST /.toa/token with Basic), keeps it in
// this tab's sessionStorage, polls GET state every two seconds with it (one page of the parked
// messages that match the filter, filtered and counted on the server), and posts replays, discards
// and redeliveries with the header the gateway asks of every action (toa-console). Log out revokes
// the token on the server (DELETE /.toa/token). A poll updates the page in place: rows that did not
// change keep their elements, the selected message stays selected and its payload is not fetched
// again, so a selection and a scrolled payload survive. Data reaches the page only through
// textContent: nothing from the server is ever parsed as HTML.
"use strict";

(function () {
  const TOKEN = "toa-console-token";
  const POLL = 2000;
  const $ = (id) => document.getElementById(id);
  const PAGE = 25;
  const FILTERS = ["component", "operation", "code", "since", "search"];
  let timer = null;
  let paused = false;
  let pending = null; // the action the confirmation dialog waits for: { path, reason }
  let offset = 0;
  let selected = null; // the id of the parked message shown below the table
  let shownRows = new Map(); // id -> { sig, tr }: the rows drawn, kept while they do not change
  let facets = ""; // what the filter's choices were drawn from
  let last = null; // the parked part of the last state drawn
  let asked = 0; // polls asked for: only the answer to the latest one is drawn
  const drawn = { components: "", outbox: "" }; // what the panels were last drawn from

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

  /** Revokes the token on the server, then forgets it here whatever the answer. */
  async function logout() {
    const held = token();
    sessionStorage.removeItem(TOKEN);
    stop();
    clear();
    show("login");
    if (held) {
      try {
        await fetch("../token", { method: "DELETE", credentials: "omit", headers: { authorization: "Bearer " + held } });
      } catch (e) {
        $("login-error").textContent = "logged out here; the gateway did not answer, so the token lives until it expires";
      }
    }
  }

  function start() {
    stop();
    refresh();
    if (!paused) timer = setInterval(refresh, POLL);
  }

  function pause() {
    paused = !paused;
    $("pause").textContent = paused ? "Resume" : "Pause";
    if (paused) {
      stop();
      $("status").textContent = "paused";
      $("status").className = "status";
    } else start();
  }

  /** The filter as the page holds it: only the fields given. */
  function filter() {
    const f = {};
    for (const name of ["component", "operation", "code", "search"]) {
      const value = $("f-" + name).value.trim();
      if (value) f[name] = value;
    }
    const since = $("f-since").value;
    if (since && !isNaN(new Date(since).getTime())) f.since = new Date(since).toISOString();
    return f;
  }

  function query(fields) {
    const q = new URLSearchParams(fields).toString();
    return q ? "?" + q : "";
  }

  function filtered() {
    return Object.keys(filter()).length > 0;
  }

  /** The filter changed: back to its first page. */
  function refilter() {
    offset = 0;
    refresh();
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
  }

  function clear() {
    $("components").replaceChildren();
    $("parked").tBodies[0].replaceChildren();
    shownRows = new Map();
    selected = null;
    last = null;
    facets = "";
    drawn.components = "";
    drawn.outbox = "";
    $("detail").hidden = true;
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
    const mine = ++asked;
    let response;
    try {
      const fields = filter();
      if (offset > 0) fields.offset = offset;
      fields.size = PAGE;
      response = await fetch("state" + query(fields), { credentials: "omit", cache: "no-store", headers: { authorization: "Bearer " + token() } });
    } catch (e) {
      stale("the gateway does not answer");
      return;
    }
    if (response.status === 401 || response.status === 403) return refused(response);
    if (!response.ok) return stale(await problem(response));
    const state = await response.json();
    if (mine === asked) render(state);
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

  /** Asks to confirm; with a reason asked for, the action waits for one and carries it. */
  function confirmThen(text, path, reason) {
    pending = { path, reason: !!reason };
    $("confirm-text").textContent = text;
    $("reason-label").hidden = !reason;
    $("reason").value = "";
    $("confirm-yes").disabled = !!reason;
    $("confirm").showModal();
    if (reason) $("reason").focus();
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
  function action(label, className, question, path, reason) {
    const button = el("button", label, className);
    button.type = "button";
    button.addEventListener("click", (event) => {
      event.stopPropagation();
      confirmThen(question, path, reason);
    });
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
    const discard = action("Discard", "discard danger", "Discard the message " + p.message + " on " + p.queue + " for good?",
      "discard?id=" + encodeURIComponent(p.id), true);
    const failure = el("td");
    failure.append(el("strong", p.code), el("div", p.reason));
    const message = el("td");
    message.append(el("div", p.label), el("div", p.message, "id"));
    const buttons = el("td", null, "actions");
    buttons.append(replay, " ", discard);
    const tr = listed([el("td", p.queue, "id"), message, el("td", p.operation, "id"), failure, num(p.attempts), el("td", when(p.firstFailed)),
      el("td", when(p.parked)), buttons], "parked", p.id);
    tr.addEventListener("click", () => select(p.id));
    return tr;
  }

  /** Shows a parked message whole below the table: fetched once per selection, not on every poll. */
  async function select(id) {
    selected = id;
    for (const [key, shown] of shownRows) shown.tr.classList.toggle("selected", key === id);
    const response = await fetch("message?id=" + encodeURIComponent(id), { credentials: "omit", cache: "no-store", headers: { authorization: "Bearer " + token() } });
    if (response.status === 401 || response.status === 403) return refused(response);
    if (selected !== id) return;
    $("detail").hidden = false;
    if (!response.ok) {
      $("detail-message").textContent = id;
      $("detail-facts").replaceChildren(el("dd", await problem(response)));
      $("detail-failures").tBodies[0].replaceChildren();
      $("detail-actions").tBodies[0].replaceChildren();
      $("detail-trace").textContent = "";
      $("detail-journal-part").hidden = true;
      $("detail-payload").textContent = "";
      return;
    }
    const m = await response.json();
    $("detail-message").textContent = m.message;
    const facts = [["Parked id", m.id], ["Event or task", m.label], ["Queue", m.queue], ["Operation", m.operation], ["Code", m.code],
      ["Reason", m.reason], ["Attempts", m.attempts], ["First failed", when(m.firstFailed)], ["Parked", when(m.parked)]];
    $("detail-facts").replaceChildren(...facts.flatMap(([k, v]) => [el("dt", k), el("dd", v)]));
    $("detail-failures").tBodies[0].replaceChildren(...(m.failures || []).map((f) =>
      row([el("td", when(f.at)), num(f.attempt), el("td", f.code), el("td", f.reason)])));
    $("detail-trace").textContent = m.trace || "–";
    const actions = m.actions || [];
    $("detail-actions").tBodies[0].replaceChildren(...(actions.length ? actions.map((a) =>
      row([el("td", when(a.at)), el("td", a.action), el("td", a.by), el("td", a.reason || "")])) : [row([el("td", "none yet")])]));
    const journal = m.journal || [];
    $("detail-journal-part").hidden = journal.length === 0;
    $("detail-journal").tBodies[0].replaceChildren(...journal.map((j) =>
      row([el("td", j.asked, "id"), el("td", when(j.at)), num(j.bytes)])));
    $("detail-restart").onclick = () => confirmThen("Restart the continuous run of " + m.message + " from the top? Its "
      + journal.length + " journaled step(s) are dropped and run again, live.", "restart?id=" + encodeURIComponent(m.id));
    $("detail-payload").textContent = pretty(m.payload);
  }

  /** The choices of one filter: what is parked now, with counts, and the choice made kept. */
  function choices(id, counts) {
    const select = $(id);
    const chosen = select.value;
    const options = [el("option", "all")];
    options[0].value = "";
    for (const [value, count] of Object.entries(counts)) {
      const option = el("option", value + " (" + count + ")");
      option.value = value;
      options.push(option);
    }
    if (chosen && !(chosen in counts)) {
      const option = el("option", chosen + " (0)");
      option.value = chosen;
      options.push(option);
    }
    select.replaceChildren(...options);
    select.value = chosen;
  }

  function renderParked(p) {
    if (p.rows.length === 0 && p.matching > 0 && p.offset > 0) {
      // the page emptied under it (replayed, discarded): to the last page there is
      offset = Math.floor((p.matching - 1) / PAGE) * PAGE;
      refresh();
      return;
    }
    last = p;
    const sig = JSON.stringify([p.components, p.operations, p.codes]);
    if (sig !== facets) {
      facets = sig;
      choices("f-component", p.components);
      choices("f-operation", p.operations);
      choices("f-code", p.codes);
    }
    const next = new Map();
    const rows = p.rows.map((r) => {
      const rowSig = JSON.stringify(r);
      const old = shownRows.get(r.id);
      const tr = old && old.sig === rowSig ? old.tr : parked(r);
      tr.classList.toggle("selected", r.id === selected);
      next.set(r.id, { sig: rowSig, tr });
      return tr;
    });
    shownRows = next;
    const body = $("parked").tBodies[0];
    if (rows.length !== body.children.length || rows.some((tr, i) => body.children[i] !== tr)) body.replaceChildren(...rows);
    $("parked").hidden = rows.length === 0;
    $("no-parked").hidden = p.total > 0;
    $("no-match").hidden = p.total === 0 || p.matching > 0;
    $("parked-count").textContent = p.total;
    $("parked-count").className = "count" + (p.total > 0 ? " alert" : "");
    const from = p.matching === 0 ? 0 : p.offset + 1;
    const to = p.offset + p.rows.length;
    $("shown").textContent = p.total === 0 ? "" :
      from + "–" + to + " of " + p.matching + (filtered() ? " matching (" + p.total + " parked)" : "");
    $("prev").disabled = p.offset === 0;
    $("next").disabled = to >= p.matching;
    const scope = filtered() ? "the " + p.matching + " matching" : "all (" + p.total + ")";
    $("replay-matching").textContent = "Replay " + scope;
    $("discard-matching").textContent = "Discard " + scope + "…";
    for (const id of ["replay-matching", "discard-matching"]) $(id).disabled = p.matching === 0;
    if (selected && !next.has(selected) && p.offset === 0 && p.matching <= p.rows.length && !$("detail").hidden)
      $("detail-message").textContent = selected + " (no longer parked, or filtered out)";
  }

  /** Bulk actions take what the filter matches now, and the confirmation says how many. */
  function bulk(verb) {
    if (!last) return;
    const fields = filter();
    const scope = filtered() ? query(fields) : "?all=true";
    const described = Object.entries(fields).map(([k, v]) => k + " " + v).join(", ");
    const count = filtered() ? last.matching : last.total;
    const what = count + " parked message" + (count === 1 ? "" : "s") + (filtered() ? " that match (" + described + ")" : "");
    if (verb === "replay") confirmThen("Replay the " + what + "?", "replay" + scope);
    else confirmThen("Discard the " + what + " for good?", "discard" + scope, true);
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
    $("status").textContent = (paused ? "paused; " : "") + "refreshed " + new Date().toLocaleTimeString();
    $("status").className = "status";
    const components = JSON.stringify(state.components);
    if (components !== drawn.components) {
      drawn.components = components;
      $("components").replaceChildren(...state.components.map(component));
    }
    renderParked(state.parked);
    const outbox = JSON.stringify(state.outbox);
    if (outbox !== drawn.outbox) {
      drawn.outbox = outbox;
      $("outbox").tBodies[0].replaceChildren(...state.outbox.map(entry));
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("login-form").addEventListener("submit", login);
    $("logout").addEventListener("click", logout);
    $("replay-matching").addEventListener("click", () => bulk("replay"));
    $("discard-matching").addEventListener("click", () => bulk("discard"));
    $("pause").addEventListener("click", pause);
    $("prev").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); refresh(); });
    $("next").addEventListener("click", () => { offset += PAGE; refresh(); });
    for (const name of FILTERS) $("f-" + name).addEventListener("change", refilter);
    $("f-search").addEventListener("input", refilter);
    $("filters").addEventListener("submit", (event) => { event.preventDefault(); refilter(); });
    $("f-clear").addEventListener("click", () => {
      for (const name of FILTERS) $("f-" + name).value = "";
      refilter();
    });
    $("reason").addEventListener("input", () => { $("confirm-yes").disabled = $("reason").value.trim() === ""; });
    $("confirm-yes").addEventListener("click", () => {
      $("confirm").close();
      const chosen = pending;
      pending = null;
      if (!chosen) return;
      const reason = $("reason").value.trim();
      if (chosen.reason && !reason) return;
      act(chosen.reason ? chosen.path + "&reason=" + encodeURIComponent(reason) : chosen.path);
    });
    $("confirm-no").addEventListener("click", () => {
      pending = null;
      $("confirm").close();
    });
    if (token()) start();
    else show("login");
  });
})();
