package e2e

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The page-weight targets (issue 17): the bytes a visit to the home page
// takes on the wire, responses' headers included, the first time and
// when the browser has been there before.
const (
	firstVisitMax  = 90_000
	secondVisitMax = 10_000
)

// wire records a tab's requests to the server and what each took on the
// wire, from the DevTools protocol's Network events.
type wire struct {
	base string
	mu   sync.Mutex
	reqs map[network.RequestID]*wireReq
	ids  []network.RequestID // in the order they were sent
	// raw is each response's status as it came over the wire (a
	// revalidated file's 304, which responseReceived tells as the cached
	// 200), from responseReceivedExtraInfo, which may come first.
	raw map[network.RequestID]int64
}

// wireReq is one request as the Network events tell it.
type wireReq struct {
	path   string // the URL's path and query, without the server's address
	status int64  // as it came over the wire: 304 for a revalidated file
	coding string // the response's Content-Encoding
	cached bool   // served from the browser's memory or disk cache
	bytes  int64  // encodedDataLength: on the wire, headers included
	done   bool   // finished or failed
	failed string
}

// listen is the tab's listener (chromedp.Listen): it runs on the tab's
// reading goroutine and only records.
func (w *wire) listen(ev any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		if !strings.HasPrefix(e.Request.URL, w.base+"/") {
			return
		}
		if _, ok := w.reqs[e.RequestID]; ok { // a redirect goes on under the same id
			return
		}
		w.reqs[e.RequestID] = &wireReq{path: strings.TrimPrefix(e.Request.URL, w.base)}
		w.ids = append(w.ids, e.RequestID)
	case *network.EventResponseReceivedExtraInfo:
		w.raw[e.RequestID] = e.StatusCode
	case *network.EventRequestServedFromCache:
		if r := w.reqs[e.RequestID]; r != nil {
			r.cached = true
		}
	case *network.EventResponseReceived:
		if r := w.reqs[e.RequestID]; r != nil {
			r.status = e.Response.Status
			r.cached = r.cached || e.Response.FromDiskCache || e.Response.FromPrefetchCache
			for k, v := range e.Response.Headers {
				if strings.EqualFold(k, "Content-Encoding") {
					r.coding = fmt.Sprint(v)
				}
			}
		}
	case *network.EventLoadingFinished:
		if r := w.reqs[e.RequestID]; r != nil {
			r.bytes, r.done = int64(e.EncodedDataLength), true
		}
	case *network.EventLoadingFailed:
		if r := w.reqs[e.RequestID]; r != nil {
			r.done, r.failed = true, e.ErrorText
		}
	}
}

// reset forgets the requests recorded so far.
func (w *wire) reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reqs, w.ids, w.raw = map[network.RequestID]*wireReq{}, nil, map[network.RequestID]int64{}
}

// requests returns the requests recorded so far, in the order they were
// sent, and whether every one has finished.
func (w *wire) requests() ([]wireReq, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	out, settled := make([]wireReq, 0, len(w.ids)), true
	for _, id := range w.ids {
		r := *w.reqs[id]
		if raw, ok := w.raw[id]; ok {
			r.status = raw
		}
		out = append(out, r)
		settled = settled && r.done
	}
	return out, settled
}

// visitWeight is what one visit took.
type visitWeight struct {
	reqs    []wireReq
	bytes   int64 // on the wire, all requests
	network int   // requests that went to the server
}

