//go:build !nohttp

package main

import _ "net/http"
