/*
** The standings page (docs/web.md): everything runs in the browser on the
** WebAssembly build of SQLite + tiebreak (tiebreak.js).  A SQLite file is
** opened as it is; a CSV or JSON export goes through the import recipe of
** docs/import.md (sql/import/staging.sql and insert.sql, served beside
** this page).
*/
"use strict";

const $ = (id) => document.getElementById(id);
const state = { tb: null, db: null, events: [], keys: [], rows: [], player: null };

// Column titles of the tiebreakers; others show their name.
const LABELS = {
  match_points: "Points", points: "Points", match_wins: "Wins", omwp: "OMW%", gwp: "GW%",
  ogwp: "OGW%", oomwp: "OOMW%", mwp: "MW%", owp: "OWP", oowp: "OOWP", win_pct: "Win %",
  head_to_head: "H2H", kts: "KTS", hct_t1: "T1", hct_t2: "T2", hct_t3: "T3",
  buchholz: "BH", buchholz_cut1: "BH-C1", sonneborn_berger: "SB", direct_encounter: "DE",
  rounds_won: "WIN", games_won: "WON", black_games: "BPG",
};
const COLORS = ["#2f5fd0", "#d9480f", "#2b8a3e", "#ae3ec9", "#e67700", "#0b7285", "#c2255c",
                "#5c940d", "#1d2330"];

function setStatus(text, status) {
  $("status").textContent = text;
  document.body.dataset.status = status;
}

function fail(e) {
  console.error(e);
  setStatus(String(e.message || e), "error");
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : String(c ?? ""));
  return node;
}

function label(key) {
  return LABELS[key] || key;
}

function fmt(key, v) {
  if (v === null || v === undefined) return "–";
  if (state.types[key] === "real") return (100 * v).toFixed(2) + "%";
  return String(v);
}

function ordinal(n) {
  const s = ["th", "st", "nd", "rd"], v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

// --------------------------------------------------------------- loading

async function text(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`cannot load ${url}: ${r.status}`);
  return r.text();
}

function openDatabase(db, title) {
  if (state.db) state.db.close();
  state.db = db;
  const tables = db.query("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view')"
                          + " AND name = 'matches'");
  if (!tables.length) {
    throw new Error("this database has no table named matches (the tables of sql/schema.sql)");
  }
  state.events = db.query("SELECT event_id, count(DISTINCT round) AS rounds, count(*) AS n"
                          + " FROM matches GROUP BY event_id ORDER BY event_id");
  if (!state.events.length) throw new Error("the table matches has no rows");
  $("event-title").textContent = title;
  const ev = $("event");
  ev.replaceChildren(...state.events.map((e, i) =>
    el("option", { value: i }, `${e.event_id} (${e.n} matches)`)));
  ev.value = String(state.events.length - 1);
  fillRounds();
  refresh();
}

async function emptyWithSchema() {
  const db = state.tb.open();
  db.exec(await text("schema.sql"));
  return db;
}

async function openExample() {
  const db = await emptyWithSchema();
  db.exec(await text("example_large.sql"));
  openDatabase(db, "Example: a 116-player, 8-round Regional Championship Qualifier");
}

// CSV (RFC 4180): quoted fields, doubled quotes, CRLF or LF.
function parseCSV(src) {
  const rows = [];
  let row = [], field = "", i = 0, quoted = false;
  while (i < src.length) {
    const c = src[i++];
    if (quoted) {
      if (c === '"' && src[i] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { row.push(field); field = ""; }
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && src[i] === "\n") i++;
      row.push(field); field = "";
      if (row.some((f) => f !== "")) rows.push(row);
      row = [];
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f !== "")) rows.push(row);
  return rows;
}

// The staging table of docs/import.md for a header line.
function csvShape(header) {
  const h = header.map((s) => s.toLowerCase());
  if (header.length >= 7) return "import_matches";
  if (h.some((s) => s.includes("record")) || h.some((s) => s.includes("opponent"))) {
    return "import_player_rows";
  }
  return "import_results";
}

