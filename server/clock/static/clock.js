// The room's screen: follows the server's feed (server-sent events, one state a second)
// and draws it. The countdown runs between states from the last one received, so it
// moves smoothly; when no state comes for a few seconds the page says the server is
// unreachable, freezes, and reconnects by itself (the browser retries every 2 s; a
// watchdog reopens the stream if the browser gives up).
"use strict";

(function () {
  const STALE_MS = 4000;       // no state for this long: the server is unreachable
  const REOPEN_MS = 2000;      // a closed stream is reopened after this
  const STATE_VERSION = 1;

  const $ = (id) => document.getElementById(id);
  const body = document.body;
  let source = null;
  let feed = null;
  let state = null;            // the clock part of the last state
  let full = null;             // the whole last state (standings, tables)
  let receivedAt = 0;          // performance.now() when it came
  let lastLevel = null;
  let frames = 0;              // states received (body[data-frames]: tests wait on it)
  let warned = false;
  let soundOn = false;
  let audio = null;

  // -- formatting ------------------------------------------------------------------------

  const num = (n) => (n === null || n === undefined ? "–" : Math.round(n).toLocaleString("en-US"));

  function clockText(seconds) {
    const total = Math.max(0, Math.ceil(seconds));
    const h = Math.floor(total / 3600);
    const m = Math.floor((total % 3600) / 60);
    const s = total % 60;
    const mm = String(m).padStart(2, "0");
    const ss = String(s).padStart(2, "0");
    return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
  }

  function agoText(seconds) {
    if (seconds < 60) return "just now";
    const m = Math.floor(seconds / 60);
    return m < 60 ? `${m} min ago` : `${Math.floor(m / 60)} h ago`;
  }

  function blindsText(b) {
    return `${num(b.small_blind)} / ${num(b.big_blind)}`;
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // Big numbers shrink to stay in their box ("10,000 / 20,000" at a late level).
  function setText(id, text, long = 9, longer = 13) {
    const e = $(id);
    e.textContent = text;
    e.classList.toggle("long", text.length > long && text.length <= longer);
    e.classList.toggle("longer", text.length > longer);
  }

  function fill(list, items, empty) {
    list.replaceChildren();
    if (!items.length) {
      list.append(el("li", "empty", empty));
      return;
    }
    for (const item of items) list.append(item);
  }

  // -- views ------------------------------------------------------------------------------

  function route() {
    const hash = location.hash.replace("#", "");
    let view = "clock";
    let table = null;
    if (hash === "standings" || hash === "tables") view = hash;
    const m = /^table-(\d+)$/.exec(hash);
    if (m) { view = "tables"; table = Number(m[1]); }
    body.classList.remove("view-clock", "view-standings", "view-tables");
    body.classList.add(`view-${view}`);
    body.classList.toggle("one-table", table !== null);
    body.dataset.table = table === null ? "" : String(table);
    for (const a of document.querySelectorAll("#bottom nav a")) {
      a.classList.toggle("active", a.dataset.view === view);
    }
    if (feed !== view) open(view);
  }

  // -- the connection ---------------------------------------------------------------------

  function open(name) {
    if (source) source.close();
    feed = name;
    source = new EventSource(`/events/${name}`);
    source.onmessage = (e) => receive(JSON.parse(e.data));
    source.onerror = () => { if (source.readyState !== EventSource.OPEN) down(); };
  }

  function down() {
    body.dataset.conn = "down";
    $("status").textContent = "offline";
  }

  setInterval(() => {
    if (!state || performance.now() - receivedAt > STALE_MS) down();
    if (source && source.readyState === EventSource.CLOSED) {
      source = null;
      setTimeout(() => open(feed), REOPEN_MS);
    }
  }, 1000);

  function receive(data) {
    const clock = data.clock || data;
    if (clock.v > STATE_VERSION) { location.reload(); return; }
    if (!clock.v) return;  // the server could not build this state: keep the last one
    full = data;
    const levelNo = clock.level.number;
    if (state && lastLevel !== null && levelNo !== lastLevel && clock.phase !== "finished") cue(3);
    lastLevel = levelNo;
    state = clock;
    receivedAt = performance.now();
    body.dataset.conn = "live";
    body.dataset.frames = String(++frames);
    draw();
  }

  // -- drawing ----------------------------------------------------------------------------

  function phaseOf(s) {
    if (s.phase === "paused" && s.on_break) return "break";
    return s.phase;
  }

  function secondsLeft(s) {
    if (phaseOf(s) === "break" && s.break_seconds_left !== null && s.break_seconds_left !== undefined) {
      // A scheduled break counts down to play resuming, live or not.
      return Math.max(0, s.break_seconds_left - (performance.now() - receivedAt) / 1000);
    }
    const lv = s.level;
    if (lv.seconds_left === null) return null;
    const running = lv.running && body.dataset.conn === "live";
    const gone = running ? (performance.now() - receivedAt) / 1000 : 0;
    return Math.max(0, lv.seconds_left - gone);
  }

  function tick() {
    $("wall").textContent = new Date().toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
    if (!state) return;
    const s = state;
    const cd = $("countdown");
    const left = secondsLeft(s);
    let mini = "";
    if (left === null) {
      const hands = s.level.hands_left;
      cd.textContent = `${hands} hand${hands === 1 ? "" : "s"}`;
      cd.classList.add("hands");
      cd.classList.remove("warn", "last");
      const per = s.level.hands_per_level * Math.max(1, s.tables);
      $("progress-bar").style.width = `${Math.min(100, 100 * (1 - hands / per))}%`;
      mini = `${hands} hands`;
    } else {
      cd.textContent = clockText(left);
      cd.classList.remove("hands");
      cd.classList.toggle("long", left >= 3600);
      const live = s.phase === "running";
      cd.classList.toggle("warn", live && left <= 60 && left > 10);
      cd.classList.toggle("last", live && left <= 10);
      const total = (phaseOf(s) === "break" && s.break_seconds) || s.level.level_seconds || 1;
      $("progress-bar").style.width = `${Math.min(100, 100 * (1 - left / total))}%`;
      mini = clockText(left);
      if (live && left <= 60 && !warned) { warned = true; cue(1); }
      if (left > 60) warned = false;
    }
    const label = phaseOf(s) === "paused" ? "PAUSED" : phaseOf(s) === "break" ? "BREAK" : `Level ${s.level.number}`;
    $("name").dataset.mini = `${label} · ${blindsText(s.level)} · ${mini}`;
  }

  function draw() {
    const s = state;
    const phase = phaseOf(s);
    body.dataset.phase = phase;
    body.dataset.level = String(s.level.number);
    document.title = `${s.name} · clock`;
    $("name").textContent = s.name;
    $("status").textContent = { running: "live", paused: "paused", break: "break",
                               registering: "registration", finished: "finished" }[phase] || phase;

    let level = `Level ${s.level.number}`;
    if (phase === "paused") level = "Paused";
    else if (phase === "break") level = "Break";
    else if (phase === "registering") level = "Registration";
    else if (phase === "finished") level = "Tournament over";
    $("level").textContent = level;
    setText("blinds", blindsText(s.level), 11, 15);

    let notice = "";
    if (phase === "paused" || phase === "break") notice = s.paused_reason ? `Level ${s.level.number} · ${s.paused_reason}` : `Level ${s.level.number}`;
    else if (phase === "registering") notice = `${s.players.registered} registered · starts ${s.starts || "when the director starts it"}`;
    else if (s.deadline_passed) notice = "The deadline has passed: tables finish the hand they play";
    else if (s.late_until) notice = `Late registration open until the end of level ${s.late_until}`;
    $("notice").textContent = notice;

    setText("players", phase === "registering" ? num(s.players.registered)
      : `${num(s.players.left)} / ${num(s.players.registered)}`);
    $("players-sub").textContent = phase === "registering" ? "registered" : "left of registered";
    setText("avg", num(s.average_stack));
    $("avg-bb").textContent = s.average_bb === null ? "" : `${s.average_bb.toFixed(1)} big blinds`;
    setText("chips", num(s.chips_in_play));
    $("tables").textContent = `${s.tables} table${s.tables === 1 ? "" : "s"} · ${num(s.hands)} hands`;

    setText("next", blindsText(s.next_level));
    $("next-sub").textContent = `level ${s.next_level.number}`;
    $("next-break").textContent = !s.next_break ? "none scheduled"
      : s.next_break_seconds === null ? `after level ${s.next_break.after_level} (${s.next_break.minutes} min)`
      : `in ${clockText(s.next_break_seconds)} (${s.next_break.minutes} min)`;
    $("deadline").textContent = s.deadline || "none";
    $("deadline-sub").textContent = s.deadline_passed ? "passed: last hands" : s.deadline ? "no new hand after it" : "play to the last chip";

    fill($("moves"), s.moves.map(moveItem), "No moves yet");
    fill($("announcements"), s.announcements.map((a) => {
      const li = el("li");
      li.append(el("span", "text", a.text), el("span", "ago", agoText(a.ago)));
      return li;
    }), "No announcements");

    drawFinal(s);
    if (full && full.standings) drawStandings(full.standings);
    if (full && full.tables) drawTables(full.tables);
    tick();
  }

  function moveItem(m) {
    let text;
    if (m.kind === "move") text = `${m.name}: table ${m.from_table} seat ${m.from_seat} → table ${m.to_table} seat ${m.to_seat}`;
    else if (m.kind === "table_broken") text = `Table ${m.table} breaks: ${m.players} player${m.players === 1 ? "" : "s"} move`;
    else text = `Final table: table ${m.table}, ${m.players} players`;
    const li = el("li");
    li.append(el("span", "text", text), el("span", "ago", agoText(m.ago)));
    return li;
  }

  function medal(place) {
    const cls = place <= 3 ? `medal p${place}` : "medal other";
    return el("span", cls, String(place));
  }

  function drawFinal(s) {
    const f = s.final;
    $("final").hidden = !f;
    if (!f) return;
    $("winner").replaceChildren();
    if (f.winner) $("winner").append(medal(1), document.createTextNode(` ${f.winner} wins`));
    else $("winner").textContent = "Shared first place";
    const items = f.places.map((p) => {
      const li = el("li");
      li.append(medal(p.place), el("span", "who", p.name), el("span", "chips", p.out ? "out" : num(p.chips)));
      return li;
    });
    if (f.more) items.push(el("li", "more", `and ${f.more} more: see Standings`));
    fill($("places"), items, "");
    const awards = (f.trophies || []).filter((t) => !t.by_rule);  // winner and runner-up are above
    $("trophies").hidden = !awards.length;
    fill($("trophy-list"), awards.map((t) => {
      const li = el("li");
      li.append(el("span", "title", t.title), el("span", "who", t.name));
      return li;
    }), "");
  }

  function drawStandings(places) {
    const bb = state.level.big_blind;
    $("standings-count").textContent = `${state.players.left} of ${state.players.registered} left`;
    fill($("standings"), places.map((p) => {
      const li = el("li", p.out ? "out" : "");
      const where = p.table ? `T${p.table} S${p.seat}` : (p.out ? "out" : "");
      li.append(
        p.place ? medal(p.place) : el("span", "medal other", "–"),
        el("span", "who", p.name),
        el("span", "where", where),
        el("span", "chips", p.out ? "–" : (bb ? `${num(p.chips)}` : num(p.chips))),
      );
      li.title = p.out ? "" : `${(p.chips / bb).toFixed(1)} BB`;
      return li;
    }), "Nobody has registered yet");
  }

  function drawTables(tables) {
    const only = body.dataset.table ? Number(body.dataset.table) : null;
    const grid = $("tables-grid");
    grid.replaceChildren();
    const shown = only === null ? tables : tables.filter((t) => t.table === only);
    if (!shown.length) {
      grid.append(el("div", "list-title", only === null ? "No tables yet" : `Table ${only} is not in play`));
      return;
    }
    for (const t of shown) {
      const card = el("section", "table-card");
      card.dataset.table = String(t.table);
      const h = el("h2", "", `Table ${t.table}`);
      if (t.held) h.append(el("span", "tag away", "held"));
      const meta = !t.hand_no ? "no hand yet"
        : t.in_hand ? `Hand #${t.hand_no} · pot ${num(t.pot)}` : `Hand #${t.hand_no} · between hands`;
      h.append(el("span", "meta", meta));
      card.append(h);
      const rows = el("table");
      for (const p of t.seats) {
        const tr = el("tr", p.folded ? "folded" : p.to_act ? "to-act" : "");
        const name = el("td", "who", p.name);
        if (t.button === p.seat) name.append(el("span", "tag button", "D"));
        if (p.all_in) name.append(el("span", "tag allin", "all in"));
        if (p.status === "away") name.append(el("span", "tag away", "away"));
        if (p.status === "sitting_out") name.append(el("span", "tag away", "sitting out"));
        tr.append(el("td", "seat", String(p.seat)), name,
          el("td", "num", p.bet ? `bet ${num(p.bet)}` : ""), el("td", "num", num(p.stack)));
        rows.append(tr);
      }
      for (const w of t.waiting) {
        const tr = el("tr", "folded");
        tr.append(el("td", "seat", String(w.seat)), el("td", "who", `${w.name} (arriving)`),
          el("td", "num", ""), el("td", "num", num(w.stack)));
        rows.append(tr);
      }
      card.append(rows);
      grid.append(card);
    }
  }

  // -- sound: off unless asked (a beep a minute before a level ends, three at the change) --

  function beep(at, freq) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.4, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start(at);
    osc.stop(at + 0.4);
  }

  function cue(times) {
    if (!soundOn || !audio) return;
    for (let i = 0; i < times; i++) beep(audio.currentTime + i * 0.45, times === 1 ? 660 : 880);
  }

  function setSound(on) {
    soundOn = on;
    if (on && !audio) audio = new (window.AudioContext || window.webkitAudioContext)();
    if (on && audio.state === "suspended") audio.resume();
    const b = $("sound");
    b.textContent = `Sound: ${on ? "on" : "off"}`;
    b.setAttribute("aria-pressed", String(on));
    try { localStorage.setItem("hickory-clock-sound", on ? "on" : "off"); } catch (e) { /* private mode */ }
  }

  $("sound").addEventListener("click", () => { setSound(!soundOn); if (soundOn) cue(1); });
  $("fullscreen").addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => {});
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "f") $("fullscreen").click();
  });

  // A sound preference is remembered, but browsers only play after a click on the page.
  let wanted = false;
  try { wanted = localStorage.getItem("hickory-clock-sound") === "on"; } catch (e) { /* private mode */ }
  if (wanted) document.addEventListener("click", () => { if (!soundOn) setSound(true); }, { once: true });

  window.addEventListener("hashchange", route);
  setInterval(tick, 250);
  route();
  tick();
})();
