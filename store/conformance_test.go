package store_test

import (
	"testing"

	"github.com/dobble-dev/dobble/store/storetest"
)

// TestConformance runs the suite of package storetest against a SQLite
// file and against a PostgreSQL database: both kinds behave alike.
func TestConformance(t *testing.T) {
	storetest.ForEach(t, storetest.Run)
}