const STAGING_COLUMNS = {
  import_matches: ["round", "table_no", "player1", "player2", "p1_wins", "p2_wins", "draws"],
  import_results: ["round", "table_no", "player1", "player2", "result"],
  import_player_rows: ["round", "table_no", "player", "opponent", "record"],
};

// JSON exports: an array of rows with the CSV shapes' columns (header names
// or staging names), or a Melee.gg-style {Rounds: [{RoundName, Matches}]}.
function jsonRows(data) {
  const key = (s) => String(s).toLowerCase().replace(/[^a-z0-9]/g, "");
  if (data && Array.isArray(data.Rounds)) {
    const rows = [];
    for (const r of data.Rounds) {
      const m = /^Round (\d+)$/.exec(r.RoundName || "");
      if (!m) continue;  // playoff rounds are not Swiss rounds
      (r.Matches || []).forEach((x, t) => rows.push([m[1], t + 1, x.Player1,
        x.Player2 === "-" ? "" : x.Player2, x.Result]));
    }
    return { shape: "import_results", rows, title: data.Tournament && data.Tournament.Name };
  }
  if (!Array.isArray(data) || !data.length || typeof data[0] !== "object") {
    throw new Error("JSON: expected an array of rows (objects) or {Rounds: [...]}");
  }
  const keys = Object.keys(data[0]).map(key);
  const pick = (names) => (o) => {
    const byKey = {};
    for (const [k, v] of Object.entries(o)) byKey[key(k)] = v;
    return names.map((alts) => alts.map((a) => byKey[a]).find((v) => v !== undefined) ?? "");
  };
  let shape;
  if (keys.some((k) => k.includes("record"))) shape = "import_player_rows";
  else if (keys.includes("result")) shape = "import_results";
  else shape = "import_matches";
  const names = {
    import_matches: [["round"], ["table", "tableno"], ["player1", "playera"],
                     ["player2", "playerb"], ["player1wins", "p1wins", "awins"],
                     ["player2wins", "p2wins", "bwins"], ["draws"]],
    import_results: [["round"], ["table", "tableno"], ["player1"], ["player2"], ["result"]],
    import_player_rows: [["round"], ["table", "tableno"], ["player"], ["opponent"],
                         ["record"]],
  }[shape];
  return { shape, rows: data.map(pick(names)) };
}

async function importRows(shape, rows, name) {
  const db = await emptyWithSchema();
  try {
    db.exec(await text("staging.sql"));
    const cols = STAGING_COLUMNS[shape];
    const sql = `INSERT INTO temp.${shape} VALUES (${cols.map(() => "?").join(", ")})`;
    db.exec("BEGIN");
    for (const r of rows) db.query(sql, cols.map((_, i) => (r[i] ?? "").toString()));
    db.exec("COMMIT");
    const problems = db.query("SELECT round, player, problem FROM import_problems");
    showProblems(problems);
    db.exec(await text("insert.sql"), { event: name });
  } catch (e) {
    db.close();
    throw e;
  }
  openDatabase(db, `${name}: imported from ${shape.replace("import_", "")} rows`);
}

function showProblems(problems) {
  const box = $("problems");
  box.hidden = !problems.length;
  box.replaceChildren(el("b", {}, `${problems.length} row(s) need fixing (import_problems):`),
    ...problems.slice(0, 10).map((p) => el("div", {},
      `round ${p.round}, ${p.player}: ${p.problem}`)));
}

async function openFile(file) {
  setStatus(`Opening ${file.name}…`, "loading");
  showProblems([]);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const base = file.name.replace(/\.[^.]*$/, "");
  const head = new TextDecoder().decode(bytes.subarray(0, 16));
  if (head.startsWith("SQLite format 3")) {
    openDatabase(state.tb.open(bytes), file.name);
  } else if (/\.json$/i.test(file.name)) {
    const { shape, rows, title } = jsonRows(JSON.parse(new TextDecoder().decode(bytes)));
    await importRows(shape, rows, title || base);
  } else if (/\.csv$/i.test(file.name)) {
    const all = parseCSV(new TextDecoder().decode(bytes));
    if (all.length < 2) throw new Error(`${file.name}: no rows below the header line`);
    await importRows(csvShape(all[0]), all.slice(1), base);
  } else {
    throw new Error(`${file.name}: not a SQLite database, .csv or .json file`);
  }
}

