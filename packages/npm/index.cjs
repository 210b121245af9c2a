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

// node:sqlite's DatabaseSync (Node 22.13+, Deno) gates loading behind
// enableLoadExtension(), which it allows only when the database was opened
// with { allowExtension: true }; better-sqlite3 and bun:sqlite load directly.
function load(db) {
  if (!db || typeof db.loadExtension !== 'function') {
    throw new TypeError('sqlite-tiebreak load(db): db must be a better-sqlite3, node:sqlite ' +
                        'or bun:sqlite database');
  }
  const path = getLoadablePath();
  if (typeof db.enableLoadExtension !== 'function') {
    db.loadExtension(path);
    return;
  }
  try {
    db.enableLoadExtension(true);
  } catch (e) {
    throw new Error('sqlite-tiebreak load(db): this node:sqlite database cannot load ' +
                    'extensions; open it with new DatabaseSync(path, { allowExtension: true }) ' +
                    `(${e.message})`);
  }
  try {
    db.loadExtension(path);
  } finally {
    db.enableLoadExtension(false);  // SQL's load_extension() stays off
  }
}

module.exports = { getLoadablePath, load };
