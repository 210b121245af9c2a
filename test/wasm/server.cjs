// Runs SQL sent by test_wasm.py on the WebAssembly build, one JSON request a
// line on stdin, one JSON answer a line on stdout:
//   {"op": "open"}                      a fresh empty database (closes the last)
//   {"op": "open", "file": PATH}        a database from a file's bytes
//   {"op": "query", "sql": SQL}         -> {"rows": [[value, ...], ...]}
//   {"op": "close"}
// Errors answer {"error": message}. Values keep SQLite's types: INTEGER
// {"i": "digits"}, REAL {"r": "shortest decimal"}, TEXT a string, BLOB
// {"b": base64}, NULL null.
"use strict";
const fs = require("fs");
const readline = require("readline");
const initTiebreak = require(process.argv[2]);

function value(v) {
  if (typeof v === "bigint") return { i: v.toString() };
  if (typeof v === "number") return { r: String(v) };
  if (v instanceof Uint8Array) return { b: Buffer.from(v).toString("base64") };
  return v;
}

initTiebreak().then((tb) => {
  let db = null;
  const send = (o) => process.stdout.write(JSON.stringify(o) + "\n");
  const rl = readline.createInterface({ input: process.stdin });
  rl.on("line", (line) => {
    const req = JSON.parse(line);
    try {
      if (req.op === "open") {
        if (db) db.close();
        db = null;
        db = tb.open(req.file ? fs.readFileSync(req.file) : undefined);
        send({ ok: true, sqlite: tb.sqliteVersion });
      } else if (req.op === "query") {
        const rows = db.query(req.sql, req.params || null, { array: true, bigint: true });
        send({ rows: rows.map((r) => r.map(value)) });
      } else if (req.op === "close") {
        if (db) db.close();
        db = null;
        send({ ok: true });
      } else {
        send({ error: "unknown op " + req.op });
      }
    } catch (e) {
      send({ error: e.message, name: e.name });
    }
  });
});
