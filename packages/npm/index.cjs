// The loadable module for this platform, and load(db) for the SQLite
// bindings of Node, Bun and Deno.  The package carries one module per
// platform in lib/<platform>-<arch>/ (tools/dist.py puts them there).
'use strict';
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const SUFFIX = { win32: 'dll', darwin: 'dylib' };

function getLoadablePath() {
  const dir = join(__dirname, 'lib', `${process.platform}-${process.arch}`);
  const path = join(dir, `tiebreak.${SUFFIX[process.platform] || 'so'}`);
  if (!existsSync(path)) {
    let shipped = [];
    try { shipped = readdirSync(join(__dirname, 'lib')); } catch { /* none */ }
    throw new Error(`sqlite-tiebreak: no module for ${process.platform}-${process.arch} ` +
                    `in this package (it has: ${shipped.join(', ') || 'none'}); ` +
                    'build it from source: cmake -S . -B build && cmake --build build');
  }
  return path;
}

// Whether a node:sqlite database may load extensions now: it has no getter,
// so ask it to load a file that does not exist.  Switched off, the load is
// refused before the file is looked for ("not authorized", "not allowed",
// "disabled"); on,
// it fails on the missing file, which loads nothing.
function loadingEnabled(db) {
  try {
    db.loadExtension(join(__dirname, 'lib', 'no-such-module'));
  } catch (e) {
    return !/not authorized|not allowed|disabled/i.test(e.message);
  }
  return true;
}

// node:sqlite's DatabaseSync (Node 22.13+) gates loading behind
// enableLoadExtension(), allowed only when the database was opened with
// { allowExtension: true }; Deno's node:sqlite checks that option in
// loadExtension(); better-sqlite3 and bun:sqlite load directly.  The
// caller's setting is left as it was: off stays off, on stays on.
function load(db) {
  if (!db || typeof db.loadExtension !== 'function') {
    throw new TypeError('sqlite-tiebreak load(db): db must be a better-sqlite3, node:sqlite ' +
                        'or bun:sqlite database');
  }
  const path = getLoadablePath();
  const gated = typeof db.enableLoadExtension === 'function';
  const wasOn = gated && loadingEnabled(db);
  try {
    if (gated && !wasOn) db.enableLoadExtension(true);
    db.loadExtension(path);
  } catch (e) {
    if (/allowExtension|disabled at database creation/i.test(e.message)) {
      throw new Error('sqlite-tiebreak load(db): this node:sqlite database cannot load ' +
                      'extensions; open it with new DatabaseSync(path, ' +
                      `{ allowExtension: true }) (${e.message})`);
    }
    throw e;
  } finally {
    if (gated && !wasOn) try { db.enableLoadExtension(false); } catch { /* was never on */ }
  }
}

module.exports = { getLoadablePath, load };
