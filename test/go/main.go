// Loads tiebreak into Go's database/sql through mattn/go-sqlite3 and prints
// the example event's standings; run by test/go/run.py, the example of
// docs/install.md ("Go").  Arguments: the module path, the repository.
package main

import (
	"database/sql"
	"fmt"
	"log"
	"os"
	"path/filepath"

	sqlite3 "github.com/mattn/go-sqlite3"
)

func main() {
	ext, repo := os.Args[1], os.Args[2]
	// Every connection the pool opens loads the module.
	sql.Register("sqlite3_tiebreak", &sqlite3.SQLiteDriver{Extensions: []string{ext}})
	db, err := sql.Open("sqlite3_tiebreak", ":memory:")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one in-memory database
	for _, f := range []string{"schema.sql", "example.sql"} {
		text, err := os.ReadFile(filepath.Join(repo, "sql", f))
		if err != nil {
			log.Fatal(err)
		}
		if _, err := db.Exec(string(text)); err != nil {
			log.Fatal(err)
		}
	}
	// Go's int64 binds an INTEGER.
	rows, err := db.Query(`SELECT rank, player, match_points, round(omwp, 4)
	                       FROM standings(?, 'mtg') LIMIT 3`, 1)
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var rank, points int64
		var player string
		var omwp float64
		if err := rows.Scan(&rank, &player, &points, &omwp); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%d %s %d %.4f\n", rank, player, points, omwp)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	_, err = db.Exec("SELECT * FROM standings(1, 'nope')")
	fmt.Println(err)
}
