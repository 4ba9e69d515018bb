package web

import (
	"embed"
	"io/fs"
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