// --------------------------------------------------------------- views

function currentEvent() {
  return state.events[Number($("event").value)];
}

function fillRounds() {
  const ev = currentEvent();
  const last = state.db.query("SELECT max(round) AS r FROM matches WHERE event_id = ?",
                              [ev.event_id])[0].r;
  state.lastRound = last;
  $("round").replaceChildren(...Array.from({ length: last }, (_, i) =>
    el("option", { value: i + 1 }, i + 1 === last ? `${last} (last)` : i + 1)));
  $("round").value = String(last);
}

function fillPolicies() {
  const db = state.tb.open();
  state.policies = {};
  state.types = {};
  for (const r of db.query("SELECT name, type FROM tiebreakers")) state.types[r.name] = r.type;
  for (const r of db.query("SELECT name, tiebreakers FROM tiebreak_policies")) {
    state.policies[r.name] = r.tiebreakers.split(",");
  }
  db.close();
  state.policies["mtg(floor=1/3)"] = state.policies.mtg;  // Melee.gg's numbers
  $("policy").replaceChildren(...Object.keys(state.policies).map((p) =>
    el("option", { value: p }, p)));
}

function standings(round) {
  const ev = currentEvent();
  return state.db.query("SELECT * FROM standings(?, ?, NULL, ?)",
                        [ev.event_id, $("policy").value, round]);
}

function refresh() {
  try {
    const round = Number($("round").value);
    state.keys = state.policies[$("policy").value];
    state.rows = standings(round);
    state.rows.forEach((r, i) => { r.pos = i; });
    if (!state.rows.some((r) => r.player === state.player)) state.player = state.rows[0].player;
    renderStandings();
    fillWhy();
    renderWhy();
    renderMatches();
    renderChart();
    const ev = currentEvent();
    $("standings-note").textContent =
      `${state.rows.length} players · event ${ev.event_id} · ${$("policy").value}`
      + ` · after round ${round}${round === state.lastRound ? "" : ` of ${state.lastRound}`}`;
    setStatus("Ready", "ready");
  } catch (e) {
    fail(e);
  }
}

function cutPlayers() {
  return state.rows.filter((r) => !r.dropped);
}

function renderStandings() {
  const keys = state.keys;
  const head = el("tr", {}, el("th", { class: "num" }, "#"), el("th", {}, "Player"),
    ...keys.map((k) => el("th", { class: "num" }, label(k))),
    el("th", {}, "W-L-D"), el("th", {}, "Above the next by"), el("th", {}, ""));
  const cut = cutPlayers();
  const eighth = cut.length > 8 ? cut[7] : null;
  const body = state.rows.map((r, i) => {
    const next = state.rows[i + 1];
    const tr = el("tr", { "data-player": r.player },
      el("td", { class: "num" }, r.rank), el("td", {}, r.player),
      ...keys.map((k) => el("td", { class: "num" }, fmt(k, r[k]))),
      el("td", {}, `${r.wins}-${r.losses}-${r.draws}`),
      el("td", { class: "by" }, next ? (next.decided_by ? label(next.decided_by) : "tied") : ""),
      el("td", { class: "dropped" }, r.dropped ? "dropped" : ""));
    if (r === eighth) tr.classList.add("cut");
    if (r.player === state.player) tr.classList.add("selected");
    tr.addEventListener("click", () => { state.player = r.player; refreshPlayer(); });
    return tr;
  });
  $("standings").tHead.replaceChildren(head);
  $("standings").tBodies[0].replaceChildren(...body);
}

function refreshPlayer() {
  for (const tr of $("standings").tBodies[0].rows) {
    tr.classList.toggle("selected", tr.dataset.player === String(state.player));
  }
  renderMatches();
  renderChart();
}

