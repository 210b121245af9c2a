// Times standings() in the WebAssembly build: node bench/wasm_worker.cjs
// TIEBREAK_JS DB_FILE REPS -> JSON {"seconds": [...], "rows": n} on stdout.
// The database file is opened from its bytes (tb.open), as the page does.
"use strict";
const fs = require("fs");
const [js, file, reps] = process.argv.slice(2);
require(js)().then((tb) => {
  const db = tb.open(fs.readFileSync(file));
  const sql = "SELECT count(*) AS n FROM standings(?1, 'mtg')";
  const rows = db.query(sql, [1])[0].n;  // warm-up, untimed
  const seconds = [];
  for (let i = 0; i < Number(reps); i++) {
    const t0 = process.hrtime.bigint();
    db.query(sql, [1]);
    seconds.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  db.close();
  process.stdout.write(JSON.stringify({ seconds, rows }));
});
