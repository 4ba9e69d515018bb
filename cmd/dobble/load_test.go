package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dobble-dev/dobble/server"
)

// startServe runs dobble serve in the test on a free loopback port with a
// real SQLite file, short countdowns and flags, and returns its WebSocket
// URL and a function reading one metric.
func startServe(t *testing.T, flags ...string) (string, func(name string) float64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"--db", filepath.Join(t.TempDir(), "dobble.db"), "--countdown", "5ms", "--rate", "1000", "--burst", "1000"}, flags...)
	cfg, err := parseServe(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.Serve(ctx, ln, cfg.server, nil) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	base := "http://" + ln.Addr().String()
	metric := func(name string) float64 {
		t.Helper()
		resp, err := http.Get(base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var sum float64
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			series, value, ok := strings.Cut(sc.Text(), " ")
			if ok && (series == name || strings.HasPrefix(series, name+"{")) {
				v, _ := strconv.ParseFloat(value, 64)
				sum += v
			}
		}
		return sum
	}
	return "ws://" + ln.Addr().String() + "/ws", metric
}

// TestLoad runs a small load against a real server: the JSON report has
// the documented fields, no errors, every connection held, and counts
// that match the server's own metrics.
func TestLoad(t *testing.T) {
	url, metric := startServe(t)
	code, out, errOut := runCLI(t, "", "load", "--url", url, "--rooms", "3", "--players-per-room", "3",
		"--deck", "order-3", "--duration", "1s", "--reaction", "1ms-5ms", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if strings.Count(out, "\n") != 1 {
		t.Fatalf("want one JSON object on one line, got %q", out)
	}
	var fields map[string]any
	if err := json.Unmarshal([]byte(out), &fields); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	for _, f := range []string{"connections", "claims_per_s", "games_per_s", "p50_ms", "p90_ms", "p99_ms", "max_ms", "errors", "error_kinds", "server_memory_bytes"} {
		if _, ok := fields[f]; !ok {
			t.Errorf("the report has no %q: %s", f, out)
		}
	}
	var rep struct {
		Connections int              `json:"connections"`
		Claims      int64            `json:"claims"`
		Accepted    int64            `json:"accepted"`
		Late        int64            `json:"late"`
		ClaimsPerS  float64          `json:"claims_per_s"`
		Games       int64            `json:"games"`
		Errors      int64            `json:"errors"`
		ErrorKinds  map[string]int64 `json:"error_kinds"`
		P99         float64          `json:"p99_ms"`
	}
	json.Unmarshal([]byte(out), &rep)
	if rep.Errors != 0 || rep.Connections != 9 {
		t.Errorf("errors %d %v, connections %d of 9", rep.Errors, rep.ErrorKinds, rep.Connections)
	}
	if rep.Claims == 0 || rep.Accepted+rep.Late != rep.Claims || rep.ClaimsPerS <= 0 || rep.P99 <= 0 {
		t.Errorf("claims %d (%d accepted, %d late, %v/s, p99 %v ms): not every claim settled", rep.Claims, rep.Accepted, rep.Late, rep.ClaimsPerS, rep.P99)
	}
	if got := int64(metric("dobble_claims_total")); got != rep.Claims {
		t.Errorf("the server counted %d claims; the report %d", got, rep.Claims)
	}
	if got := int64(metric("dobble_games_total")); got != rep.Games {
		t.Errorf("the server counted %d games; the report %d", got, rep.Games)
	}
	for _, want := range []string{"dobble: load: 9 of 9 clients connected", "dobble: load: 3 of 3 rooms filled"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q: %q", want, errOut)
		}
	}

	// The text report says the same in lines.
	code, out, errOut = runCLI(t, "", "load", "--url", url, "--rooms", "1", "--players-per-room", "2", "--game", "well",
		"--duration", "300ms", "--reaction", "2ms")
	if code != 0 {
		t.Fatalf("text: exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"players      2 in 1 rooms of 2 (well)", "connections  2 held (the server counts 2)", "actions      ", "latency      action → update p50 ", "\n  claim      ", "errors       0\n", "server       "} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

// TestMain runs this test binary as dobble itself when dobble load
// --procs starts it as one process of a split run (os.Executable is the
// test binary here).
func TestMain(m *testing.M) {
	if _, ok := os.LookupEnv(loadPartEnv); ok {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestLoadProcs splits a load over two processes and two real servers:
// the one report holds every room and connection, its counts are those
// the two servers counted between them, and each process said its rooms.
func TestLoadProcs(t *testing.T) {
	urlA, metricA := startServe(t)
	urlB, metricB := startServe(t)
	code, out, errOut := runCLI(t, "", "load", "--url", urlA, "--url", urlB, "--procs", "2", "--rooms", "4", "--players-per-room", "3",
		"--deck", "order-3", "--duration", "1s", "--reaction", "1ms-5ms", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var rep struct {
		Rooms             int              `json:"rooms"`
		Connections       int              `json:"connections"`
		ServerConnections int              `json:"server_connections"`
		Claims            int64            `json:"claims"`
		Accepted          int64            `json:"accepted"`
		Late              int64            `json:"late"`
		Games             int64            `json:"games"`
		ServerClaims      int64            `json:"server_claims"`
		ServerGames       int64            `json:"server_games"`
		Errors            int64            `json:"errors"`
		ErrorKinds        map[string]int64 `json:"error_kinds"`
		ServerMemory      int64            `json:"server_memory_bytes"`
		Actions           map[string]struct {
			Sent int64 `json:"sent"`
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	if rep.Rooms != 4 || rep.Connections != 12 || rep.ServerConnections != 12 || rep.Errors != 0 {
		t.Errorf("rooms %d, connections %d (the servers count %d), errors %v: %s", rep.Rooms, rep.Connections, rep.ServerConnections, rep.ErrorKinds, out)
	}
	claims := int64(metricA("dobble_claims_total") + metricB("dobble_claims_total"))
	games := int64(metricA("dobble_games_total") + metricB("dobble_games_total"))
	if rep.Claims == 0 || rep.Claims != claims || rep.ServerClaims != claims || rep.Accepted+rep.Late != rep.Claims {
		t.Errorf("claims %d (%d accepted, %d late; the report's server count %d); the servers count %d", rep.Claims, rep.Accepted, rep.Late, rep.ServerClaims, claims)
	}
	if rep.Games != games || rep.ServerGames != games {
		t.Errorf("games %d (the report's server count %d); the servers count %d", rep.Games, rep.ServerGames, games)
	}
	if rep.Actions["claim"].Sent != rep.Claims || rep.ServerMemory <= 0 {
		t.Errorf("claims sent %d of %d, server memory %d", rep.Actions["claim"].Sent, rep.Claims, rep.ServerMemory)
	}
	for _, want := range []string{"dobble: load: rooms 0-1: 6 of 6 clients connected", "dobble: load: rooms 2-3: 2 of 2 rooms filled",
		"dobble: load: the rooms of all 2 processes filled"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q: %q", want, errOut)
		}
	}
}

// TestLoadProcsFail splits a load over two processes against a server
// that lets in too few players to fill a room: the processes fail, and so
// does the run, saying which and why.
func TestLoadProcsFail(t *testing.T) {
	url, _ := startServe(t, "--max-conns", "2")
	code, out, errOut := runCLI(t, "", "load", "--url", url, "--procs", "2", "--rooms", "2", "--players-per-room", "3",
		"--duration", "1s", "--format", "json")
	if code != 1 || out != "" || !strings.Contains(errOut, "dobble: load: process ") || !strings.Contains(errOut, "dobble: load: rooms 0-0: no room could be filled") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestLoadResume runs the load with --resume against a server that stays
// up: the report, as JSON and as text, says that no connection dropped
// and none came back.
func TestLoadResume(t *testing.T) {
	url, _ := startServe(t)
	code, out, errOut := runCLI(t, "", "load", "--url", url, "--rooms", "1", "--players-per-room", "2",
		"--deck", "order-3", "--duration", "300ms", "--reaction", "1ms-3ms", "--resume", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var rep struct {
		Errors int64 `json:"errors"`
		Resume *struct {
			Drops   *int64   `json:"drops"`
			Resumed *int64   `json:"resumed"`
			Failed  *int64   `json:"failed"`
			P99     *float64 `json:"back_p99_ms"`
		} `json:"resume"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	if r := rep.Resume; rep.Errors != 0 || r == nil || r.Drops == nil || *r.Drops != 0 || r.Resumed == nil || r.Failed == nil || r.P99 == nil {
		t.Fatalf("--resume: %s", out)
	}
	code, out, errOut = runCLI(t, "", "load", "--url", url, "--rooms", "1", "--players-per-room", "2",
		"--deck", "order-3", "--duration", "300ms", "--reaction", "1ms-3ms", "--resume")
	if code != 0 || !strings.Contains(out, "resume       0 connections dropped; 0 reconnected (0 tries)\n") ||
		!strings.Contains(out, "drop → back in play p50 0 ms") {
		t.Fatalf("--resume, text: exit %d, stderr %q:\n%s", code, errOut, out)
	}
}

// TestLoadExtraGame plays Memory, a game of turns and flips, with an
// option: every flip is accepted, as the server counts them.
func TestLoadExtraGame(t *testing.T) {
	url, metric := startServe(t)
	var rep struct {
		Game    string           `json:"game"`
		Claims  int64            `json:"claims"`
		Errors  int64            `json:"errors"`
		Kinds   map[string]int64 `json:"error_kinds"`
		Games   int64            `json:"games"`
		Actions map[string]struct {
			Sent     int64   `json:"sent"`
			Accepted int64   `json:"accepted"`
			Late     int64   `json:"late"`
			P99      float64 `json:"p99_ms"`
		} `json:"actions"`
	}
	// A run long enough to finish a game: half a second at first, twice
	// as long each time until one ends, so that a slow machine only makes
	// the test take longer. The server's counters are compared with each
	// run's report by their growth over the run.
	var out string
	var accepted, games float64
	for duration := 500 * time.Millisecond; ; duration *= 2 {
		before, gamesBefore := metric(`dobble_claims_total{outcome="accepted"}`), metric("dobble_games_total")
		code, o, errOut := runCLI(t, "", "load", "--url", url, "--rooms", "2", "--players-per-room", "3", "--game", "memory",
			"--option", "remove-markers=no", "--duration", duration.String(), "--reaction", "1ms-3ms", "--format", "json")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		out = o
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%q: %v", out, err)
		}
		accepted = metric(`dobble_claims_total{outcome="accepted"}`) - before
		games = metric("dobble_games_total") - gamesBefore
		if rep.Games > 0 || duration > time.Minute {
			break
		}
	}
	flip := rep.Actions["flip"]
	if rep.Game != "memory" || rep.Errors != 0 || flip.Accepted == 0 || flip.Accepted+flip.Late != flip.Sent || flip.P99 <= 0 {
		t.Fatalf("memory: %s", out)
	}
	if got := int64(accepted); got != flip.Accepted+rep.Actions["claim"].Accepted {
		t.Errorf("the server accepted %d actions; the report %d flips and %d claims (in tie-breaks)", got, flip.Accepted, rep.Actions["claim"].Accepted)
	}
	if got := int64(games); got != rep.Games || got == 0 {
		t.Errorf("the server counted %d games; the report %d", got, rep.Games)
	}
}

// TestLoadBadFlags checks that every bad request is refused before any
// connection, with exit status 2 and one line.
func TestLoadBadFlags(t *testing.T) {
	url := "ws://127.0.0.1:9/ws"
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{}, "dobble: load: --url is missing; give the server's WebSocket URL, such as ws://127.0.0.1:8080/ws"},
		{[]string{"--url", "ws://192.0.2.1:8080/ws"}, "~192.0.2.1 is not a loopback address; the load runs only against this machine"},
		{[]string{"--url", "ws://dobble.example:8080/ws"}, `~"dobble.example" is not a loopback address`},
		{[]string{"--url", "wss://127.0.0.1:8080/ws"}, `~the scheme is "wss"`},
		{[]string{"--url", "ws://127.0.0.1/ws"}, "~no port"},
		{[]string{"--url", url, "--rooms", "0"}, "dobble: load: --rooms 0: use 1 or more"},
		{[]string{"--url", url, "--rooms", "-3"}, "dobble: load: --rooms -3: use 1 or more"},
		{[]string{"--url", url, "--players-per-room", "1"}, "dobble: load: --players-per-room 1: tower takes 2 to 8 players"},
		{[]string{"--url", url, "--game", "chess"}, "~dobble: load: --game: "},
		{[]string{"--url", url, "--option", "fast"}, "dobble: load: --option fast: use NAME=VALUE"},
		{[]string{"--url", url, "--game", "memory", "--option", "speed=2"}, "dobble: load: --option speed: memory has no such option; it takes turn-time, remove-markers"},
		{[]string{"--url", url, "--option", "speed=2"}, "dobble: load: --option speed: tower has no such option; it takes none"},
		{[]string{"--url", url, "--rooms", "60000"}, "~at most 200000"},
		{[]string{"--url", url, "--duration", "0s"}, "~--duration 0s: use a duration"},
		{[]string{"--url", url, "--duration", "2h"}, "~--duration 2h0m0s: use a duration"},
		{[]string{"--url", url, "--reaction", "2s-1s"}, `dobble: load: --reaction "2s-1s": use MIN-MAX, two durations such as 700ms-2s (MIN ≤ MAX, at most 1m0s)`},
		{[]string{"--url", url, "--reaction", "fast"}, `~--reaction "fast": use MIN-MAX`},
		{[]string{"--url", url, "--reaction", "100-200"}, `~--reaction "100-200": use MIN-MAX`},
		{[]string{"--url", url, "--format", "xml"}, `dobble: load: --format "xml": use text or json`},
		{[]string{"--url", url, "--dials", "0"}, "dobble: load: --dials 0: use 1 to 1000"},
		{[]string{"--url", url, "--rooms", "x"}, "~dobble: load: invalid value"},
		{[]string{"--url", url, "extra"}, `dobble: load: unexpected argument "extra" (see dobble load --help)`},
		{[]string{"--url", url, "--procs", "0"}, "dobble: load: --procs 0: use 1 to 64, and no more than --rooms (10)"},
		{[]string{"--url", url, "--rooms", "2", "--procs", "3"}, "dobble: load: --procs 3: use 1 to 64, and no more than --rooms (2)"},
		{[]string{"--url", url, "--spread", "seats"}, `~dobble: load: --spread "seats": use rooms`},
		{[]string{"--url", url, "--url", url}, "~: named twice; give each server once"},
	} {
		checkBadRequest(t, append([]string{"load"}, tc.args...), tc.msg)
	}
}

// TestLoadNoServer: a loopback URL where nothing listens is a failure
// (exit 1) that says so, not a usage error.
func TestLoadNoServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	code, out, errOut := runCLI(t, "", "load", "--url", "ws://"+addr+"/ws", "--rooms", "1")
	if code != 1 || out != "" || !strings.HasPrefix(errOut, "dobble: load: metrics: ") || !strings.Contains(errOut, "is ws://"+addr+"/ws a dobble server?") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestLoadHelp(t *testing.T) {
	code, out, _ := runCLI(t, "", "load", "--help")
	for _, want := range []string{"dobble load --url ws://127.0.0.1:PORT/ws", "-rooms", "-players-per-room", "-game", "-duration", "-reaction", "-resume", "-format", "loopback"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("load --help: exit %d, missing %q:\n%s", code, want, out)
		}
	}
}
