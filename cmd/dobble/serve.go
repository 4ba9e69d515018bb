package main

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/dobble-dev/dobble/deck"
)

const serveSynopsis = `dobble serve [--addr HOST:PORT]

Serves the browser client on HOST:PORT and prints the URL to open.
Stop it with Ctrl-C.`

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("serve", serveSynopsis, stdout)
	addr := fs.String("addr", envOr("DOBBLE_ADDR", "127.0.0.1:8080"), "address to listen on (env DOBBLE_ADDR)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("serve: unexpected argument %q (see dobble serve --help)", fs.Arg(0))
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return usagef("serve: cannot listen on %s: %v; pick another --addr", *addr, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "dobble: serving on http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	return serve(ctx, ln)
}

// serve answers HTTP on ln until ctx is done, then shuts down gracefully.
func serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: newHandler(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func newHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		homePage.Execute(w, deck.Editions())
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	})
	return mux
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

var homePage = template.Must(template.New("home").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>dobble</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 2rem; margin-bottom: 0; }
code { background: #f2f2f2; padding: 0 .25em; border-radius: 3px; }
</style>
</head>
<body>
<h1>dobble</h1>
<p>Any two cards share exactly one symbol. Find it first.</p>
<p>The multiplayer table is not open yet. Today this server knows these decks:</p>
<ul>
{{range .}}<li><strong>{{.Name}}</strong>: {{.Title}}</li>
{{end}}</ul>
<p>From the command line: <code>dobble deck --edition classic</code>,
<code>dobble deck --order 7 --format text</code>, <code>dobble deck verify FILE</code>.</p>
</body>
</html>
`))
