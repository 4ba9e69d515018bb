// Command libsonly links the libraries dobble serve cannot do without
// (SQLite, the PostgreSQL driver, NATS with JetStream, the WebSocket
// library and net/http), calls none of them, and prints one line. It is
// a floor for dobble's start-up: the time Go takes to start a program of
// that size, those libraries' package inits included, which
// scripts/bench-startup measures beside dobble.
package main

import (
	"fmt"

	_ "github.com/gobwas/ws"
	_ "github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/nats-io/nats.go"
	_ "github.com/nats-io/nats.go/jetstream"
	_ "modernc.org/sqlite"
	_ "net/http"
)

func main() { fmt.Println("hello") }