function fillWhy() {
  const opts = () => state.rows.map((r) => el("option", { value: r.pos },
    `${r.rank}. ${r.player}`));
  $("why-a").replaceChildren(...opts());
  $("why-b").replaceChildren(...opts());
  // Default: the last player in the Top 8 and the first one out.
  const cut = cutPlayers();
  const a = cut[Math.min(7, cut.length - 2)] || state.rows[0];
  const b = cut[Math.min(8, cut.length - 1)] || state.rows[state.rows.length - 1];
  $("why-a").value = String(a.pos);
  $("why-b").value = String(b.pos);
}

// decided_by compares a row with the one above: between two players the
// deciding key is the earliest (in the policy's order) among the decided_by
// of the rows below the higher one down to the lower one (docs/standings.md).
function renderWhy() {
  let hi = state.rows[Number($("why-a").value)], lo = state.rows[Number($("why-b").value)];
  if (!hi || !lo) return;
  if (lo.pos < hi.pos) [hi, lo] = [lo, hi];
  const out = $("why");
  if (hi === lo) {
    out.replaceChildren("Pick two different players.");
    return;
  }
  let key = null;
  for (const r of state.rows.slice(hi.pos + 1, lo.pos + 1)) {
    const k = state.keys.indexOf(r.decided_by);
    if (r.decided_by && (key === null || k < key)) key = k;
  }
  const name = (r) => el("b", {}, `${r.player} (${ordinal(r.rank)})`);
  if (key === null) {
    out.replaceChildren(name(hi), " and ", name(lo),
      " are tied on every tiebreaker of the policy; they are listed by player.");
    return;
  }
  const k = state.keys[key];
  const before = state.keys.slice(0, key).map((x) => `${label(x)} ${fmt(x, hi[x])}`);
  out.replaceChildren(name(hi), " is above ", name(lo), " on ", el("b", {}, label(k)), ": ",
    el("b", {}, `${fmt(k, hi[k])} vs ${fmt(k, lo[k])}`), ".",
    before.length ? ` Equal before that: ${before.join(", ")}.` : "");
}

function renderMatches() {
  const ev = currentEvent();
  const round = Number($("round").value);
  $("player-name").textContent = state.player;
  const rows = state.db.query(`
    WITH seat AS (
      SELECT round, player_b AS opponent, a_wins AS won, b_wins AS lost, draws, result,
             'a' AS side
      FROM matches WHERE event_id = ?1 AND player_a = ?2 AND round <= ?3
      UNION ALL
      SELECT round, player_a, b_wins, a_wins, draws, result, 'b'
      FROM matches WHERE event_id = ?1 AND player_b = ?2 AND round <= ?3)
    SELECT round, opponent, won, lost, draws,
           CASE WHEN opponent IS NULL THEN 'bye'
                WHEN result = 'double_loss' THEN 'L'
                WHEN result = 'draw' THEN 'D'
                WHEN result IN ('a', 'b') THEN iif(result = side, 'W', 'L')
                WHEN won > lost THEN 'W' WHEN won < lost THEN 'L' ELSE 'D' END AS outcome
    FROM seat ORDER BY round`, [ev.event_id, state.player, round]);
  const byPlayer = new Map(state.rows.map((r) => [r.player, r]));
  $("matches").tHead.replaceChildren(el("tr", {}, el("th", { class: "num" }, "Round"),
    el("th", {}, "Opponent"), el("th", {}, "Result"), el("th", {}, "Games"),
    el("th", {}, "Opponent's W-L-D (rank)")));
  $("matches").tBodies[0].replaceChildren(...rows.map((m) => {
    const o = byPlayer.get(m.opponent);
    return el("tr", {}, el("td", { class: "num" }, m.round),
      el("td", {}, m.opponent ?? "(bye)"), el("td", {}, m.outcome === "bye" ? "W (bye)" : m.outcome),
      el("td", {}, m.opponent === null ? "2-0-0" : `${m.won}-${m.lost}-${m.draws}`),
      el("td", {}, o ? `${o.wins}-${o.losses}-${o.draws} (${o.rank})` : ""));
  }));
}

