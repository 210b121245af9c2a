// Loads the extension into Node's two SQLite bindings, node:sqlite
// (Node 22.13 and later) and better-sqlite3, and computes the example event's
// standings.  Run by run.py: TIEBREAK_EXT is the module path without suffix,
// TIEBREAK_REPO the repository (for sql/schema.sql and sql/example.sql).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ext = process.env.TIEBREAK_EXT;
const repo = process.env.TIEBREAK_REPO;
const sql = (name) => readFileSync(join(repo, 'sql', name), 'utf8');

const TOP3 = [
  { rank: 1, player: 'Hugo', match_points: 13, omwp: 0.6533, decided_by: null },
  { rank: 2, player: 'Cleo', match_points: 13, omwp: 0.64, decided_by: 'omwp' },
  { rank: 3, player: 'Sami', match_points: 12, omwp: 0.6433, decided_by: 'match_points' },
];
const QUERY = `SELECT rank, player, match_points, round(omwp, 4) AS omwp, decided_by
               FROM standings(?, 'mtg') LIMIT 3`;

// The same checks for any binding: exec(sql) and all(sql, ...params).
// Ids and round numbers are bound as BigInt here; plain numbers are checked
// below.
function checkStandings(exec, all) {
  exec(sql('schema.sql'));
  exec(sql('example.sql'));
  assert.deepEqual(all(QUERY, 1n).map((r) => ({ ...r })), TOP3);
  // Named form, with as_of_round bound too.
  const after3 = all(`SELECT player, match_points FROM standings
                      WHERE event_id = ? AND policy = 'mtg' AND as_of_round = ?
                      LIMIT 3`, 1n, 3n);
  assert.deepEqual(after3.map((r) => ({ ...r })),
                   [{ player: 'Hugo', match_points: 9 }, { player: 'Sami', match_points: 9 },
                    { player: 'Cleo', match_points: 9 }]);
  // A number works through CAST.
  assert.equal(all("SELECT count(*) AS n FROM standings(CAST(? AS INTEGER), 'mtg')", 1)[0].n,
               24);
  assert.throws(() => all("SELECT * FROM standings(1, 'nope')"),
                /standings\(\): unknown policy 'nope' \(known: mtg\b/);
}

test('node:sqlite loads the extension', async () => {
  let sqlite;
  try {
    sqlite = await import('node:sqlite');
  } catch {
    assert.fail(`node:sqlite is missing in Node ${process.version} (22.13 or later has it)`);
  }
  const db = new sqlite.DatabaseSync(':memory:', { allowExtension: true });
  db.enableLoadExtension(true);
  db.loadExtension(ext);
  db.enableLoadExtension(false);  // keep SQL's load_extension() off
  checkStandings((s) => db.exec(s), (s, ...p) => db.prepare(s).all(...p));
  db.close();
});

test('better-sqlite3 loads the extension', () => {
  const require = createRequire(join(process.env.TIEBREAK_NODE_MODULES, 'x.js'));
  const Database = require('better-sqlite3');
  const db = new Database(':memory:');
  db.loadExtension(ext);
  checkStandings((s) => db.exec(s), (s, ...p) => db.prepare(s).all(...p));
  db.close();
});

// A plain JS number is bound as a REAL (1.0), which standings() takes as the
// integer it holds; a fraction is refused, and the text '1' is another value
// than the INTEGER 1 (no rows) unless the query casts it.
test('a JS number as event_id and as_of_round', () => {
  const require = createRequire(join(process.env.TIEBREAK_NODE_MODULES, 'x.js'));
  const db = new (require('better-sqlite3'))(':memory:');
  db.loadExtension(ext);
  db.exec(sql('schema.sql'));
  db.exec(sql('example.sql'));
  assert.deepEqual(db.prepare(QUERY).all(1).map((r) => ({ ...r })), TOP3);
  assert.deepEqual(db.prepare(`SELECT player, match_points FROM standings(?, 'mtg', NULL, ?)
                               LIMIT 1`).get(1, 3), { player: 'Hugo', match_points: 9 });
  assert.throws(() => db.prepare(QUERY).all(1.5),
                /standings\(\): event_id must be INTEGER or TEXT/);
  assert.deepEqual(db.prepare(QUERY).all('1').map((r) => ({ ...r })), TOP3); // '1' finds 1
  assert.deepEqual(db.prepare(QUERY.replace('standings(?', 'standings(CAST(? AS INTEGER)'))
                     .all('1').map((r) => ({ ...r })), TOP3);
  db.close();
});
