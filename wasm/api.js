/*
** api.js: the JavaScript API of the WebAssembly build (docs/wasm.md).
**
** Appended by emcc (--extern-post-js) after the module factory
** TiebreakSQLite, so that tiebreak.js + tiebreak.wasm are the whole build:
**
**   const tb = await initTiebreak();      // Node: require('./tiebreak.js')
**   const db = tb.open(bytes);            // a database file's bytes, or none
**   db.query("SELECT rank, player FROM standings(1, 'mtg')");
**   db.close();
**
** Values: NULL null, INTEGER number (BigInt beyond 2^53, or always with
** {bigint: true}), REAL number, TEXT string, BLOB Uint8Array.
*/
(function (root, factory) {
  "use strict";
  var SQLITE_ROW = 100, SQLITE_DONE = 101;
  var SQLITE_INTEGER = 1, SQLITE_FLOAT = 2, SQLITE_TEXT = 3, SQLITE_BLOB = 4;
  var SQLITE_TRANSIENT = -1;
  var isNode = typeof process === "object" && process.versions && process.versions.node;

  // An error of SQLite: message is sqlite3_errmsg(), code the result code.
  function SQLiteError(message, code) {
    var e = new Error(message);
    e.name = "SQLiteError";
    e.code = code;
    return e;
  }

  function init(options) {
    var opts = Object.assign({}, options || {});
    if (isNode && !opts.wasmBinary && !opts.locateFile) {
      // Node has fetch() but not for file paths: hand over the bytes.
      var path = require("path");
      opts.wasmBinary = require("fs").readFileSync(path.join(__dirname, "tiebreak.wasm"));
    }
    return factory(opts).then(function (M) { return api(M); });
  }

  function api(M) {
    var utf8 = new TextDecoder("utf-8");
    var utf8enc = new TextEncoder();

    // A NUL-terminated copy of a string in the module's memory (free it).
    function cString(s) {
      if (typeof s !== "string") throw new TypeError("SQL must be a string, not " + typeof s);
      var n = M.lengthBytesUTF8(s) + 1;
      var p = M._malloc(n);
      if (!p) throw SQLiteError("out of memory", 7);
      M.stringToUTF8(s, p, n);
      return p;
    }

    function Database(bytes) {
      var pp = M._malloc(4), rc, pData = 0, n = 0;
      if (bytes != null) {
        if (!(bytes instanceof Uint8Array || bytes instanceof ArrayBuffer)) {
          M._free(pp);
          throw new TypeError("open(): a database file's bytes (Uint8Array or ArrayBuffer)");
        }
        var b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
        n = b.length;
        pData = M._malloc(n || 1);
        M.HEAPU8.set(b, pData);
        // A WAL-mode file reads as a rollback-journal one from memory.
        if (n > 19 && M.HEAPU8[pData + 18] === 2 && M.HEAPU8[pData + 19] === 2) {
          M.HEAPU8[pData + 18] = 1;
          M.HEAPU8[pData + 19] = 1;
        }
      }
      rc = M._tb_wasm_open(pData, n, pp);
      this.db = M.HEAPU32[pp >> 2];
      M._free(pp);
      if (pData) M._free(pData);
      if (rc !== 0) {
        var msg = this.db ? M.UTF8ToString(M._sqlite3_errmsg(this.db)) : "out of memory";
        if (this.db) M._sqlite3_close_v2(this.db);
        this.db = 0;
        throw SQLiteError(msg, rc);
      }
    }

    Database.prototype._check = function (rc) {
      if (rc !== 0 && rc !== SQLITE_ROW && rc !== SQLITE_DONE) {
        throw SQLiteError(M.UTF8ToString(M._sqlite3_errmsg(this.db)), rc);
      }
      return rc;
    };

    Database.prototype._open = function () {
      if (!this.db) throw new Error("the database is closed");
      return this.db;
    };

    // Prepare the statement at p; calls fn(stmt) unless it is only
    // whitespace or comments; returns the pointer to the rest of the text.
    Database.prototype._prepare = function (p, fn) {
      var pp = M._malloc(8), stmt, tail, rc;
      try {
        rc = M._sqlite3_prepare_v2(this._open(), p, -1, pp, pp + 4);
        stmt = M.HEAPU32[pp >> 2];
        tail = M.HEAPU32[(pp + 4) >> 2];
      } finally {
        M._free(pp);
      }
      this._check(rc);
      if (stmt) {
        try {
          fn(stmt);
        } finally {
          M._sqlite3_finalize(stmt);
        }
      }
      return tail;
    };

    Database.prototype._bind = function (stmt, params) {
      var count = M._sqlite3_bind_parameter_count(stmt);
      if (params == null) return;
      if (typeof params !== "object") {
        throw new TypeError("parameters must be an array or an object, not a " + typeof params);
      }
      var named = !Array.isArray(params);
      for (var i = 1; i <= count; i++) {
        var v;
        if (named) {
          var np = M._sqlite3_bind_parameter_name(stmt, i);
          var name = np ? M.UTF8ToString(np) : "";
          var key = name.slice(1);
          v = Object.prototype.hasOwnProperty.call(params, key) ? params[key] : params[name];
        } else {
          v = params[i - 1];
        }
        this._check(this._bindOne(stmt, i, v));
      }
    };

    Database.prototype._bindOne = function (stmt, i, v) {
      if (v === null || v === undefined) return M._sqlite3_bind_null(stmt, i);
      if (typeof v === "bigint") {
        // WebAssembly would wrap it modulo 2^64 without a word.
        if (v < -9223372036854775808n || v > 9223372036854775807n) {
          throw new RangeError("parameter " + i + " is outside SQLite's 64-bit integers: " + v);
        }
        return M._sqlite3_bind_int64(stmt, i, v);
      }
      if (typeof v === "boolean") return M._sqlite3_bind_int64(stmt, i, v ? 1n : 0n);
      if (typeof v === "number") {
        return Number.isSafeInteger(v) ? M._sqlite3_bind_int64(stmt, i, BigInt(v))
                                       : M._sqlite3_bind_double(stmt, i, v);
      }
      if (v instanceof Uint8Array || v instanceof ArrayBuffer) {
        var b = v instanceof Uint8Array ? v : new Uint8Array(v);
        var p = M._malloc(b.length || 1);
        M.HEAPU8.set(b, p);
        try {
          return M._sqlite3_bind_blob(stmt, i, p, b.length, SQLITE_TRANSIENT);
        } finally {
          M._free(p);
        }
      }
      if (typeof v !== "string") {
        throw new TypeError("cannot bind a " + typeof v + " to parameter " + i
                            + " (null, number, bigint, boolean, string or Uint8Array)");
      }
      var bytes = utf8enc.encode(v);
      var q = M._malloc(bytes.length || 1);
      M.HEAPU8.set(bytes, q);
      try {
        return M._sqlite3_bind_text(stmt, i, q, bytes.length, SQLITE_TRANSIENT);
      } finally {
        M._free(q);
      }
    };

    function column(stmt, i, bigint) {
      switch (M._sqlite3_column_type(stmt, i)) {
        case SQLITE_INTEGER: {
          var v = M._sqlite3_column_int64(stmt, i);
          if (bigint) return v;
          return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
        }
        case SQLITE_FLOAT:
          return M._sqlite3_column_double(stmt, i);
        case SQLITE_TEXT: {
          var p = M._sqlite3_column_text(stmt, i);
          var n = M._sqlite3_column_bytes(stmt, i);
          return utf8.decode(M.HEAPU8.subarray(p, p + n));
        }
        case SQLITE_BLOB: {
          var q = M._sqlite3_column_blob(stmt, i);
          var m = M._sqlite3_column_bytes(stmt, i);
          return M.HEAPU8.slice(q, q + m);
        }
        default:
          return null;
      }
    }

    // Step a prepared statement to the end; rows as objects or arrays.
    Database.prototype._rows = function (stmt, opts) {
      var ncol = M._sqlite3_column_count(stmt), names = [], rows = [], i, rc;
      for (i = 0; i < ncol; i++) names.push(M.UTF8ToString(M._sqlite3_column_name(stmt, i)));
      while ((rc = M._sqlite3_step(stmt)) === SQLITE_ROW) {
        var row = opts.array ? [] : {};
        for (i = 0; i < ncol; i++) {
          var v = column(stmt, i, opts.bigint);
          if (opts.array) row.push(v); else row[names[i]] = v;
        }
        rows.push(row);
      }
      this._check(rc);
      rows.columns = names;
      return rows;
    };

    /*
    ** Run one statement with its parameters (an array for ? and ?NNN, an
    ** object for :name, $name, @name) and return its rows: objects keyed by
    ** column name, or arrays with {array: true}; rows.columns holds the
    ** names.  {bigint: true} returns every INTEGER as a BigInt.
    */
    Database.prototype.query = function (sql, params, options) {
      var self = this, rows = [], p = cString(sql), rest;
      var opts = options || {};
      try {
        var seen = false;
        rest = this._prepare(p, function (stmt) {
          seen = true;
          self._bind(stmt, params);
          rows = self._rows(stmt, opts);
        });
        if (!seen) throw new Error("query(): no SQL statement");
        this._prepare(rest, function () {
          throw new Error("query() runs one statement; exec() runs several");
        });
      } finally {
        M._free(p);
      }
      return rows;
    };

    // Run every statement of sql, rows discarded; named params (an object)
    // are bound in each statement that uses them, as the shell's .parameter.
    Database.prototype.exec = function (sql, params) {
      var self = this, p = cString(sql), cur = p;
      if (params != null && Array.isArray(params)) {
        throw new Error("exec() takes named parameters (an object), not an array");
      }
      try {
        while (M.HEAPU8[cur] !== 0) {
          var next = this._prepare(cur, function (stmt) {
            self._bind(stmt, params);
            self._rows(stmt, {});
          });
          if (next === cur) break;
          cur = next;
        }
      } finally {
        M._free(p);
      }
    };

    // The database as the bytes of a SQLite file (for saving or download).
    Database.prototype.export = function () {
      var pn = M._malloc(4);
      var p = M._tb_wasm_serialize(this._open(), pn);
      var n = M.HEAP32[pn >> 2];
      M._free(pn);
      if (!p) throw SQLiteError("out of memory", 7);
      var out = M.HEAPU8.slice(p, p + n);
      M._sqlite3_free(p);
      return out;
    };

    // Rows changed by the last INSERT, UPDATE or DELETE.
    Database.prototype.changes = function () {
      return M._sqlite3_changes(this._open());
    };

    Database.prototype.close = function () {
      if (this.db) M._sqlite3_close_v2(this.db);
      this.db = 0;
    };

    return {
      open: function (bytes) { return new Database(bytes); },
      sqliteVersion: M.UTF8ToString(M._sqlite3_libversion()),
      SQLiteError: SQLiteError
    };
  }

  if (typeof module === "object" && module.exports) module.exports = init;
  else root.initTiebreak = init;
})(typeof globalThis !== "undefined" ? globalThis : this, TiebreakSQLite);
