package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

//go:embed static
var staticFiles embed.FS

// Static returns the browser client's files, rooted at web/static.
func Static() fs.FS {
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err)
	}
	return sub
}

// How the client's files are sent.
//
// Every file of web/static is served under two names: its own (/app.js),
// with Cache-Control: no-cache and a strong ETag made from its content, so
// that a browser revalidates it and gets a 304 while it is unchanged; and a
// hashed one (/app.0123456789ab.js, the first hashLen hex digits of the
// SHA-256 of its content), which never changes, cached for a year as
// immutable. index.html, the page served at /, /index.html and every share
// link /r/CODE (no-cache and ETag too), names the hashed files: its
// stylesheet and script by their hashed names, and an import map sends
// every module's import of another ("./dom.js", import(`./lang/${l}.js`))
// to that module's hashed name; it also preloads (modulepreload) the
// modules its script imports statically, so that they are fetched at once
// rather than one level of imports after another. A browser that has been
// here before fetches only the page, as a 304, and what has changed since.
// A browser without import maps imports the files by their own names,
// which are revalidated.
//
// Each file is sent brotli-compressed when the request's Accept-Encoding
// allows it, else gzip-compressed, else as it is, with Vary:
// Accept-Encoding and an ETag for each encoding. A file is compressed in an
// encoding the first time it is asked for in that encoding, once per
// process (files of the same content share it), at the best compression
// of each: brotli's is slow (a tenth of a second for app.js), which is why
// it is not done before a request needs it, so that neither dobble serve's
// start nor a test's server waits for files no browser asks for.

// hashLen is the number of hex digits of a file's SHA-256 in its hashed
// name and its ETag: 48 bits.
const hashLen = 12

// Cache-Control of the files served under their hashed names, and of those
// served under names whose content changes with the binary.
const (
	cacheImmutable = "public, max-age=31536000, immutable"
	cacheRevalid   = "no-cache"
)

// asset is one response body the server keeps: its content, its content
// hash and its encodings.
type asset struct {
	ctype string
	raw   []byte
	hash  string // the first hashLen hex digits of its SHA-256
	enc   *encodings
}

// encodings are the compressed forms of one content, made when first
// asked for; a form no smaller than the content stays nil.
type encodings struct {
	brOnce, gzOnce sync.Once
	br, gz         []byte
}

// encodingsByHash shares the compressed forms of each content among every
// asset of the process with that content ([sha256.Size]byte →
// *encodings), so that each is compressed once however many servers run.
var encodingsByHash sync.Map

// newAsset returns the asset of content raw, its Content-Type from name's
// extension.
func newAsset(name string, raw []byte) *asset {
	sum := sha256.Sum256(raw)
	enc, _ := encodingsByHash.LoadOrStore(sum, &encodings{})
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	return &asset{ctype: ctype, raw: raw, hash: hex.EncodeToString(sum[:])[:hashLen], enc: enc.(*encodings)}
}

// encoded returns the asset's body in content coding c ("br" or "gzip"),
// compressing it the first time, or nil when that form would be no smaller
// than the content.
func (a *asset) encoded(c string) []byte {
	switch c {
	case "br":
		a.enc.brOnce.Do(func() {
			var b bytes.Buffer
			w := brotli.NewWriterLevel(&b, brotli.BestCompression)
			w.Write(a.raw)
			w.Close()
			if b.Len() < len(a.raw) {
				a.enc.br = b.Bytes()
			}
		})
		return a.enc.br
	case "gzip":
		a.enc.gzOnce.Do(func() {
			var b bytes.Buffer
			w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
			w.Write(a.raw)
			w.Close()
			if b.Len() < len(a.raw) {
				a.enc.gz = b.Bytes()
			}
		})
		return a.enc.gz
	}
	return nil
}

// serveAsset answers r with a, in the best encoding r accepts, with
// Cache-Control cache and a strong ETag per encoding; http.ServeContent
// answers If-None-Match (304), HEAD and Range requests.
func serveAsset(w http.ResponseWriter, r *http.Request, a *asset, cache string) {
	body, coding := a.raw, ""
	for _, c := range acceptedCodings(r.Header.Get("Accept-Encoding")) {
		if b := a.encoded(c); b != nil {
			body, coding = b, c
			break
		}
	}
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("Cache-Control", cache)
	h.Set("Vary", "Accept-Encoding")
	if coding != "" {
		h.Set("Content-Encoding", coding)
		h.Set("ETag", `"`+a.hash+"-"+coding+`"`)
	} else {
		h.Set("ETag", `"`+a.hash+`"`)
	}
	// ServeContent leaves out the Content-Length of an encoded body (its
	// caller might compress as it writes), so it is set here; ServeContent
	// puts a range's in its place and drops it from a 304. Only a failed
	// If-Match, answered 412 without a body, must not carry it.
	if r.Header.Get("If-Match") == "" {
		h.Set("Content-Length", strconv.Itoa(len(body)))
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// acceptedCodings returns the content codings the server can send ("br",
// "gzip") that an Accept-Encoding header accepts (RFC 9110 §12.5.3: a
// coding named with q above 0, or covered by "*"), the most preferred
// first and brotli first of equals.
func acceptedCodings(header string) []string {
	q := map[string]float64{}
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		weight := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(p, "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || f < 0 {
					f = 0
				}
				weight = f
			}
		}
		if name == "x-gzip" {
			name = "gzip"
		}
		q[name] = weight
	}
	weight := func(c string) float64 {
		if w, ok := q[c]; ok {
			return w
		}
		return q["*"]
	}
	var out []string
	for _, c := range []string{"br", "gzip"} {
		if weight(c) > 0 {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int {
		wa, wb := weight(a), weight(b)
		switch {
		case wa > wb:
			return -1
		case wa < wb:
			return 1
		}
		return 0
	})
	return out
}

