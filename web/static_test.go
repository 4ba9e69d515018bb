package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
)

// fetched is one answer of the server: its status, headers and body as
// sent (still encoded).
type fetched struct {
	code int
	h    http.Header
	body []byte
}

// fetch sends method path with the headers hdr (name, value, …) and
// returns the answer as it came, without the transport's own gzip
// handling.
func (ts *testServer) fetch(method, path string, hdr ...string) fetched {
	ts.t.Helper()
	req, err := http.NewRequest(method, ts.url+path, nil)
	if err != nil {
		ts.t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := c.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		ts.t.Fatalf("%s %s: %v", method, path, err)
	}
	return fetched{resp.StatusCode, resp.Header, b}
}

// decoded returns f's body decoded from its Content-Encoding.
func (f fetched) decoded(t *testing.T) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(f.body)
	switch f.h.Get("Content-Encoding") {
	case "":
		return f.body
	case "br":
		r = brotli.NewReader(r)
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	default:
		t.Fatalf("unexpected Content-Encoding %q", f.h.Get("Content-Encoding"))
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", f.h.Get("Content-Encoding"), err)
	}
	return b
}

// strongETag matches the ETags the server sends: strong (no W/), the
// content hash and the encoding.
var strongETag = regexp.MustCompile(`^"[0-9a-f]{12}(-br|-gzip)?"$`)

// checkServed checks an answer of 200 with want as its content in
// encoding coding ("" for none), with Cache-Control cache, Vary and a
// strong ETag naming the encoding; it returns the ETag.
func checkServed(t *testing.T, what string, f fetched, want []byte, coding, cache string) string {
	t.Helper()
	if f.code != http.StatusOK {
		t.Fatalf("%s: %d %.200s", what, f.code, f.body)
	}
	if got := f.h.Get("Content-Encoding"); got != coding {
		t.Errorf("%s: Content-Encoding %q, want %q", what, got, coding)
	}
	if got := f.decoded(t); !bytes.Equal(got, want) {
		t.Errorf("%s: %d bytes decoded, not the %d of the file", what, len(got), len(want))
	}
	if coding != "" && len(f.body) >= len(want) {
		t.Errorf("%s: %s body of %d bytes for %d bytes of content", what, coding, len(f.body), len(want))
	}
	if got := f.h.Get("Content-Length"); got != strconv.Itoa(len(f.body)) {
		t.Errorf("%s: Content-Length %q for a body of %d bytes", what, got, len(f.body))
	}
	if got := f.h.Get("Cache-Control"); got != cache {
		t.Errorf("%s: Cache-Control %q, want %q", what, got, cache)
	}
	if got := f.h.Get("Vary"); got != "Accept-Encoding" {
		t.Errorf("%s: Vary %q, want Accept-Encoding", what, got)
	}
	etag := f.h.Get("ETag")
	suffix := map[string]string{"": `"`, "br": `-br"`, "gzip": `-gzip"`}[coding]
	if !strongETag.MatchString(etag) || !strings.HasSuffix(etag, suffix) {
		t.Errorf("%s: ETag %q, want a strong one ending %s", what, etag, suffix)
	}
	return etag
}

// hashedPath is the hashed name the server gives a file of the client.
func hashedPath(name string, content []byte) string {
	sum := sha256.Sum256(content)
	return "/" + hashedName(name, hex.EncodeToString(sum[:])[:hashLen])
}