// Ranks round by round of the Top 8 and the selected player: plain SVG.
function renderChart() {
  const ev = currentEvent();
  const last = Number($("round").value);
  const shown = cutPlayers().slice(0, 8).map((r) => r.player);
  if (!shown.includes(state.player)) shown.push(state.player);
  const series = new Map(shown.map((p) => [p, []]));
  let maxRank = 1;
  for (let n = 1; n <= last; n++) {
    const rows = n === last ? state.rows : standings(n);
    for (const r of rows) {
      if (series.has(r.player)) {
        series.get(r.player).push([n, r.rank]);
        maxRank = Math.max(maxRank, r.rank);
      }
    }
  }
  const W = 560, H = 300, L = 34, R = 130, T = 12, B = 30;
  const x = (n) => L + (last === 1 ? 0 : (n - 1) * (W - L - R) / (last - 1));
  const y = (rank) => T + (rank - 1) * (H - T - B) / Math.max(1, maxRank - 1);
  const svg = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img"`
    + ` aria-label="rank after each round">`];
  const ticks = [1, ...[5, 10, 20, 30, 40, 50, 75, 100, 150, 200, 300, 500]
    .filter((t) => t < maxRank), maxRank];
  svg.push('<g class="axis">');
  for (const t of ticks) {
    svg.push(`<line class="grid" x1="${L}" x2="${W - R}" y1="${y(t)}" y2="${y(t)}"/>`,
             `<text x="${L - 6}" y="${y(t) + 4}" text-anchor="end">${t}</text>`);
  }
  for (let n = 1; n <= last; n++) {
    svg.push(`<text x="${x(n)}" y="${H - 10}" text-anchor="middle">R${n}</text>`);
  }
  svg.push("</g>");
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  // Labels at the right end, nudged apart so that none overlap.
  const ends = [];
  [...series.entries()].forEach(([player, pts], i) => {
    if (!pts.length) return;
    const color = player === state.player ? COLORS[8] : COLORS[i % 8];
    const width = player === state.player ? 3 : 1.8;
    const d = pts.map(([n, r]) => `${x(n).toFixed(1)},${y(r).toFixed(1)}`).join(" ");
    svg.push(`<polyline class="series" data-player="${esc(player)}" fill="none"`
      + ` stroke="${color}" stroke-width="${width}" points="${d}"/>`);
    for (const [n, r] of pts) {
      svg.push(`<circle cx="${x(n).toFixed(1)}" cy="${y(r).toFixed(1)}" r="2.5"`
        + ` fill="${color}"><title>${esc(player)}: ${r} after round ${n}</title></circle>`);
    }
    const [n, r] = pts[pts.length - 1];
    ends.push({ y: y(r), x: x(n), color, text: `${r}. ${player}` });
  });
  ends.sort((a, b) => a.y - b.y);
  for (let i = 1; i < ends.length; i++) ends[i].y = Math.max(ends[i].y, ends[i - 1].y + 13);
  for (const e of ends) {
    svg.push(`<text x="${e.x + 8}" y="${e.y + 4}" fill="${e.color}">${esc(e.text)}</text>`);
  }
  svg.push("</svg>");
  $("chart").innerHTML = svg.join("");
}

// --------------------------------------------------------------- start

async function main() {
  state.tb = await initTiebreak();
  fillPolicies();
  setStatus(`SQLite ${state.tb.sqliteVersion} with tiebreak: open a file`, "empty");
  $("file").addEventListener("change", (e) => {
    const f = e.target.files[0];
    if (f) openFile(f).catch(fail);
    e.target.value = "";
  });
  $("example").addEventListener("click", () => openExample().catch(fail));
  $("event").addEventListener("change", () => { fillRounds(); refresh(); });
  $("policy").addEventListener("change", refresh);
  $("round").addEventListener("change", refresh);
  $("why-a").addEventListener("change", renderWhy);
  $("why-b").addEventListener("change", renderWhy);
  if (new URLSearchParams(location.search).has("example")) await openExample();
}

main().catch(fail);