// visit loads the home page in b and waits until it is drawn (the room
// form, which needs GET /api/games, and the public rooms, GET /api/rooms)
// and every request it made has finished; it returns what they took.
func visit(b *browser, w *wire, base string) visitWeight {
	b.t.Helper()
	b.run(chromedp.Navigate("about:blank"))
	w.reset()
	b.run(chromedp.Navigate(base + "/"))
	b.waitFor(`document.querySelector('#create') && document.querySelector('#rooms li')`, 30*time.Second)
	deadline := time.Now().Add(30 * time.Second)
	for {
		reqs, settled := w.requests()
		if settled {
			v := visitWeight{reqs: reqs}
			for _, r := range reqs {
				v.bytes += r.bytes
				if !r.cached {
					v.network++
				}
			}
			return v
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("%s: the page's requests did not finish within 30 s: %+v", b.name, reqs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestBrowserPageWeight loads the home page twice in a fresh Chromium for
// each language of the interface and measures the bytes on the wire
// (DevTools' encodedDataLength, headers included): the first visit must
// take at most 90 KB, the second, with the browser's cache, at most 10 KB,
// fetching nothing from the server but the page (a 304) and the API. Each
// /api/ URL is fetched at most once per page load, every file arrives
// compressed, and nothing the page asks for is missing. With
// DOBBLE_PAGE_WEIGHT=FILE the figures are written to FILE, as
// scripts/bench-page reads them.
func TestBrowserPageWeight(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs a real Chromium; go test -short leaves it out")
	}
	base := browserServer(t, 0)
	shots := screenshotDir(t)
	var report strings.Builder
	for _, l := range []string{"en", "pl", "da", "ru", "zh", "it"} {
		t.Run(l, func(t *testing.T) {
			b := newBrowser(t, "weight-"+l, shots, 1280, 800)
			w := &wire{base: base}
			w.reset()
			if err := chromedp.Listen(b.ctx, w.listen); err != nil {
				t.Fatal(err)
			}
			// The language is chosen as a person's earlier choice is
			// remembered, before the page's scripts run.
			choose := fmt.Sprintf(`try { if (location.origin === %q) localStorage.setItem("dobble.lang", %q); } catch (e) {}`, base, l)
			if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: choose}); err != nil {
				t.Fatal(err)
			}
			first := visit(b, w, base)
			var shown string
			b.eval(`document.documentElement.lang`, &shown)
			if shown != l {
				t.Fatalf("the page is in %q, want %q", shown, l)
			}
			b.shot("home")
			second := visit(b, w, base)

			for i, v := range []visitWeight{first, second} {
				name := []string{"first", "second"}[i]
				t.Logf("%s visit: %d bytes on the wire, %d requests, %d of them to the server", name, v.bytes, len(v.reqs), v.network)
				fetched := map[string]int{}
				for _, r := range v.reqs {
					t.Logf("  %-44s %3d %-4s %6d bytes%s", r.path, r.status, r.coding, r.bytes, map[bool]string{true: " (cache)"}[r.cached])
					fetched[r.path]++
					if r.failed != "" || r.status != 200 && r.status != 304 {
						t.Errorf("%s visit: %s: %d %s", name, r.path, r.status, r.failed)
					}
					if u, _ := url.Parse(r.path); strings.HasPrefix(u.Path, "/api/") && fetched[r.path] == 2 {
						t.Errorf("%s visit: %s fetched more than once", name, r.path)
					}
				}
				for _, api := range []string{"/api/games", "/api/rooms"} {
					if fetched[api] != 1 {
						t.Errorf("%s visit: %s fetched %d times, want once", name, api, fetched[api])
					}
				}
				var dicts []string
				for _, r := range v.reqs {
					if strings.HasPrefix(r.path, "/lang/") {
						dicts = append(dicts, r.path)
					}
				}
				if len(dicts) != 1 || !strings.HasPrefix(dicts[0], "/lang/"+l+".") {
					t.Errorf("%s visit: the dictionaries loaded are %v, want %s's alone", name, dicts, l)
				}
			}
			if first.bytes > firstVisitMax {
				t.Errorf("the first visit took %d bytes on the wire, more than %d", first.bytes, firstVisitMax)
			}
			if second.bytes > secondVisitMax {
				t.Errorf("the second visit took %d bytes on the wire, more than %d", second.bytes, secondVisitMax)
			}
			for _, r := range first.reqs {
				if r.path != "/api/rooms" && r.coding != "br" && r.coding != "gzip" {
					t.Errorf("first visit: %s came as it is (Content-Encoding %q)", r.path, r.coding)
				}
			}
			// With the files cached, the server sends only the page (a
			// 304: it names the same files) and the API's answers.
			for _, r := range second.reqs {
				switch {
				case r.path == "/" || r.path == "/api/games":
					if r.status != 304 {
						t.Errorf("second visit: %s: %d, want 304", r.path, r.status)
					}
				case r.path == "/api/rooms":
				case !r.cached:
					t.Errorf("second visit: %s came from the server, not the cache", r.path)
				}
			}
			fmt.Fprintf(&report, "visit\t%s\tfirst\t%d\t%d\t%d\n", l, first.bytes, len(first.reqs), first.network)
			fmt.Fprintf(&report, "visit\t%s\tsecond\t%d\t%d\t%d\n", l, second.bytes, len(second.reqs), second.network)
			if l == "en" {
				for _, r := range first.reqs {
					fmt.Fprintf(&report, "file\t%s\t%d\t%s\t%d\n", r.path, r.status, r.coding, r.bytes)
				}
			}
		})
	}
	if out := os.Getenv("DOBBLE_PAGE_WEIGHT"); out != "" {
		if err := os.WriteFile(out, []byte(report.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
