//go:build !nows

package main

import _ "github.com/gobwas/ws"
