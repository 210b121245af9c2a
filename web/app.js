/*
** The standings page (docs/web.md): everything runs in the browser on the
** WebAssembly build of SQLite + tiebreak (tiebreak.js).  A SQLite file is
** opened as it is (a SQL script is run on an empty one); a TOM, TRF or Melee.gg file is read by the extension's
** readers (the file's text is the event: standings(text, policy, NULL,
** round, 'tom_matches', '', 'tom_players')); a CSV or JSON export of rows
** goes through the import recipe of docs/import.md (sql/import/staging.sql
** and insert.sql, served beside this page).  The address's hash holds the
** view (#src=example&event=2&policy=mtg&round=3), so that a link reopens it.
*/
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  tb: null, src: null, rows: [], groups: [], keys: [], player: null, names: new Map(),
  view: "standings", pending: null,
};

// Column titles of the tiebreakers; others show their name.
const LABELS = {
  match_points: "Points", points: "Points", match_wins: "Wins", omwp: "OMW%", gwp: "GW%",
  ogwp: "OGW%", oomwp: "OOMW%", mwp: "MW%", owp: "OWP", oowp: "OOWP", win_pct: "Win %",
  head_to_head: "H2H", kts: "KTS", hct_t1: "T1", hct_t2: "T2", hct_t3: "T3",
  buchholz: "BH", buchholz_cut1: "BH-C1", sonneborn_berger: "SB", direct_encounter: "DE",
  rounds_won: "WIN", games_won: "WON", black_games: "BPG",
  registration_order: "registration", playoff: "playoff",
};
const COLORS = ["#2f5fd0", "#d9480f", "#2b8a3e", "#ae3ec9", "#e67700", "#0b7285", "#c2255c",
                "#5c940d", "#1d2330"];
// The pairing systems of pairings() (docs/pairings.md).
const SYSTEMS = ["mtg", "pokemon", "dutch", "berger", "bracket(top=8)"];
// The file's own policy in the Policy list (trf_policy(), melee_policy(), tom_policy()).
const FILE_POLICY = "file";
// File readers: the functions that turn a file's text into the tables
// standings() and pairings() read (docs/tom.md, docs/trf.md, docs/melee.md).
const READERS = {
  tdf: { matches: "tom_matches", players: "tom_players", system: "pokemon" },
  trf: { matches: "trf_matches", players: "trf_players", system: "dutch" },
  melee: { matches: "melee_matches", players: "melee_players", system: "mtg" },
};

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

function setSelect(select, value) {
  if (value === null || value === undefined) return false;
  if (![...select.options].some((o) => o.value === value)) return false;
  select.value = value;
  return true;
}

// A player's name: the players table's (standings().name), else the id.
function nameOf(player) {
  return state.names.get(String(player)) ?? String(player);
}

// --------------------------------------------------------------- sources

async function text(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`cannot load ${url}: ${r.status}`);
  return r.text();
}

// A source is a database and how its events are read: the tables
// (matches, players; a reader's name for a file) and the events in it.
function databaseSource(db, title, file) {
  const tables = db.query("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view')"
                          + " AND name = 'matches'");
  if (!tables.length) {
    db.close();
    throw new Error("this database has no table named matches (the tables of sql/schema.sql)");
  }
  const events = db.query("SELECT event_id AS id, count(*) AS n FROM matches"
                          + " GROUP BY event_id ORDER BY event_id");
  if (!events.length) {
    db.close();
    throw new Error("the table matches has no rows");
  }
  const named = db.query("SELECT 1 FROM pragma_table_info('players') WHERE name = 'name'");
  return {
    db, title, file, kind: "db", matches: "matches", players: named.length ? "players" : null,
    events: events.map((e) => ({ id: e.id, label: `${e.id} (${e.n} matches)` })),
  };
}

