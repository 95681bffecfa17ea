// The room's screen: follows the server's feed (server-sent events, one state a second)
// and draws it. The countdown runs between states from the last one received, so it
// moves smoothly; when no state comes for a few seconds the page says the server is
// unreachable, freezes on what it showed, and reconnects by itself (the browser retries
// every 2 s; a watchdog reopens the stream if the browser gives up).
//
// Nothing scrolls: the news panels show the latest lines that fit, a new announcement
// is shown whole over everything for a while, and the standings and tables are cut into
// pages of what fits the screen, turned every few seconds (N or the arrow keys turn them
// by hand). #rotate turns through the clock, the standings and the tables by itself.
"use strict";

(function () {
  const STALE_MS = 4000;       // no state for this long: the server is unreachable
  const REOPEN_MS = 2000;      // a closed stream is reopened after this
  const PAGE_MS = 10000;       // a page of standings or tables stays this long
  const OVERLAY_S = 20;        // a new announcement is shown large for this long
  const STATE_VERSION = 1;

  const $ = (id) => document.getElementById(id);
  const body = document.body;
  let source = null;
  let feed = null;
  let state = null;            // the clock part of the last state
  let full = null;             // the whole last state (standings, tables)
  let receivedAt = 0;          // performance.now() when it came
  let frozenGone = null;       // seconds since the last state when the page went offline
  let lastLevel = null;
  let frames = 0;              // states received (body[data-frames]: tests wait on it)
  let ticks = 0;               // redraws of the countdown (body[data-ticks]: likewise)
  let lastMini = "";           // the countdown as the header's small clock shows it
  let warned = false;
  let soundOn = false;
  let audio = null;
  let rotating = false;        // #rotate: the screens take turns
  let view = "clock";
  let table = null;            // #table-N: one table, large
  const pager = { standings: 0, tables: 0 };  // the page shown of each list
  const pageCount = { standings: 1, tables: 1 };

  // -- formatting ------------------------------------------------------------------------

  const num = (n) => (n === null || n === undefined ? "–" : Math.round(n).toLocaleString("en-US"));
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  function clockText(seconds, ceil = true) {
    const total = Math.max(0, ceil ? Math.ceil(seconds) : Math.floor(seconds));
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

  // A big-blind ante (issue 27) reads after the blinds: "100 / 200 ante 200". On the big
  // screen it has a line of its own (anteText), so the blinds keep their size.
  function blindsText(b, ante = true) {
    return `${num(b.small_blind)} / ${num(b.big_blind)}${ante && b.ante ? ` ${anteText(b)}` : ""}`;
  }

  function anteText(b) {
    return b.ante ? `ante ${num(b.ante)}` : "";
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
      if (empty) list.append(el("li", "empty", empty));
      return;
    }
    for (const item of items) list.append(item);
  }

  // Drop the last (oldest) lines of a list until it fits its box.
  function fit(list, keep = 1) {
    while (list.children.length > keep && list.scrollHeight > list.clientHeight + 1) list.lastElementChild.remove();
  }

  // -- views ------------------------------------------------------------------------------

  function route() {
    const hash = location.hash.replace("#", "");
    rotating = hash === "rotate";
    table = null;
    let next = rotating ? view : "clock";
    if (hash === "standings" || hash === "tables") next = hash;
    const m = /^table-(\d+)$/.exec(hash);
    if (m) { next = "tables"; table = Number(m[1]); }
    show(next);
  }

  function show(next) {
    view = next;
    body.classList.remove("view-clock", "view-standings", "view-tables");
    body.classList.add(`view-${view}`);
    body.classList.toggle("one-table", table !== null);
    body.dataset.table = table === null ? "" : String(table);
    for (const a of document.querySelectorAll("#bottom nav a")) {
      a.classList.toggle("active", a.dataset.view === view);
    }
    if (feed !== view) open(view);
    else if (state) draw();  // the same feed: redraw now (#tables to #table-2 shows one at once)
  }

  // The next page of the list on screen; when rotating, the next screen after its last.
  function turn(step = 1) {
    const list = view === "standings" || view === "tables" ? view : null;
    if (list && (pager[list] + step < pageCount[list] || (!rotating && pageCount[list] > 1))) {
      pager[list] = (pager[list] + step + pageCount[list]) % pageCount[list];
      if (state) draw();
      return;
    }
    if (!rotating) return;
    const order = ["clock", "standings", "tables"];
    const next = order[(order.indexOf(view) + 1) % order.length];
    if (next === "standings" || next === "tables") pager[next] = 0;
    show(next);
  }

  // -- the connection ---------------------------------------------------------------------

  function open(name) {
    if (source) source.close();
    feed = name;
    full = null;  // the last feed's lists are not this one's
    source = new EventSource(`/events/${name}`);
    source.onmessage = (e) => receive(JSON.parse(e.data));
    source.onerror = () => { if (source.readyState !== EventSource.OPEN) down(); };
  }

  function down() {
    if (body.dataset.conn !== "down" && state) frozenGone = (performance.now() - receivedAt) / 1000;
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
    frozenGone = null;
    body.dataset.conn = "live";
    body.dataset.frames = String(++frames);
    body.dataset.feed = feed;  // which feed drew the page (tests wait on it)
    draw();
  }

  // -- drawing ----------------------------------------------------------------------------

  function phaseOf(s) {
    if (s.phase === "paused" && s.on_break) return "break";
    if (s.phase === "running" && s.tables > 0 && (s.held_tables || []).length >= s.tables) return "held";
    return s.phase;
  }

  // Seconds since the last state, as the page shows them: frozen while offline.
  function gone() {
    if (frozenGone !== null) return frozenGone;
    return (performance.now() - receivedAt) / 1000;
  }

  // What the big number counts: down to a level's or a break's end, or up from the start
  // of the director's pause; null when levels go by hands.
  function countdown(s) {
    const phase = phaseOf(s);
    if (phase === "break" && s.break_seconds_left !== null && s.break_seconds_left !== undefined) {
      return { left: Math.max(0, s.break_seconds_left - gone()), up: false };
    }
    if (phase === "break" && s.paused_seconds !== null && s.paused_seconds !== undefined) {
      return { left: s.paused_seconds + gone(), up: true };
    }
    const lv = s.level;
    if (lv.seconds_left === null) return null;
    return { left: Math.max(0, lv.seconds_left - (lv.running ? gone() : 0)), up: false };
  }

  function tick() {
    $("wall-time").textContent = new Date().toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
    if (!state) return;
    body.dataset.ticks = String(++ticks);
    const s = state;
    const phase = phaseOf(s);
    const cd = $("countdown");
    const count = countdown(s);
    let mini = "";
    if (s.elapsed_seconds !== null && s.elapsed_seconds !== undefined && phase !== "finished") {
      const played = s.elapsed_seconds + (s.level.running ? gone() : 0);
      $("elapsed").textContent = `${clockText(played, false)} played`;
    } else $("elapsed").textContent = "";
    if (count === null) {
      const hands = s.level.hands_left;
      cd.textContent = plural(hands, "hand");
      cd.classList.add("hands");
      cd.classList.remove("warn", "last", "long");
      const per = s.level.hands_per_level * Math.max(1, s.tables);
      $("progress-bar").style.width = `${Math.min(100, 100 * (1 - hands / per))}%`;
      mini = `${plural(hands, "hand")} left`;
    } else {
      const left = count.left;
      cd.textContent = clockText(left, !count.up);
      cd.classList.remove("hands");
      cd.classList.toggle("long", left >= 3600);
      const live = s.phase === "running" && !count.up;
      cd.classList.toggle("warn", live && left <= 60 && left > 10);
      cd.classList.toggle("last", live && left <= 10);
      const total = count.up ? 0 : (phase === "break" && s.break_seconds) || s.level.level_seconds || 1;
      $("progress-bar").style.width = count.up ? "0%" : `${Math.min(100, 100 * (1 - left / total))}%`;
      mini = clockText(left, !count.up);
      if (live && left <= 60 && !warned) { warned = true; cue(1); }
      if (left > 60) warned = false;
    }
    lastMini = mini;
    $("mini").textContent = miniText(s);
  }

  // The header's small clock on the standings and tables views.
  function miniText(s) {
    const phase = phaseOf(s);
    if (phase === "break") return `Break · ${lastMini}`;
    if (phase === "paused") return `Paused · level ${s.level.number} · ${blindsText(s.level)}`;
    if (phase === "held") return `Held · level ${s.level.number} · ${blindsText(s.level)}`;
    if (phase === "registering") return `${num(s.players.registered)} registered`;
    if (phase === "finished") return s.final && s.final.winner ? `${s.final.winner} wins` : "Shared first place";
    return `Level ${s.level.number} · ${blindsText(s.level)} · ${lastMini}`;
  }

  // A long name gets smaller type until it fits its two lines (the header's clock first).
  function shrinkToFit(e) {
    e.style.fontSize = "";
    let size = parseFloat(getComputedStyle(e).fontSize);
    for (let i = 0; i < 12 && e.scrollHeight > e.clientHeight + 1; i++) {
      size *= 0.9;
      e.style.fontSize = `${size}px`;
    }
  }

  function draw() {
    const s = state;
    const phase = phaseOf(s);
    body.dataset.phase = phase;
    body.dataset.level = String(s.level.number);
    document.title = `${s.name} · clock`;
    $("name").textContent = s.name;
    $("name").classList.toggle("long", s.name.length > 32);
    $("mini").textContent = miniText(s);
    shrinkToFit($("name"));
    $("status").textContent = { running: "live", paused: "paused", break: "break", held: "held",
                               registering: "registration", finished: "finished" }[phase] || phase;

    let level = `Level ${s.level.number}`;
    if (phase === "paused") level = "Paused";
    else if (phase === "break") level = "Break";
    else if (phase === "held") level = "Tables held";
    else if (phase === "registering") level = "Registration";
    else if (phase === "finished") level = "Tournament over";
    $("level").textContent = level;
    setText("blinds", blindsText(s.level, false), 11, 15);
    $("ante").textContent = anteText(s.level);
    const after = phase === "break" || phase === "paused" || phase === "held";
    $("blinds-label").textContent = after ? `Level ${s.level.number} after the ${phase === "break" ? "break" : "pause"}` : "Blinds";

    // What the big number is, in words.
    let sub = "";
    const count = countdown(s);
    if (count === null) {
      sub = s.tables > 1 ? `left in level ${s.level.number}, all ${s.tables} tables together` : `left in level ${s.level.number}`;
    } else if (phase === "break") sub = count.up ? "since the break began" : `until level ${s.level.number} begins`;
    else if (phase === "paused") sub = `left in level ${s.level.number}, frozen`;
    $("countdown-sub").textContent = sub;

    let notice = "";
    const held = s.held_tables || [];
    if (phase === "break" && s.break_seconds_left !== null && s.break_seconds_left !== undefined) {
      notice = `Scheduled break${s.level.number > 1 ? ` after level ${s.level.number - 1}` : ""}: play resumes at level ${s.level.number}`;
    } else if (phase === "break") {
      const rest = s.level.seconds_left === null ? plural(s.level.hands_left, "hand") : clockText(s.level.seconds_left);
      notice = `${s.paused_reason} · level ${s.level.number} resumes with ${rest} left`;
    } else if (phase === "paused") notice = s.paused_reason || "";
    else if (phase === "held") notice = held.length === 1 ? `The director holds table ${held[0]}: no new hand starts`
      : "The director holds every table: no new hand starts";
    else if (phase === "registering") notice = `${s.players.registered} registered · starts ${s.starts || "when the director starts it"}`;
    else if (held.length && phase === "running") notice = `Held by the director: table${held.length === 1 ? "" : "s"} ${held.join(", ")}`;
    else if (s.deadline_passed) notice = "The deadline has passed: tables finish the hand they play";
    else if (s.late_until) notice = `Late registration open until the end of level ${s.late_until}`;
    $("notice").textContent = notice;

    // With re-entries (issue 27) the field is the entries, not the players registered.
    const entries = s.players.entries || s.players.registered;
    setText("players", phase === "registering" ? num(s.players.registered)
      : `${num(s.players.left)} / ${num(entries)}`);
    $("players-sub").textContent = phase === "registering" ? "registered"
      : entries > s.players.registered ? `left of ${num(entries)} entries (${num(s.players.registered)} players)`
      : "left of registered";
    setText("avg", num(s.average_stack));
    $("avg-bb").textContent = s.average_bb === null ? ""
      : `${s.average_bb >= 100 ? num(s.average_bb) : s.average_bb.toFixed(1)} big blinds`;
    setText("chips", num(s.chips_in_play));
    $("tables").textContent = `${plural(s.tables, "table")} · ${plural(s.hands, "hand")}`;

    setText("next", blindsText(s.next_level, false));
    $("next-sub").textContent = [`level ${s.next_level.number}`, anteText(s.next_level)].filter(Boolean).join(" · ");
    if (!s.next_break) {
      setText("next-break", "none");
      $("next-break-sub").textContent = "none scheduled";
    } else {
      setText("next-break", s.next_break_seconds === null ? `after level ${s.next_break.after_level}`
        : `in ${clockText(s.next_break_seconds)}`);
      $("next-break-sub").textContent = s.next_break_seconds === null ? `${s.next_break.minutes} min break`
        : `${s.next_break.minutes} min, after level ${s.next_break.after_level}`;
    }
    $("deadline").textContent = s.deadline || "none";
    $("deadline-sub").textContent = s.deadline_passed ? "passed: last hands" : s.deadline ? "no new hand after it" : "play to the last chip";

    drawNews(s);
    drawFinal(s);
    if (view === "standings" && full && full.standings) drawStandings(full.standings);
    if (view === "tables" && full && full.tables) drawTables(full.tables);
    tick();
  }

  function drawNews(s) {
    const lost = s.moves_before_restart_lost;
    const moves = $("moves");
    fill(moves, s.moves.map(moveItem), lost ? "No moves since the server restarted (earlier moves were not kept)" : "No moves yet");
    if (lost && s.moves.length) {
      moves.append(el("li", "note", "Moves before the server restarted were not kept"));
      if (moves.scrollHeight > moves.clientHeight + 1) moves.lastElementChild.remove();
    }
    fit(moves);
    const list = $("announcements");
    fill(list, s.announcements.map((a) => {
      const li = el("li");
      li.append(el("span", "text clamp", a.text), el("span", "ago", agoText(a.ago)));
      return li;
    }), "No announcements");
    fit(list);
    const latest = s.announcements[0];
    const big = latest && latest.ago < OVERLAY_S && s.phase !== "finished";
    body.classList.toggle("announcing", Boolean(big));
    const text = $("overlay-text");
    if (big && text.dataset.text !== latest.text) {
      text.dataset.text = latest.text;
      text.textContent = latest.text;
    }
    if (big) {
      text.style.fontSize = "";
      for (let i = 0; i < 20 && text.scrollHeight > text.clientHeight + 1; i++) {
        text.style.fontSize = `${parseFloat(getComputedStyle(text).fontSize) * 0.9}px`;
      }
    }
  }

  function moveItem(m) {
    let text;
    if (m.kind === "move") text = `${m.name}: table ${m.from_table} seat ${m.from_seat} → table ${m.to_table} seat ${m.to_seat}`;
    else if (m.kind === "table_broken") text = `Table ${m.table} breaks: ${plural(m.players, "player")} move`;
    else text = `Final table: table ${m.table}, ${m.players} players`;
    const li = el("li");
    li.append(el("span", "text clamp", text), el("span", "ago", agoText(m.ago)));
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
      li.append(medal(p.place), el("span", "who clamp", p.name), el("span", "chips", p.out ? "out" : num(p.chips)));
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

  // Show page ``pager[list]`` of ``items`` in ``box``: as many as fit its height.
  function paged(list, box, items, measure) {
    box.replaceChildren();
    if (!items.length) { pageCount[list] = 1; return; }
    const pages = measure(items);
    pageCount[list] = pages.length;
    pager[list] = Math.min(pager[list], pages.length - 1);
    box.replaceChildren(...pages[pager[list]]);
    $(`${list}-page`).textContent = pages.length > 1 ? `page ${pager[list] + 1} of ${pages.length}` : "";
    body.dataset[`${list}Page`] = `${pager[list] + 1}/${pages.length}`;
  }

  function drawStandings(places) {
    const bb = state.level.big_blind;
    $("standings-count").textContent = `${state.players.left} of ${state.players.registered} left`;
    const items = places.map((p) => {
      const li = el("li", p.out ? "out" : "");
      const where = p.table ? `T${p.table} S${p.seat}` : (p.out ? "out" : "");
      li.append(
        p.place ? medal(p.place) : el("span", "medal other", "–"),
        el("span", "who clamp", p.name),
        el("span", "where", where),
        el("span", "chips", p.out ? "–" : num(p.chips)),
      );
      li.title = p.out || !bb ? "" : `${(p.chips / bb).toFixed(1)} BB`;
      return li;
    });
    const ol = $("standings");
    if (!items.length) { fill(ol, [], "Nobody has registered yet"); $("standings-page").textContent = ""; return; }
    paged("standings", ol, items, (all) => {
      // Columns as wide as a name needs; rows as many as the height holds; by place down
      // each column, then the next column.
      const em = parseFloat(getComputedStyle(ol).fontSize);
      const cols = Math.max(1, Math.min(3, Math.floor(ol.clientWidth / (20 * em))));
      ol.style.setProperty("--cols", String(cols));
      ol.style.gridTemplateRows = "";
      ol.replaceChildren(all[0]);
      const row = all[0].getBoundingClientRect().height || em * 1.6;
      const rows = Math.max(1, Math.floor((ol.clientHeight + 0.5) / row));
      ol.style.gridTemplateRows = `repeat(${rows}, ${row}px)`;
      const per = rows * cols;
      const out = [];
      for (let i = 0; i < all.length; i += per) out.push(all.slice(i, i + per));
      return out;
    });
  }

  function tableCard(t, finished) {
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
      // A long name is shortened (it is whole in the standings); its tags never are.
      const line = el("div", "who-line");
      line.append(el("span", "name clamp", p.name));
      if (t.button === p.seat) line.append(el("span", "tag button", "D"));
      if (p.all_in) line.append(el("span", "tag allin", "all in"));
      // Away and sitting out matter while there is play; after the end, nobody is.
      if (!finished && p.status === "away") line.append(el("span", "tag away", "away"));
      if (!finished && p.status === "sitting_out") line.append(el("span", "tag away", "sitting out"));
      const name = el("td", "who");
      name.append(line);
      tr.append(el("td", "seat", String(p.seat)), name);
      if (t.in_hand) tr.append(el("td", "bet", p.bet ? `bet ${num(p.bet)}` : ""));  // only while bets are out
      tr.append(el("td", "num", num(p.stack)));
      rows.append(tr);
    }
    for (const w of t.waiting) {
      const tr = el("tr", "folded");
      const line = el("div", "who-line");
      line.append(el("span", "name clamp", `${w.name} (arriving)`));
      const name = el("td", "who");
      name.append(line);
      tr.append(el("td", "seat", String(w.seat)), name);
      if (t.in_hand) tr.append(el("td", "bet", ""));
      tr.append(el("td", "num", num(w.stack)));
      rows.append(tr);
    }
    card.append(rows);
    return card;
  }

  function drawTables(tables) {
    const only = table;
    const grid = $("tables-grid");
    const shown = only === null ? tables : tables.filter((t) => t.table === only);
    $("tables-count").textContent = only === null ? plural(tables.length, "table") : "";
    if (!shown.length) {
      grid.replaceChildren(el("div", "list-title", only === null ? "No tables yet" : `Table ${only} is not in play`));
      $("tables-page").textContent = "";
      return;
    }
    const finished = state.phase === "finished";
    paged("tables", grid, shown.map((t) => tableCard(t, finished)), (all) => {
      // As many columns as cards of about 19em fit; then, in order, what the height holds.
      const em = parseFloat(getComputedStyle(grid).fontSize);
      const cols = only !== null ? 1 : Math.max(1, Math.min(4, Math.floor(grid.clientWidth / (19 * em))));
      grid.style.setProperty("--cols", String(cols));
      const out = [];
      let rest = all;
      while (rest.length) {
        grid.replaceChildren(...rest);
        const limit = grid.getBoundingClientRect().bottom + 0.5;
        let n = rest.findIndex((c) => c.getBoundingClientRect().bottom > limit);
        if (n === -1) n = rest.length;
        n = Math.max(1, n);
        out.push(rest.slice(0, n));
        rest = rest.slice(n);
      }
      return out;
    });
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
    else if (e.key === "n" || e.key === "ArrowRight") turn(1);
    else if (e.key === "ArrowLeft") turn(-1);
  });

  // A sound preference is remembered, but browsers only play after a click on the page.
  let wanted = false;
  try { wanted = localStorage.getItem("hickory-clock-sound") === "on"; } catch (e) { /* private mode */ }
  if (wanted) document.addEventListener("click", () => { if (!soundOn) setSound(true); }, { once: true });

  window.addEventListener("hashchange", route);
  window.addEventListener("resize", () => { if (state) draw(); });
  setInterval(tick, 250);
  setInterval(() => turn(1), PAGE_MS);
  route();
  tick();
})();
