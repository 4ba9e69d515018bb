// Command libsonly links the libraries dobble serve cannot do without
// (SQLite, the PostgreSQL driver, NATS with JetStream, the WebSocket
// library and net/http), calls none of them, and prints one line. It is
// a floor for dobble's start-up: the time Go takes to start a program of
// that size, those libraries' package inits included, which
// scripts/bench-startup measures beside dobble.
//
// Each library is linked from a file of its own, which a build tag leaves
// out (nosqlite, nopgx, nonats, nows, nohttp), so that the script also
// measures what each one costs linked alone, as in
//
//	go build -tags nopgx,nonats,nows,nohttp ./bench/baseline/libsonly
package main

import "fmt"

func main() { fmt.Println("hello") }