// A TOM, TRF or Melee file: one event, whose id is the file's text.
function readerSource(kind, textOfFile, title, file) {
  const db = state.tb.open();
  const r = READERS[kind];
  const src = { db, title, file, kind, matches: r.matches, players: r.players,
                events: [{ id: textOfFile, label: title }], filePolicy: null };
  try {
    if (kind === "trf") {
      const head = db.query("SELECT name, rounds FROM trf_event(?1)", [textOfFile])[0];
      src.title = head?.name || title;
      src.scheduledRounds = head?.rounds ?? null;  // a finished event has no next round
      src.filePolicy = db.query("SELECT trf_policy(?1) AS p WHERE EXISTS (SELECT 1"
        + " FROM trf_records(?1) WHERE record IN ('202', '212'))", [textOfFile])[0]?.p ?? null;
    } else if (kind === "melee") {
      src.filePolicy = policyOfDate(db, "melee_policy", textOfFile);
    } else if (kind === "tdf") {
      src.filePolicy = policyOfDate(db, "tom_policy", textOfFile);
    }
  } catch (e) {
    db.close();
    throw e;
  }
  src.events[0].label = src.title;
  return src;
}

// The policy of the file's date, from melee_policy() or tom_policy(); null
// when it cannot be told (a Melee file without a date: 'melee' is then the
// default) or the reader refuses the file (its own message then says why,
// when the standings are read).
function policyOfDate(db, fn, text) {
  try {
    return db.query(`SELECT ${fn}(?1) AS p`, [text])[0].p;
  } catch (e) {
    return null;
  }
}

