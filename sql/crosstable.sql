-- A chess crosstable as arbiters print it: rank, start number, name, rating, one cell per
-- round, points and the tie-breaks of the policy's order. It is the 'crosstable' report of
-- sql/reports.sql, run alone; from the directory that holds sql/, after the extension is
-- loaded:
--
--   sqlite3 event.db '.load ./build/tiebreak' '.parameter set $event 1' '.read sql/crosstable.sql'
--   sqlite3 :memory: '.load ./build/tiebreak' '.parameter set $file event.trf' \
--     '.read sql/crosstable.sql'
--
-- Parameters as for sql/reports.sql ($file, $event, $round, $policy); $policy defaults to
-- 'fide' for tables, to the file's own order for a TRF file. Names and ratings come from the
-- players table (trf_players() for a file). The parameters are left as they were.

.parameter init
DROP TABLE IF EXISTS temp.tb_crosstable_saved;
CREATE TEMP TABLE tb_crosstable_saved AS
SELECT * FROM temp.sqlite_parameters WHERE key IN ('$report', '$policy');
INSERT OR REPLACE INTO temp.sqlite_parameters (key, value) VALUES ('$report', 'crosstable');
INSERT OR IGNORE INTO temp.sqlite_parameters (key, value)
SELECT '$policy', 'fide' WHERE NOT EXISTS (SELECT 1 FROM temp.sqlite_parameters
                                           WHERE key = '$file');
.read sql/reports.sql
DELETE FROM temp.sqlite_parameters WHERE key IN ('$report', '$policy');
INSERT INTO temp.sqlite_parameters SELECT * FROM temp.tb_crosstable_saved;
DROP TABLE temp.tb_crosstable_saved;