// TestStaticFiles checks how the client's files are served: every file,
// under its own name (no-cache) and its hashed name (immutable), in
// brotli, gzip and as it is, each with its strong ETag, Vary and
// Content-Length, decoding to the file; If-None-Match answered 304 without
// a body; HEAD with the headers alone; a range of bytes; and 404 for what
// is not a file (a wrong hash, a folder, a path outside the client).
func TestStaticFiles(t *testing.T) {
	ts := start(t, fastConfig())
	n := 0
	err := fs.WalkDir(Static(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || name == "index.html" {
			return err
		}
		n++
		want, err := fs.ReadFile(Static(), name)
		if err != nil {
			return err
		}
		for _, p := range []struct{ path, cache string }{{"/" + name, "no-cache"}, {hashedPath(name, want), "public, max-age=31536000, immutable"}} {
			gz := ts.fetch("GET", p.path, "Accept-Encoding", "gzip")
			etag := checkServed(t, p.path+" in gzip", gz, want, "gzip", p.cache)
			checkServed(t, p.path+" as it is", ts.fetch("GET", p.path), want, "", p.cache)
			nm := ts.fetch("GET", p.path, "Accept-Encoding", "gzip", "If-None-Match", etag)
			if nm.code != http.StatusNotModified || len(nm.body) != 0 || nm.h.Get("ETag") != etag || nm.h.Get("Cache-Control") != p.cache {
				t.Errorf("%s with If-None-Match %s: %d, ETag %q, Cache-Control %q, %d bytes; want 304, the same ETag and Cache-Control, no body",
					p.path, etag, nm.code, nm.h.Get("ETag"), nm.h.Get("Cache-Control"), len(nm.body))
			}
			// The tag of another encoding is another representation's.
			if other := ts.fetch("GET", p.path, "If-None-Match", etag); other.code != http.StatusOK {
				t.Errorf("%s as it is with If-None-Match %s (gzip's): %d, want 200", p.path, etag, other.code)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 15 {
		t.Fatalf("only %d files found in the client", n)
	}

	// Brotli, HEAD and a range, on the largest file.
	app, _ := fs.ReadFile(Static(), "app.js")
	br := ts.fetch("GET", "/app.js", "Accept-Encoding", "gzip, deflate, br, zstd")
	checkServed(t, "/app.js in brotli", br, app, "br", "no-cache")
	gz := ts.fetch("GET", "/app.js", "Accept-Encoding", "gzip")
	if len(br.body) >= len(gz.body) {
		t.Errorf("/app.js: brotli %d bytes, gzip %d", len(br.body), len(gz.body))
	}
	t.Logf("app.js: %d bytes, gzip %d, brotli %d", len(app), len(gz.body), len(br.body))
	head := ts.fetch("HEAD", "/app.js", "Accept-Encoding", "br")
	if head.code != 200 || len(head.body) != 0 || head.h.Get("Content-Length") != strconv.Itoa(len(br.body)) ||
		head.h.Get("Content-Encoding") != "br" || head.h.Get("ETag") != br.h.Get("ETag") {
		t.Errorf("HEAD /app.js: %d, %d bytes of body, headers %v; want GET's headers and no body", head.code, len(head.body), head.h)
	}
	part := ts.fetch("GET", "/app.js", "Range", "bytes=100-199")
	if part.code != http.StatusPartialContent || !bytes.Equal(part.body, app[100:200]) ||
		part.h.Get("Content-Range") != "bytes 100-199/"+strconv.Itoa(len(app)) || part.h.Get("Content-Length") != "100" {
		t.Errorf("/app.js bytes 100-199: %d, Content-Range %q, Content-Length %q, %q", part.code, part.h.Get("Content-Range"), part.h.Get("Content-Length"), part.body)
	}
	// A range of the brotli body is a range of that representation.
	bpart := ts.fetch("GET", "/app.js", "Accept-Encoding", "br", "Range", "bytes=0-9")
	if bpart.code != http.StatusPartialContent || !bytes.Equal(bpart.body, br.body[:10]) || bpart.h.Get("Content-Encoding") != "br" {
		t.Errorf("/app.js in brotli, bytes 0-9: %d, %s, %q", bpart.code, bpart.h.Get("Content-Encoding"), bpart.body)
	}
	if bad := ts.fetch("GET", "/app.js", "Range", "bytes=999999-"); bad.code != http.StatusRequestedRangeNotSatisfiable {
		t.Errorf("/app.js bytes 999999-: %d, want 416", bad.code)
	}
	if pre := ts.fetch("GET", "/app.js", "Accept-Encoding", "gzip", "If-Match", `"000000000000-gzip"`); pre.code != http.StatusPreconditionFailed {
		t.Errorf("/app.js with a stale If-Match: %d, want 412", pre.code)
	}

	for _, path := range []string{
		"/nope.js",
		hashedName("/app.js", "000000000000"),
		strings.Replace(hashedPath("app.js", app), "/app.", "/dom.", 1), // another file's hash
		"/games/", "/games", "/lang/", "/static/app.js", "/app.js/",
	} {
		f := ts.fetch("GET", path)
		var e struct{ Error string }
		if f.code != http.StatusNotFound || json.Unmarshal(f.body, &e) != nil || !strings.Contains(e.Error, "not a file") {
			t.Errorf("GET %s: %d %.200s, want 404 with an error", path, f.code, f.body)
		}
	}
}

// TestAcceptEncoding checks which encoding each Accept-Encoding gets.
func TestAcceptEncoding(t *testing.T) {
	ts := start(t, fastConfig())
	for ae, want := range map[string]string{
		"":                           "",
		"identity":                   "",
		"gzip":                       "gzip",
		"x-gzip":                     "gzip",
		"GZIP":                       "gzip",
		"br":                         "br",
		"gzip, deflate, br, zstd":    "br",
		"gzip;q=1.0, br;q=0.5":       "gzip",
		"br;q=0.5, gzip;q=0.5":       "br",
		"br;q=0, gzip":               "gzip",
		"br;q=0, gzip;q=0":           "",
		"*":                          "br",
		"*;q=0.1, gzip":              "gzip",
		"*, br;q=0":                  "gzip",
		"deflate, zstd":              "",
		"gzip;q=nonsense, br;q=-1":   "",
		" br ; q = 0.9 , gzip;q=0.8": "br",
	} {
		f := ts.fetch("GET", "/style.css", "Accept-Encoding", ae)
		if got := f.h.Get("Content-Encoding"); f.code != 200 || got != want {
			t.Errorf("Accept-Encoding %q: %d, Content-Encoding %q, want %q", ae, f.code, got, want)
		}
	}
}

// TestIndexPage checks the page at /, /index.html and every share link:
// index.html, revalidated (no-cache, ETag, 304), naming every file by its
// hashed name: the stylesheet and the script, an import map with every
// module, and a modulepreload link for each module the script imports, so
// that a browser that has them fetches none again; each name it gives
// serves its file, cacheable for a year.
func TestIndexPage(t *testing.T) {
	ts := start(t, fastConfig())
	page := ts.fetch("GET", "/", "Accept-Encoding", "br")
	body := page.decoded(t)
	etag := checkServed(t, "/", page, body, "br", "no-cache")
	if ct := page.h.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("/: Content-Type %q", ct)
	}
	for _, path := range []string{"/index.html", "/r/ABCDE", "/r/abcde"} {
		f := ts.fetch("GET", path, "Accept-Encoding", "br")
		if checkServed(t, path, f, body, "br", "no-cache") != etag {
			t.Errorf("%s: ETag %q, / has %q", path, f.h.Get("ETag"), etag)
		}
		if nm := ts.fetch("GET", path, "Accept-Encoding", "br", "If-None-Match", etag); nm.code != http.StatusNotModified || len(nm.body) != 0 {
			t.Errorf("%s with If-None-Match: %d, %d bytes; want 304", path, nm.code, len(nm.body))
		}
	}
	if f := ts.fetch("HEAD", "/r/ABCDE"); f.code != 200 || len(f.body) != 0 || f.h.Get("Content-Length") != strconv.Itoa(len(body)) {
		t.Errorf("HEAD /r/ABCDE: %d, %d bytes, Content-Length %q", f.code, len(f.body), f.h.Get("Content-Length"))
	}

	// Every file the page names by its path is named by its hash.
	hashedFile := func(what, path string) {
		t.Helper()
		m := regexp.MustCompile(`^/(.*)\.([0-9a-f]{12})(\.\w+)$`).FindStringSubmatch(path)
		if m == nil {
			t.Errorf("%s names %s, not a hashed name", what, path)
			return
		}
		want, err := fs.ReadFile(Static(), m[1]+m[3])
		if err != nil || hashedPath(m[1]+m[3], want) != path {
			t.Errorf("%s names %s, which is not the hashed name of a file of the client (%v)", what, path, err)
			return
		}
		checkServed(t, path, ts.fetch("GET", path, "Accept-Encoding", "gzip"), want, "gzip", "public, max-age=31536000, immutable")
	}
	refs := regexp.MustCompile(`\b(?:src|href)="(/[^"]*)"`).FindAllStringSubmatch(string(body), -1)
	if len(refs) < 3 {
		t.Fatalf("the page names %d files: %s", len(refs), body)
	}
	for _, m := range refs {
		hashedFile("the page", m[1])
	}
	mp := regexp.MustCompile(`<script type="importmap">(.*?)</script>`).FindSubmatch(body)
	var importMap struct{ Imports map[string]string }
	if mp == nil || json.Unmarshal(mp[1], &importMap) != nil {
		t.Fatalf("the page has no import map: %s", body)
	}
	modules, _ := fs.Glob(Static(), "*.js")
	more, _ := fs.Glob(Static(), "*/*.js")
	modules = append(modules, more...)
	if len(importMap.Imports) != len(modules) {
		t.Errorf("the import map has %d modules, the client %d", len(importMap.Imports), len(modules))
	}
	for _, name := range modules {
		to, ok := importMap.Imports["/"+name]
		if !ok {
			t.Errorf("the import map lacks %s", name)
			continue
		}
		hashedFile("the import map", to)
	}
	// The import map precedes every module the page loads, and the
	// modules app.js imports are preloaded, not the ones it loads when
	// needed (a language, a game).
	at := bytes.Index(body, []byte(`<script type="importmap">`))
	if i := bytes.Index(body, []byte(`<link rel="modulepreload"`)); i < at {
		t.Errorf("a module is preloaded before the import map")
	}
	if i := bytes.Index(body, []byte(`<script type="module"`)); i < at {
		t.Errorf("a module script precedes the import map")
	}
	var preloaded []string
	for _, m := range regexp.MustCompile(`<link rel="modulepreload" href="/(.*?)\.[0-9a-f]{12}\.js">`).FindAllSubmatch(body, -1) {
		preloaded = append(preloaded, string(m[1])+".js")
	}
	if want := []string{"cards.js", "dom.js", "extra.js", "fit.js", "games.js", "i18n.js", "net.js", "sound.js", "table.js"}; !slices.Equal(preloaded, want) {
		t.Errorf("the page preloads %v, want %v", preloaded, want)
	}
}

// TestNewSite checks how index.html is rewritten, on a small client: the
// attributes that name a file name its hashed name, others are left; the
// import map has every module; the modules the script imports, directly
// or through others, by import or export … from, are preloaded, not those
// it imports dynamically or not at all; and a client without index.html
// is refused.
func TestNewSite(t *testing.T) {
	fsys := fstest.MapFS{
		"index.html": {Data: []byte(`<html><head><link rel="stylesheet" href="/s.css"><link rel="icon" href="/none.png">` +
			`<script type="module" src="/main.js"></script></head><body><a href="https://example.org/s.css">x</a></body></html>`)},
		"s.css":       {Data: []byte("body{}")},
		"main.js":     {Data: []byte("import { a } from \"./a.js\";\nimport \"./side.js\";\nconst l = await import(`./lang/${x}.js`);\n")},
		"a.js":        {Data: []byte("import {\n  b,\n} from './sub/b.js';\nexport { c } from \"./c.js\";\nexport const a = 1;\n")},
		"sub/b.js":    {Data: []byte("import { a } from \"../a.js\";\nexport const b = 2;\n")},
		"c.js":        {Data: []byte("export const c = 3;\n")},
		"side.js":     {Data: []byte("document.title = \"x\";\n")},
		"lang/en.js":  {Data: []byte("export default {};\n")},
		"unused.js":   {Data: []byte("export const u = 4;\n")},
		"img/pic.svg": {Data: []byte("<svg/>")},
	}
	s, err := newSite(fsys)
	if err != nil {
		t.Fatal(err)
	}
	hashed := func(name string) string { return hashedPath(name, fsys[name].Data) }
	page := string(s.index.raw)
	for _, want := range []string{
		`<link rel="stylesheet" href="` + hashed("s.css") + `">`,
		`<link rel="icon" href="/none.png">`,
		`<script type="module" src="` + hashed("main.js") + `"></script>`,
		`<a href="https://example.org/s.css">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s:\n%s", want, page)
		}
	}
	var preloaded []string
	for _, m := range regexp.MustCompile(`<link rel="modulepreload" href="([^"]*)">`).FindAllStringSubmatch(page, -1) {
		preloaded = append(preloaded, m[1])
	}
	if want := []string{hashed("a.js"), hashed("c.js"), hashed("side.js"), hashed("sub/b.js")}; !slices.Equal(preloaded, want) {
		t.Errorf("the page preloads %v, want %v", preloaded, want)
	}
	mp := regexp.MustCompile(`<script type="importmap">(.*?)</script>\n`).FindStringSubmatch(page)
	var importMap struct{ Imports map[string]string }
	if mp == nil || json.Unmarshal([]byte(mp[1]), &importMap) != nil {
		t.Fatalf("no import map in %s", page)
	}
	for _, name := range []string{"main.js", "a.js", "sub/b.js", "c.js", "side.js", "lang/en.js", "unused.js"} {
		if importMap.Imports["/"+name] != hashed(name) {
			t.Errorf("the import map sends /%s to %q, want %s", name, importMap.Imports["/"+name], hashed(name))
		}
	}
	if len(importMap.Imports) != 7 {
		t.Errorf("the import map has %d modules, want 7: %v", len(importMap.Imports), importMap.Imports)
	}
	for path, cache := range map[string]string{
		"/": cacheRevalid, "/index.html": cacheRevalid, "/img/pic.svg": cacheRevalid, hashed("img/pic.svg"): cacheImmutable,
		"/sub/b.js": cacheRevalid, hashed("sub/b.js"): cacheImmutable,
	} {
		if rt, ok := s.routes[path]; !ok || rt.cache != cache {
			t.Errorf("%s: route %v %v, want Cache-Control %q", path, rt, ok, cache)
		}
	}
	if len(s.routes) != 2*(len(fsys)-1)+2 {
		t.Errorf("%d routes for %d files", len(s.routes), len(fsys))
	}
	if ct := s.routes["/img/pic.svg"].a.ctype; ct != "image/svg+xml" {
		t.Errorf("an SVG file is served as %q", ct)
	}

	delete(fsys, "index.html")
	if _, err := newSite(fsys); err == nil || !strings.Contains(err.Error(), "index.html") {
		t.Errorf("a client without index.html: %v", err)
	}
}

// TestGamesAnswer checks that GET /api/games is compressed and revalidated
// like the client's files: the same JSON in every encoding, one ETag per
// encoding, 304 to If-None-Match.
func TestGamesAnswer(t *testing.T) {
	ts := start(t, fastConfig())
	plain := ts.fetch("GET", "/api/games")
	var v map[string]any
	if err := json.Unmarshal(plain.body, &v); err != nil || v["games"] == nil {
		t.Fatalf("/api/games: %d %v %.200s", plain.code, err, plain.body)
	}
	checkServed(t, "/api/games", plain, plain.body, "", "no-cache")
	if ct := plain.h.Get("Content-Type"); ct != "application/json" {
		t.Errorf("/api/games: Content-Type %q", ct)
	}
	for _, coding := range []string{"gzip", "br"} {
		f := ts.fetch("GET", "/api/games", "Accept-Encoding", coding)
		etag := checkServed(t, "/api/games in "+coding, f, plain.body, coding, "no-cache")
		t.Logf("/api/games: %d bytes, %s %d", len(plain.body), coding, len(f.body))
		if nm := ts.fetch("GET", "/api/games", "Accept-Encoding", coding, "If-None-Match", etag); nm.code != http.StatusNotModified || len(nm.body) != 0 {
			t.Errorf("/api/games in %s with If-None-Match: %d, %d bytes; want 304", coding, nm.code, len(nm.body))
		}
	}
}

// TestAssetsShareEncodings checks that two assets of the same content
// share their compressed forms, made once.
func TestAssetsShareEncodings(t *testing.T) {
	content := bytes.Repeat([]byte("dobble "), 100)
	a, b := newAsset("a.txt", content), newAsset("b.js", slices.Clone(content))
	if a.enc != b.enc || a.hash != b.hash || a.ctype == b.ctype {
		t.Fatalf("two assets of the same content: %+v %+v", a, b)
	}
	if ga, gb := a.encoded("gzip"), b.encoded("gzip"); len(ga) == 0 || &ga[0] != &gb[0] {
		t.Errorf("the gzip form was made twice")
	}
	if tiny := newAsset("t.js", []byte("x")); tiny.encoded("br") != nil || tiny.encoded("gzip") != nil {
		t.Errorf("a one-byte file has compressed forms, which are larger")
	}
}
