package fabric_test

import (
	"testing"

	"github.com/ccsweep/ccsweep/model/fabric"
)

// A file with no hosts and no skipped lines says only that: the count of
// skipped lines appears when there are some. Kills ibnetdiscover.go's
// `rd.stray > 0` turned into `>= 0`.
func TestMutNoHostsWithoutStrayLines(t *testing.T) {
	_, err := fabric.ParseIBNetDiscover("x.txt", nil)
	if err == nil || err.Error() != "x.txt: no hosts: no port of a Ca is linked" {
		t.Errorf("empty file: %v, want exactly %q", err, "x.txt: no hosts: no port of a Ca is linked")
	}
}
