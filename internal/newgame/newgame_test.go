// Package newgame_test checks that a new mini-game is one file in rules/
// with its texts beside it: it copies the repository, adds a renamed copy
// of the Tower as rules/zz_twin.go and the Tower's texts as
// rules/twin.text.json, and nothing else, and plays it through every part
// of the system that learns about games from the registry.
package newgame_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// twinName is the throwaway game's name.
const twinName = "twin"

// twinSection returns docs/RECORD.md with a section for the twin after
// the Tower's: a copy of the Tower's under the twin's name.
func twinSection(t *testing.T, doc []byte) []byte {
	t.Helper()
	s := string(doc)
	start := strings.Index(s, "### `tower` ")
	if start < 0 {
		t.Fatal("docs/RECORD.md has no section for the Tower")
	}
	end := strings.Index(s[start+1:], "\n### ")
	if end < 0 {
		t.Fatal("docs/RECORD.md has no section after the Tower's")
	}
	end += start + 2
	section := strings.Replace(s[start:end], "### `tower` (The Tower)", "### `"+twinName+"` (The Twin)", 1)
	return []byte(s[:end] + section + s[end:])
}

// TestAddingAGame adds the twin of the Tower to a copy of the repository
// (docs/ADDING-A-GAME.md walks through the same steps) and runs there the
// tests that play every registered game, `dobble sim --game twin`, the
// server's /api/games, `dobble load --game twin`, which must play it with
// no error, and a browser game of it on the table every game of claims
// shares (web/e2e's TestBrowserGenericTable).
func TestAddingAGame(t *testing.T) {
	if testing.Short() {
		t.Skip("copies the repository and runs its registry-driven tests again; go test -short leaves it out")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyTree(t, root, dir)
	tower, err := os.ReadFile(filepath.Join(root, "rules", "tower.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rules", "zz_twin.go"), twin(tower), 0o644); err != nil {
		t.Fatal(err)
	}
	// Its texts, in the six languages, beside it: the Tower's.
	texts, err := os.ReadFile(filepath.Join(root, "rules", "tower.text.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rules", twinName+".text.json"), texts, 0o644); err != nil {
		t.Fatal(err)
	}
	// Its section of docs/RECORD.md, which the record's tests check
	// against its setup: the Tower's, renamed.
	doc := filepath.Join(dir, "docs", "RECORD.md")
	record, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(doc, twinSection(t, record), 0o644); err != nil {
		t.Fatal(err)
	}

	run(t, dir, "go", "vet", "./rules")
	run(t, dir, "go", "test", "-short", "-count=1", "./rules", "./session", "./sim", "./load", "./web", "./room",
		"./bot", "./record", "./internal/clientplay")

	bin := filepath.Join(dir, "dobble")
	run(t, dir, "go", "build", "-o", bin, "./cmd/dobble")
	out := run(t, dir, bin, "sim", "--game", twinName, "--players", "3", "--games", "5", "--bots", "instant")
	if lines := strings.Count(out, `"game":"`+twinName+`"`); lines != 5 {
		t.Fatalf("dobble sim --game %s printed %d games:\n%s", twinName, lines, out)
	}

	base := startServer(t, dir, bin)
	resp, err := http.Get(base + "/api/games")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var games struct {
		Games []struct {
			Name  string `json:"name"`
			Claim any    `json:"claim"`
		} `json:"games"`
	}
	if err := json.Unmarshal(body, &games); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, g := range games.Games {
		found = found || g.Name == twinName && g.Claim != nil
	}
	if !found {
		t.Fatalf("/api/games does not offer %s with its claim shape: %s", twinName, body)
	}

	out = run(t, dir, bin, "load", "--url", strings.Replace(base, "http://", "ws://", 1)+"/ws", "--game", twinName,
		"--rooms", "2", "--players-per-room", "3", "--duration", "3s", "--reaction", "5ms-20ms", "--format", "json")
	var rep struct {
		Errors int `json:"errors"`
		Claims int `json:"claims"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &rep); err != nil {
		t.Fatalf("dobble load printed %s: %v", out, err)
	}
	if rep.Errors != 0 || rep.Claims == 0 {
		t.Fatalf("dobble load --game %s: %d claims, %d errors:\n%s", twinName, rep.Claims, rep.Errors, out)
	}

	// A browser game on the table every game of claims shares.
	browser := exec.Command("go", "test", "-count=1", "-run", "^TestBrowserGenericTable$", "./web/e2e")
	browser.Dir = dir
	browser.Env = append(os.Environ(), "DOBBLE_E2E_GAME="+twinName)
	if out, err := browser.CombinedOutput(); err != nil {
		t.Fatalf("the browser game of %s: %v\n%s", twinName, err, out)
	}
}

// twin returns the source of the Tower renamed as the twin: its type,
// constants and functions, its name, title and aliases.
func twin(tower []byte) []byte {
	src := string(tower)
	src = regexp.MustCompile(`(?m)^\s*Aliases:.*\n`).ReplaceAllString(src, "")
	src = strings.ReplaceAll(src, `"tower"`, `"`+twinName+`"`)
	src = strings.ReplaceAll(src, `"The Tower"`, `"The Twin Tower"`)
	src = regexp.MustCompile(`\btower(\w*)`).ReplaceAllString(src, "twin$1")
	return []byte(src)
}

// copyTree copies the repository's files at root to dir, leaving out
// version control, build results and test artefacts.
func copyTree(t *testing.T, root, dir string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if name := d.Name(); rel != "." && (strings.HasPrefix(name, ".") || name == "artifacts" || name == "testdata" && strings.Contains(rel, "fuzz")) {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		if !d.Type().IsRegular() || strings.HasSuffix(rel, ".db") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// run runs a command in dir and returns its standard output, failing the
// test with everything it printed when it fails.
func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

// startServer starts `dobble serve` on a free loopback port and returns
// its base URL once it says it is serving; the test stops it.
func startServer(t *testing.T, dir, bin string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--countdown", "100ms", "--rate", "1000", "--db", filepath.Join(dir, "twin.db"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
	})
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "dobble: serving on "); ok {
				urls <- strings.TrimSuffix(strings.Fields(rest)[0], "/")
			}
		}
	}()
	select {
	case u := <-urls:
		return u
	case <-time.After(60 * time.Second):
		t.Fatal("dobble serve did not say it was serving within a minute")
	}
	return ""
}
