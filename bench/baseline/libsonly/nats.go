//go:build !nonats

package main

import (
	_ "github.com/nats-io/nats.go"
	_ "github.com/nats-io/nats.go/jetstream"
)