// site is the client's files by the URL paths that serve them.
type site struct {
	routes map[string]route
	// index is index.html as served: naming the hashed files.
	index *asset
}

// route is what one URL path serves: an asset, with the Cache-Control of
// its name.
type route struct {
	a     *asset
	cache string
}

// The client's files are read and hashed once per process.
var (
	clientOnce sync.Once
	clientSite *site
	clientErr  error
)

// clientFiles returns the site of the embedded client.
func clientFiles() (*site, error) {
	clientOnce.Do(func() { clientSite, clientErr = newSite(Static()) })
	return clientSite, clientErr
}

// hashedName returns name with hash before its extension:
// games/guess.js → games/guess.0123456789ab.js.
func hashedName(name, hash string) string {
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + hash + ext
}

// Patterns read from index.html and the modules.
var (
	// staticRef is an attribute of index.html naming a file by its
	// absolute path.
	staticRef = regexp.MustCompile(`\b(src|href)="(/[^"]*)"`)
	// moduleScript is index.html's module script.
	moduleScript = regexp.MustCompile(`<script type="module" src="(/[^"]+)"></script>`)
	// staticImport is a module's static import or re-export of another
	// module by a relative path (not a dynamic import()).
	staticImport = regexp.MustCompile(`(?m)^(?:import|export)\s[^;"'()]*?["'](\.\.?/[^"']+)["']`)
)

// newSite reads the files of fsys, which must hold index.html, and makes
// their routes: each file by its name and its hashed name, index.html at /
// and /index.html, rewritten to name the hashed files.
func newSite(fsys fs.FS) (*site, error) {
	s := &site{routes: map[string]route{}}
	files := map[string][]byte{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		files[p] = b
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("web: reading the client's files: %w", err)
	}
	page, ok := files["index.html"]
	if !ok {
		return nil, fmt.Errorf("web: the client has no index.html")
	}
	hashed := map[string]string{} // "/app.js" → "/app.0123456789ab.js"
	for p, b := range files {
		if p == "index.html" {
			continue
		}
		a := newAsset(p, b)
		name, hname := "/"+p, "/"+hashedName(p, a.hash)
		if _, dup := files[hname[1:]]; dup {
			return nil, fmt.Errorf("web: the client's file %s is named as %s's hashed name", hname[1:], p)
		}
		s.routes[name] = route{a, cacheRevalid}
		s.routes[hname] = route{a, cacheImmutable}
		hashed[name] = hname
	}
	s.index = newAsset("index.html", rewriteIndex(page, files, hashed))
	s.routes["/"] = route{s.index, cacheRevalid}
	s.routes["/index.html"] = route{s.index, cacheRevalid}
	return s, nil
}

// rewriteIndex returns index.html naming the hashed files: its src and
// href attributes, and, before its module script, an import map from every
// module's name to its hashed name and a modulepreload link for each module
// the script imports, directly or not.
func rewriteIndex(page []byte, files map[string][]byte, hashed map[string]string) []byte {
	imports := map[string]string{}
	for name, hname := range hashed {
		if strings.HasSuffix(name, ".js") {
			imports[name] = hname
		}
	}
	importMap, _ := json.Marshal(map[string]any{"imports": imports})
	var head bytes.Buffer
	fmt.Fprintf(&head, "<script type=\"importmap\">%s</script>\n", importMap)
	if m := moduleScript.FindSubmatch(page); m != nil {
		for _, dep := range moduleDeps(string(m[1][1:]), files) {
			fmt.Fprintf(&head, "<link rel=\"modulepreload\" href=\"%s\">\n", hashed["/"+dep])
		}
	}
	out := staticRef.ReplaceAllFunc(page, func(attr []byte) []byte {
		m := staticRef.FindSubmatch(attr)
		if hname, ok := hashed[string(m[2])]; ok {
			return []byte(fmt.Sprintf(`%s="%s"`, m[1], hname))
		}
		return attr
	})
	at := moduleScript.FindIndex(out)
	if at == nil {
		at = []int{bytes.Index(out, []byte("</head>"))}
		if at[0] < 0 {
			at[0] = 0
		}
	}
	return slices.Concat(out[:at[0]], head.Bytes(), out[at[0]:])
}

// moduleDeps returns the modules that module entry (a path in files)
// imports statically, directly or through others, sorted, without entry.
func moduleDeps(entry string, files map[string][]byte) []string {
	seen := map[string]bool{entry: true}
	todo := []string{entry}
	var deps []string
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, m := range staticImport.FindAllSubmatch(files[p], -1) {
			dep := path.Join(path.Dir(p), string(m[1]))
			if _, ok := files[dep]; !ok || seen[dep] {
				continue
			}
			seen[dep] = true
			deps = append(deps, dep)
			todo = append(todo, dep)
		}
	}
	slices.Sort(deps)
	return deps
}

// ServeHTTP serves the client's files (GET and HEAD); any other path is
// 404.
func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rt, ok := s.routes[r.URL.Path]
	if !ok {
		httpError(w, http.StatusNotFound, fmt.Sprintf("%s is not a file of the browser client", r.URL.Path))
		return
	}
	serveAsset(w, r, rt.a, rt.cache)
}
