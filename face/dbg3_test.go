package face

import (
	"fmt"
	"os"
	"testing"
)

func TestDbgWriteSVGs(t *testing.T) {
	names, decks := inkDecks(t)
	for i, fd := range decks {
		for _, c := range []int{0, 1} {
			f, _ := os.Create(fmt.Sprintf("/tmp/cards17/%s-%d.svg", names[i], c))
			fd.WriteSVG(f, c)
			f.Close()
		}
	}
}
