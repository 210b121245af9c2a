// Run inside a project that installed the sqlite-tiebreak tarball: loads the
// extension through the package into each SQLite binding this runtime has
// (Node: node:sqlite and better-sqlite3; Bun: bun:sqlite; Deno: node:sqlite)
// and computes the example event's standings.  argv: the repository path.
// Prints one line per binding and "N passed, N failed".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { getLoadablePath, load } from 'sqlite-tiebreak';
import tiebreak from 'sqlite-tiebreak';

const repo = process.argv[process.argv.length - 1];
const sql = (name) => readFileSync(join(repo, 'sql', name), 'utf8');
const runtime = globalThis.Deno ? `deno ${Deno.version.deno}`
  : globalThis.Bun ? `bun ${Bun.version}` : `node ${process.versions.node}`;
const TOP3 = [
  { rank: 1, player: 'Hugo', match_points: 13, omwp: 0.6533 },
  { rank: 2, player: 'Cleo', match_points: 13, omwp: 0.64 },
  { rank: 3, player: 'Sami', match_points: 12, omwp: 0.6433 },
];
const QUERY = `SELECT rank, player, match_points, round(omwp, 4) AS omwp
               FROM standings(?, 'mtg') LIMIT 3`;

function check(db) {
  db.exec(sql('schema.sql'));
  db.exec(sql('example.sql'));
  const plain = (rows) => rows.map((r) => ({ ...r }));
  assert.deepEqual(plain(db.prepare(QUERY).all(1)), TOP3);  // a plain JS number
  assert.deepEqual(plain(db.prepare(QUERY).all(1n)), TOP3);
  assert.throws(() => db.prepare("SELECT * FROM standings(1, 'nope')").all(),
                /standings\(\): unknown policy 'nope'/);
}

const bindings = [];
if (globalThis.Bun) {
  bindings.push(['bun:sqlite', async () => {
    const { Database } = await import('bun:sqlite');
    const db = new Database(':memory:');
    load(db);
    check(db);
    db.close();
  }]);
} else {
  bindings.push(['node:sqlite', async () => {
    const { DatabaseSync } = await import('node:sqlite');
    const refused = new DatabaseSync(':memory:');
    assert.throws(() => load(refused), /open it with new DatabaseSync\(path, \{ allowExtension: true \}\)/);
    const db = new DatabaseSync(':memory:', { allowExtension: true });
    // The caller has loading on: load() leaves it on, so the caller's next
    // extension (the module again) loads.  Deno's node:sqlite has no switch:
    // allowExtension alone decides.
    const switchable = typeof db.enableLoadExtension === 'function';
    if (switchable) db.enableLoadExtension(true);
    load(db);
    check(db);
    db.loadExtension(getLoadablePath());
    if (switchable) {
      // Switched off by the caller: load() loads and leaves it off.
      db.enableLoadExtension(false);
      load(db);
      assert.throws(() => db.loadExtension(getLoadablePath()), /not authorized|not allowed/i);
    }
    // SQL's load_extension() stays off either way.
    assert.throws(() => db.prepare("SELECT load_extension('x')").all(), /not authorized/);
    db.close();
  }]);
}
if (!globalThis.Bun && !globalThis.Deno) {
  bindings.push(['better-sqlite3', async () => {
    const Database = createRequire(join(process.cwd(), 'x.js'))('better-sqlite3');
    const db = new Database(':memory:');
    load(db);
    check(db);
    db.close();
  }]);
}
bindings.push(['require() and the default export', async () => {
  const cjs = createRequire(join(process.cwd(), 'x.js'))('sqlite-tiebreak');
  assert.equal(cjs.getLoadablePath(), getLoadablePath());
  assert.equal(tiebreak.load, load);
  assert.match(getLoadablePath(), /node_modules[\\/]sqlite-tiebreak[\\/]lib[\\/]linux-x64[\\/]tiebreak\.so$/);
  assert.throws(() => load({}), /db must be a better-sqlite3, node:sqlite or bun:sqlite database/);
}]);

let passed = 0, failed = 0;
for (const [name, fn] of bindings) {
  try {
    await fn();
    passed++;
    console.log(`ok: ${runtime}: ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAILED: ${runtime}: ${name}: ${e.stack || e}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