// A SQL script (sql/example.sql and the like): run on an empty database,
// after sql/schema.sql unless it creates the matches table itself.
async function scriptSource(script, file) {
  const own = /create\s+table\s+(if\s+not\s+exists\s+)?["`[]?matches\b/i.test(script);
  const db = own ? state.tb.open() : await emptyWithSchema();
  try {
    db.exec(script);
  } catch (e) {
    db.close();
    throw e;
  }
  return databaseSource(db, file, file);
}

async function emptyWithSchema() {
  const db = state.tb.open();
  db.exec(await text("schema.sql"));
  return db;
}

async function openExample() {
  showProblems([], "");
  const db = await emptyWithSchema();
  db.exec(await text("example_large.sql"));
  useSource(databaseSource(db, "Example: a 116-player, 8-round Regional Championship Qualifier",
                           null), takePending(null));
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

// A JSON array of rows with the CSV shapes' columns (header names or
// staging names).  Melee.gg files go to melee_matches() instead.
function jsonRows(data) {
  const key = (s) => String(s).toLowerCase().replace(/[^a-z0-9]/g, "");
  if (!Array.isArray(data) || !data.length || typeof data[0] !== "object") {
    throw new Error("JSON: expected an array of rows (objects) or a Melee.gg file"
                    + " ({Rounds: [...]})");
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

async function importRows(shape, rows, name, file) {
  const db = await emptyWithSchema();
  try {
    db.exec(await text("staging.sql"));
    const cols = STAGING_COLUMNS[shape];
    const sql = `INSERT INTO temp.${shape} VALUES (${cols.map(() => "?").join(", ")})`;
    db.exec("BEGIN");
    for (const r of rows) db.query(sql, cols.map((_, i) => (r[i] ?? "").toString()));
    db.exec("COMMIT");
    showProblems(db.query("SELECT round, player, problem FROM import_problems")
      .map((p) => `round ${p.round}, ${p.player}: ${p.problem}`), "import_problems");
    db.exec(await text("insert.sql"), { event: name });
  } catch (e) {
    db.close();
    throw e;
  }
  return databaseSource(db, `${name}: imported from ${shape.replace("import_", "")} rows`, file);
}

function showProblems(lines, source) {
  const box = $("problems");
  box.hidden = !lines.length;
  box.replaceChildren(el("b", {}, `${lines.length} row(s) need fixing (${source}):`),
    ...lines.slice(0, 10).map((line) => el("div", {}, line)));
}

// UTF-8, else Windows-1252 (older TRF files are Latin-1).
function decode(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (e) {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

function tomTitle(xml) {
  const doc = new DOMParser().parseFromString(xml, "application/xml");
  return doc.querySelector("tournament > data > name")?.textContent.trim() || null;
}

// What a file holds: its extension, else its first bytes.
function fileKind(name, head) {
  if (head.startsWith("SQLite format 3")) return "db";
  const ext = (/\.([^.]+)$/.exec(name)?.[1] ?? "").toLowerCase();
  if (["tdf", "trf", "json", "csv", "sql"].includes(ext)) return ext;
  const start = head.replace(/^\uFEFF?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*/, "");
  if (start.startsWith("<tournament")) return "tdf";
  if (/^(001|012) /m.test(head)) return "trf";
  if (/^\s*[[{]/.test(head)) return "json";
  return null;
}

async function openFile(file) {
  setStatus(`Opening ${file.name}…`, "loading");
  showProblems([], "");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const base = file.name.replace(/\.[^.]*$/, "");
  const textOfFile = () => decode(bytes);
  const kind = fileKind(file.name, decode(bytes.subarray(0, 4096)));
  let src;
  if (kind === "db") {
    src = databaseSource(state.tb.open(bytes), file.name, file.name);
  } else if (kind === "tdf") {
    const xml = textOfFile();
    src = readerSource("tdf", xml, tomTitle(xml) || base, file.name);
  } else if (kind === "trf") {
    src = readerSource("trf", textOfFile(), base, file.name);
  } else if (kind === "json") {
    const json = textOfFile();
    const data = JSON.parse(json);
    if (data && !Array.isArray(data) && Array.isArray(data.Rounds)) {
      src = readerSource("melee", json, data.Tournament?.Name || base, file.name);
      showProblems(src.db.query("SELECT round_name, player1, player2, problem"
        + " FROM melee_problems(?1)", [json]).map((p) =>
        `${p.round_name}, ${p.player1 ?? "?"} - ${p.player2 ?? "?"}: ${p.problem}`),
        "melee_problems, left out");
    } else {
      const { shape, rows } = jsonRows(data);
      src = await importRows(shape, rows, base, file.name);
    }
  } else if (kind === "sql") {
    src = await scriptSource(textOfFile(), file.name);
  } else if (kind === "csv") {
    const all = parseCSV(textOfFile());
    if (all.length < 2) throw new Error(`${file.name}: no rows below the header line`);
    src = await importRows(csvShape(all[0]), all.slice(1), base, file.name);
  } else {
    throw new Error(`${file.name}: not a SQLite database, SQL script, TOM (.tdf), TRF,`
                    + " Melee.gg JSON, CSV or JSON rows");
  }
  useSource(src, takePending(file.name));
}

// ------------------------------------------------------- the view's link

// The view as URL parameters: the source (the example or a file's name),
// the event, policy, round, tab, pairing system and selected player.
function viewParams() {
  const p = new URLSearchParams();
  if (state.src.file) p.set("file", state.src.file); else p.set("src", "example");
  if (state.src.kind === "db") p.set("event", String(currentEvent().id));
  p.set("policy", $("policy").value);
  p.set("round", $("round").value);
  p.set("view", state.view);
  p.set("system", $("system").value);
  if (state.player !== null) p.set("player", String(state.player));
  return p;
}

function updateLink() {
  const hash = "#" + viewParams().toString();
  history.replaceState(null, "", hash);
  $("link").href = hash;
  $("link-note").textContent = state.src.file
    ? `(with ${state.src.file} opened again: a page cannot open files by itself)` : "";
}

// The view a link asks for, kept until its file is opened (null: none).
function takePending(fileName) {
  const p = state.pending;
  state.pending = null;
  $("reopen").hidden = true;
  return p && (p.get("file") ?? null) === fileName ? p : null;
}

// A link to a file's view: the file must be opened again, by the user.
function awaitFile(params) {
  state.pending = params;
  const box = $("reopen");
  const what = [params.has("event") ? `event ${params.get("event")}` : null,
    params.has("policy") ? `policy ${params.get("policy")}` : null,
    params.has("round") ? `after round ${params.get("round")}` : null].filter(Boolean);
  box.replaceChildren("This link shows ", el("b", {}, params.get("file")),
    what.length ? ` (${what.join(", ")})` : "",
    ". A page cannot open files by itself: open that file again with ", el("b", {}, "Open file…"),
    " to see the view.");
  box.hidden = false;
}

async function openLink() {
  const params = new URLSearchParams(location.hash.slice(1));
  const example = params.get("src") === "example"
    || new URLSearchParams(location.search).has("example");
  const file = params.get("file");
  if (!example && file === null) return;
  if (state.src && (example ? !state.src.file : state.src.file === file)) {
    useSource(state.src, params);  // the same source: only the view changes
  } else if (example) {
    state.pending = params;
    await openExample();
  } else {
    awaitFile(params);
  }
}

// --------------------------------------------------------------- views

function currentEvent() {
  return state.src.events[Number($("event").value)];
}

function useSource(src, params) {
  if (state.src && state.src !== src) state.src.db.close();
  state.src = src;
  $("event-title").textContent = src.title;
  $("event").replaceChildren(...src.events.map((e, i) => el("option", { value: i }, e.label)));
  const wanted = params ? src.events.findIndex((e) => String(e.id) === params.get("event")) : -1;
  $("event").value = String(wanted >= 0 ? wanted : src.events.length - 1);
  fillPolicies(src);
  fillRounds();
  $("system").value = READERS[src.kind]?.system ?? "mtg";
  state.player = null;
  state.view = "standings";
  if (params) {
    setSelect($("policy"), params.get("policy"));
    setSelect($("round"), params.get("round"));
    setSelect($("system"), params.get("system"));
    if (params.get("view") === "pairings") state.view = "pairings";
    state.player = params.get("player");
  }
  refresh();
}

function fillRounds() {
  const src = state.src;
  const last = src.db.query(`SELECT max(round) AS r FROM "${src.matches}" WHERE event_id = ?1`,
                            [currentEvent().id])[0].r;
  if (last === null) throw new Error("the event has no rounds");
  state.lastRound = last;
  $("round").replaceChildren(...Array.from({ length: last }, (_, i) =>
    el("option", { value: i + 1 }, i + 1 === last ? `${last} (last)` : i + 1)));
  $("round").value = String(last);
}

// The policies of tiebreak_policies (and a file's own) and what each
// tiebreaker is called: presets, names, aliases and C.07 codes.
function loadPolicies() {
  const db = state.tb.open();
  state.presets = {};
  state.types = {};
  state.byAlias = new Map();
  for (const r of db.query("SELECT name, alias, type, code FROM tiebreakers")) {
    state.types[r.name] = r.type;
    for (const a of [r.name, r.alias, r.code]) if (a) state.byAlias.set(a.toLowerCase(), r.name);
  }
  for (const r of db.query("SELECT name, tiebreakers FROM tiebreak_policies")) {
    state.presets[r.name] = r.tiebreakers.split(",");
  }
  db.close();
  state.policyNames = [...Object.keys(state.presets), "mtg(floor=1/3)"];  // Melee.gg's numbers
  $("system").replaceChildren(...SYSTEMS.map((s) => el("option", { value: s }, s)));
}

function fillPolicies(src) {
  const options = state.policyNames.map((p) => el("option", { value: p }, p));
  if (src.filePolicy) {
    options.unshift(el("option", { value: FILE_POLICY }, `the file's: ${src.filePolicy}`));
  }
  $("policy").replaceChildren(...options);
  $("policy").value = src.filePolicy ? FILE_POLICY
    : { tdf: "pokemon", trf: "fide", melee: "melee" }[src.kind] ?? "mtg";
}

// The policy string standings() gets.  A TRF file's scoring and rule year
// go with any policy (trf_policy(text, policy)).
function policyText() {
  const src = state.src, chosen = $("policy").value;
  if (src.kind === "trf") {
    return src.db.query(chosen === FILE_POLICY ? "SELECT trf_policy(?1) AS p"
      : "SELECT trf_policy(?1, ?2) AS p", chosen === FILE_POLICY ? [currentEvent().id]
      : [currentEvent().id, chosen])[0].p;
  }
  return chosen === FILE_POLICY ? src.filePolicy : chosen;
}

// The ranking keys of a policy string: presets, tiebreaker names, aliases
// and C.07 codes (with modifiers: BH/C1/P is buchholz_cut1); options in
// parentheses do not change them.
function policyKeys(policy) {
  let flat = policy, prev;
  do { prev = flat; flat = flat.replace(/\([^()]*\)/g, ""); } while (flat !== prev);
  const keys = [];
  for (const item of flat.split(/[\s,]+/).filter(Boolean)) {
    const t = item.toLowerCase();
    if (state.presets[t]) { keys.push(...state.presets[t]); continue; }
    let code = t.replace(/-/g, "/");
    while (!state.byAlias.has(code) && code.includes("/")) {
      code = code.slice(0, code.lastIndexOf("/"));
    }
    keys.push(state.byAlias.get(code) ?? state.byAlias.get(t) ?? t);
  }
  return [...new Set(keys)];
}

function standings(round) {
  const src = state.src;
  const tables = src.kind === "db" ? "" : `, '${src.matches}', '', '${src.players}'`;
  return src.db.query(`SELECT * FROM standings(?1, ?2, NULL, ?3${tables})`,
                      [currentEvent().id, state.policy, round]);
}

// Play! Pokemon's age divisions in age order, then other divisions by
// name, then players without one.
function divisionOrder(d) {
  if (d === null || d === undefined) return [9, ""];
  const age = ["juniors", "seniors", "masters"].indexOf(String(d).toLowerCase());
  return [age >= 0 ? age : 3, String(d)];
}

function byDivision(rows) {
  const groups = new Map();
  for (const r of rows) {
    if (!groups.has(r.division ?? null)) groups.set(r.division ?? null, []);
    groups.get(r.division ?? null).push(r);
  }
  return [...groups.entries()].map(([division, list]) => ({ division, rows: list }))
    .sort((a, b) => {
      const [x, y] = [divisionOrder(a.division), divisionOrder(b.division)];
      return x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0);
    });
}

function refresh() {
  try {
    const round = Number($("round").value);
    state.policy = policyText();
    state.keys = policyKeys(state.policy);
    state.groups = byDivision(standings(round));
    state.rows = state.groups.flatMap((g) => g.rows);
    state.rows.forEach((r, i) => { r.pos = i; });
    state.names = new Map(state.rows.map((r) => [String(r.player), r.name ?? String(r.player)]));
    if (!state.rows.some((r) => String(r.player) === String(state.player))) {
      state.player = state.rows.length ? state.rows[0].player : null;
    } else {
      state.player = state.rows.find((r) => String(r.player) === String(state.player)).player;
    }
    renderStandings();
    fillWhy();
    renderWhy();
    renderPlayer();
    renderChart();
    renderPairings();
    showView(state.view);
    const ev = currentEvent(), divisions = state.groups.length;
    const what = state.src.kind === "db" ? `event ${ev.id}` : state.src.title;
    $("standings-note").textContent = `${state.rows.length} players`
      + (divisions > 1 ? ` in ${divisions} divisions` : "") + ` · ${what} · ${state.policy}`
      + ` · after round ${round}${round === state.lastRound ? "" : ` of ${state.lastRound}`}`;
    updateLink();
    setStatus("Ready", "ready");
  } catch (e) {
    fail(e);
  }
}

function showView(view) {
  state.view = view;
  for (const v of ["standings", "pairings"]) {
    $(`${v}-view`).hidden = v !== view;
    $(`tab-${v}`).setAttribute("aria-selected", String(v === view));
  }
}

function cutPlayers(rows) {
  return rows.filter((r) => !r.dropped);
}

// The player's cell: the name, the id as a tooltip when they differ.
function playerCell(r) {
  const name = r.name ?? String(r.player);
  return el("td", name === String(r.player) ? { class: "player" }
    : { class: "player", title: `id ${r.player}` }, name);
}

// One table per division; "above the next by" compares within it.
function renderStandings() {
  const keys = state.keys;
  // On a phone the first two keys stay (points and the first tiebreaker).
  const opt = (i) => (i >= 2 ? "num opt" : "num");
  const head = () => el("tr", {}, el("th", { class: "num" }, "#"), el("th", {}, "Player"),
    ...keys.map((k, i) => el("th", { class: opt(i) }, label(k))),
    el("th", { class: "record" }, "W-L-D"), el("th", { class: "opt" }, "Above the next by"),
    el("th", { class: "opt" }, "Dropped"));
  const sections = state.groups.map((g) => {
    const cut = cutPlayers(g.rows);
    const eighth = cut.length > 8 ? cut[7] : null;
    const body = g.rows.map((r, i) => {
      const next = g.rows[i + 1];
      const tr = el("tr", { "data-player": String(r.player) },
        el("td", { class: "num" }, r.rank), playerCell(r),
        ...keys.map((k, j) => el("td", { class: opt(j) }, fmt(k, r[k]))),
        el("td", { class: "record" }, `${r.wins}-${r.losses}-${r.draws}`),
        el("td", { class: "by opt" },
           next ? (next.decided_by ? label(next.decided_by) : "tied") : ""),
        el("td", { class: "dropped opt" }, r.dropped ? "dropped" : ""));
      if (r === eighth) tr.classList.add("cut");
      if (r.dropped) tr.classList.add("out");
      if (r.player === state.player) tr.classList.add("selected");
      tr.addEventListener("click", () => { state.player = r.player; refreshPlayer(); });
      return tr;
    });
    const table = el("table", { class: "standings" }, el("thead", {}, head()),
                     el("tbody", {}, ...body));
    const title = state.groups.length > 1 || g.division !== null
      ? el("h3", {}, g.division ?? "No division",
           el("span", { class: "note" }, ` ${g.rows.length} players`)) : "";
    return el("section", { class: "division" }, title, table);
  });
  $("standings").replaceChildren(...sections);
}

function refreshPlayer() {
  for (const tr of $("standings").querySelectorAll("tbody tr")) {
    tr.classList.toggle("selected", tr.dataset.player === String(state.player));
  }
  renderPlayer();
  renderChart();
  updateLink();
}

function fillWhy() {
  const many = state.groups.length > 1;
  const opts = () => state.rows.map((r) => el("option", { value: r.pos },
    `${r.rank}. ${nameOf(r.player)}${many ? ` (${r.division ?? "no division"})` : ""}`));
  $("why-a").replaceChildren(...opts());
  $("why-b").replaceChildren(...opts());
  // Default: in the largest division, the last player in the Top 8 and the
  // first one out.
  const rows = [...state.groups].sort((a, b) => b.rows.length - a.rows.length)[0]?.rows ?? [];
  const cut = cutPlayers(rows);
  const a = cut[Math.min(7, cut.length - 2)] || rows[0];
  const b = cut[Math.min(8, cut.length - 1)] || rows[rows.length - 1];
  if (a) $("why-a").value = String(a.pos);
  if (b) $("why-b").value = String(b.pos);
}

// decided_by compares a row with the one above: between two players the
// deciding key is the earliest (in the policy's order) among the decided_by
// of the rows below the higher one down to the lower one (docs/standings.md).
function renderWhy() {
  let hi = state.rows[Number($("why-a").value)], lo = state.rows[Number($("why-b").value)];
  if (!hi || !lo) return;
  if (lo.pos < hi.pos) [hi, lo] = [lo, hi];
  const out = $("why");
  const name = (r) => el("b", {}, `${nameOf(r.player)} (${ordinal(r.rank)})`);
  if (hi === lo) {
    out.replaceChildren("Pick two different players.");
    return;
  }
  if ((hi.division ?? null) !== (lo.division ?? null)) {
    out.replaceChildren(name(hi), ` is in ${hi.division ?? "no division"}, `, name(lo),
      ` in ${lo.division ?? "no division"}: each division is placed on its own.`);
    return;
  }
  let key = null;
  for (const r of state.rows.slice(hi.pos + 1, lo.pos + 1)) {
    const k = state.keys.indexOf(r.decided_by);
    if (r.decided_by && (key === null || k < key)) key = k;
  }
  if (key === null || key < 0) {
    const by = state.rows.slice(hi.pos + 1, lo.pos + 1).find((r) => r.decided_by)?.decided_by;
    out.replaceChildren(name(hi), " and ", name(lo), by
      ? ` are placed by ${label(by)}.`
      : " are tied on every tiebreaker of the policy; they are listed by player.");
    return;
  }
  const k = state.keys[key];
  const before = state.keys.slice(0, key).map((x) => `${label(x)} ${fmt(x, hi[x])}`);
  out.replaceChildren(name(hi), " is above ", name(lo), " on ", el("b", {}, label(k)), ": ",
    el("b", {}, `${fmt(k, hi[k])} vs ${fmt(k, lo[k])}`), ".",
    before.length ? ` Equal before that: ${before.join(", ")}.` : "");
}

function selectedRow() {
  return state.rows.find((r) => r.player === state.player) ?? null;
}

// The selected player's line (every key, which a phone's table leaves
// out) and matches.
function renderPlayer() {
  const src = state.src, me = selectedRow();
  const round = Number($("round").value);
  $("player-name").textContent = me ? nameOf(me.player) : "…";
  $("player-line").textContent = me ? [
    `${ordinal(me.rank)}${me.division ? ` in ${me.division}` : ""}`,
    ...state.keys.map((k) => `${label(k)} ${fmt(k, me[k])}`),
    `${me.wins}-${me.losses}-${me.draws}`, me.dropped ? "dropped" : null,
  ].filter(Boolean).join(" · ") : "";
  const rows = me === null ? [] : src.db.query(`
    WITH seat AS (
      SELECT round, player_b AS opponent, a_wins AS won, b_wins AS lost, draws, result,
             'a' AS side
      FROM "${src.matches}" WHERE event_id = ?1 AND player_a = ?2 AND round <= ?3
      UNION ALL
      SELECT round, player_a, b_wins, a_wins, draws, result, 'b'
      FROM "${src.matches}" WHERE event_id = ?1 AND player_b = ?2 AND round <= ?3)
    SELECT round, opponent, won, lost, draws,
           CASE WHEN opponent IS NULL AND result = 'loss' THEN 'loss'
                WHEN opponent IS NULL THEN 'bye'
                WHEN result = 'double_loss' THEN 'L'
                WHEN result = 'draw' THEN 'D'
                WHEN result IN ('a', 'b') THEN iif(result = side, 'W', 'L')
                WHEN won > lost THEN 'W' WHEN won < lost THEN 'L' ELSE 'D' END AS outcome
    FROM seat ORDER BY round`, [currentEvent().id, me.player, round]);
  const byPlayer = new Map(state.rows.map((r) => [String(r.player), r]));
  $("matches").tHead.replaceChildren(el("tr", {}, el("th", { class: "num" }, "Round"),
    el("th", {}, "Opponent"), el("th", {}, "Result"), el("th", { class: "opt" }, "Games"),
    el("th", {}, "Opponent's W-L-D (rank)")));
  $("matches").tBodies[0].replaceChildren(...rows.map((m) => {
    const o = m.opponent === null ? null : byPlayer.get(String(m.opponent));
    const result = { bye: "W (bye)", loss: "L (no opponent)" }[m.outcome] ?? m.outcome;
    return el("tr", {}, el("td", { class: "num" }, m.round),
      el("td", {}, m.opponent === null ? "(bye)" : nameOf(m.opponent)), el("td", {}, result),
      el("td", { class: "opt" }, m.opponent === null && m.outcome === "bye" ? "2-0-0"
         : `${m.won}-${m.lost}-${m.draws}`),
      el("td", {}, o ? `${o.wins}-${o.losses}-${o.draws} (${o.rank})` : ""));
  }));
}

// Ranks round by round of the Top 8 of the selected player's division and
// of the player: plain SVG.
function renderChart() {
  const last = Number($("round").value);
  const me = selectedRow();
  if (!me) {
    $("chart").replaceChildren();
    return;
  }
  const division = me.division ?? null;
  $("chart-note").textContent = state.groups.length > 1 ? `(${division ?? "no division"})` : "";
  const mine = state.rows.filter((r) => (r.division ?? null) === division);
  const shown = cutPlayers(mine).slice(0, 8).map((r) => r.player);
  if (!shown.includes(state.player)) shown.push(state.player);
  const series = new Map(shown.map((p) => [String(p), []]));
  let maxRank = 1;
  for (let n = 1; n <= last; n++) {
    const rows = n === last ? state.rows : standings(n);
    for (const r of rows) {
      if (series.has(String(r.player)) && (r.division ?? null) === division) {
        series.get(String(r.player)).push([n, r.rank]);
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
    const selected = player === String(state.player);
    const color = selected ? COLORS[8] : COLORS[i % 8];
    const width = selected ? 3 : 1.8;
    const name = nameOf(player);
    const d = pts.map(([n, r]) => `${x(n).toFixed(1)},${y(r).toFixed(1)}`).join(" ");
    svg.push(`<polyline class="series" data-player="${esc(name)}" fill="none"`
      + ` stroke="${color}" stroke-width="${width}" points="${d}"/>`);
    for (const [n, r] of pts) {
      svg.push(`<circle cx="${x(n).toFixed(1)}" cy="${y(r).toFixed(1)}" r="2.5"`
        + ` fill="${color}"><title>${esc(name)}: ${r} after round ${n}</title></circle>`);
    }
    const [n, r] = pts[pts.length - 1];
    ends.push({ y: y(r), x: x(n), color, text: `${r}. ${name}` });
  });
  ends.sort((a, b) => a.y - b.y);
  for (let i = 1; i < ends.length; i++) ends[i].y = Math.max(ends[i].y, ends[i - 1].y + 13);
  for (const e of ends) {
    svg.push(`<text x="${e.x + 8}" y="${e.y + 4}" fill="${e.color}">${esc(e.text)}</text>`);
  }
  svg.push("</svg>");
  $("chart").innerHTML = svg.join("");
}

// The round after the chosen one as pairings() pairs it: from the rounds up
// to the chosen one (a temporary view of them when later rounds exist).
function pairingRows(after) {
  const src = state.src;
  let table = src.kind === "db" ? null : src.matches;
  if (after < state.lastRound) {
    const columns = src.kind === "db" ? "*" : "event_id, *";  // a reader's event is hidden
    src.db.exec("DROP VIEW IF EXISTS temp.played_so_far");
    src.db.exec(`CREATE TEMP VIEW played_so_far AS SELECT ${columns} FROM "${src.matches}"`
                + ` WHERE round <= ${Math.trunc(after)}`);
    table = "played_so_far";
  }
  return src.db.query("SELECT * FROM pairings(?1, ?2, NULL, ?3, ?4) ORDER BY table_number",
                      [currentEvent().id, $("system").value, table, src.players]);
}

function renderPairings() {
  const after = Number($("round").value), system = $("system").value;
  for (const span of document.querySelectorAll(".next-round")) span.textContent = after + 1;
  const note = $("pairings-note"), body = $("pairings").tBodies[0];
  const chess = system === "dutch" || system === "berger";
  $("pairings").tHead.replaceChildren(el("tr", {}, el("th", { class: "num" }, "Table"),
    el("th", {}, chess ? "White" : "Player"), el("th", { class: "num" }, "Score"),
    el("th", {}, chess ? "Black" : "Opponent"), el("th", { class: "num" }, "Score"),
    el("th", { class: "opt" }, "Why")));
  $("pairings-title").textContent = `· ${system}`;
  let rows;
  try {
    rows = pairingRows(after);
  } catch (e) {
    const finished = state.src.scheduledRounds && after >= state.src.scheduledRounds;
    note.textContent = (finished ? `All ${state.src.scheduledRounds} rounds the file schedules`
      + " are played: the event is finished. " : "") + String(e.message || e);
    note.className = finished ? "note" : "error";
    body.replaceChildren();
    return;
  }
  note.className = "note";
  note.textContent = after < state.lastRound
    ? `Paired from rounds 1 to ${after} only; round ${after + 1} as played is in each`
      + " player's matches."
    : `${rows.length} tables, from the ${after} round(s) played.`;
  body.replaceChildren(...rows.map((p) => el("tr", {},
    el("td", { class: "num" }, p.table_number), el("td", {}, nameOf(p.player_a)),
    el("td", { class: "num" }, p.score_a ?? ""),
    el("td", {}, p.player_b === null
       ? (p.result === "zero_bye" ? "(free round)" : "(bye)") : nameOf(p.player_b)),
    el("td", { class: "num" }, p.score_b ?? ""),
    el("td", { class: "by opt" }, p.why ?? ""))));
}

// --------------------------------------------------------------- start

async function main() {
  state.tb = await initTiebreak();
  loadPolicies();
  setStatus(`SQLite ${state.tb.sqliteVersion} with tiebreak: open a file`, "empty");
  $("file").addEventListener("change", (e) => {
    const f = e.target.files[0];
    if (f) openFile(f).catch(fail);
    e.target.value = "";
  });
  $("example").addEventListener("click", () => openExample().catch(fail));
  $("event").addEventListener("change", () => {
    try { fillRounds(); } catch (e) { fail(e); return; }
    refresh();
  });
  $("policy").addEventListener("change", refresh);
  $("round").addEventListener("change", refresh);
  $("system").addEventListener("change", () => { renderPairings(); updateLink(); });
  $("why-a").addEventListener("change", renderWhy);
  $("why-b").addEventListener("change", renderWhy);
  for (const tab of document.querySelectorAll(".tabs button")) {
    tab.addEventListener("click", () => {
      if (!state.src) return;
      showView(tab.dataset.view);
      updateLink();
    });
  }
  // A link pasted into this tab: only the hash changes.
  window.addEventListener("hashchange", () => openLink().catch(fail));
  await openLink();
}

main().catch(fail);
