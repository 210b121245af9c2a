// The example event's standings with the WebAssembly build, under Node 16
// or later: node example.cjs (tiebreak.wasm sits beside tiebreak.js).
const initTiebreak = require("./tiebreak.js");
const fs = require("fs");
const path = require("path");

const sql = (name) => fs.readFileSync(path.join(__dirname, "sql", name), "utf8");

initTiebreak().then((tb) => {
  const db = tb.open();
  db.exec(sql("schema.sql"));
  db.exec(sql("example.sql"));
  for (const r of db.query("SELECT rank, player, match_points, decided_by"
                           + " FROM standings(?, 'mtg') LIMIT 3", [1])) {
    console.log(r.rank, r.player, r.match_points, r.decided_by);
  }
  console.log(tb.sqliteVersion);
  db.close();
});
