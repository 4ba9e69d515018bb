//go:build !nosqlite

package main

import _ "modernc.org/sqlite"
