package protocol

import (
	"bytes"
	"flag"
	"os"
	"reflect"
	"testing"

	"github.com/dobble-dev/dobble/protocol/internal/jsongen"
	"github.com/dobble-dev/dobble/rules"
)

var update = flag.Bool("update", false, "write encode_gen.go again (go generate)")

// generated returns the source of encode_gen.go as the types now are.
func generated() ([]byte, error) {
	return jsongen.Generate(jsongen.Config{
		Package: "github.com/dobble-dev/dobble/protocol",
		Roots: []jsongen.Root{
			{Type: reflect.TypeFor[Update](), Name: Update{}.Type(), Func: "appendUpdate"},
			{Type: reflect.TypeFor[Refused](), Name: Refused{}.Type(), Func: "appendRefused"},
		},
		Custom:     map[reflect.Type]string{reflect.TypeFor[rules.Targets](): "appendTargets"},
		Constraint: "!jsongen",
		Command:    "go generate ./protocol",
	})
}

// TestGeneratedEncoders checks that encode_gen.go is what the generator
// writes from the types as they are now: a field added to a message, a
// view, an event or a result, and not yet generated, fails here. With
// -update (go generate) it writes the file.
func TestGeneratedEncoders(t *testing.T) {
	src, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("encode_gen.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile("encode_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(old, src) {
		t.Fatal("encode_gen.go is not what the types generate now: run go generate ./protocol")
	}
}
