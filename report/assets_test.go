package report

import (
	"crypto/sha512"
	"encoding/base64"
	"strings"
	"testing"
)

// TestEmbeddedAssetsArePinnedRelease checks that the scripts ccsweep ships
// are the pinned releases byte for byte: each has the subresource-integrity
// hash (sha384) of the file cdn.jsdelivr.net serves for that release, which
// is the npm tarball's dist file (assets/README.md gives the tarballs'
// registry hashes).
func TestEmbeddedAssetsArePinnedRelease(t *testing.T) {
	a := EmbeddedAssets()
	if len(a.code) != len(scripts) {
		t.Fatalf("%d shipped scripts, want %d", len(a.code), len(scripts))
	}
	for i, s := range scripts {
		sum := sha512.Sum384([]byte(a.code[i]))
		got := "sha384-" + base64.StdEncoding.EncodeToString(sum[:])
		if got != s.integrity {
			t.Errorf("%s: shipped copy hashes to %s, the pinned release to %s", s.shipped, got, s.integrity)
		}
		if !strings.Contains(a.code[i], s.marker) {
			t.Errorf("%s lacks %q: not the pinned release", s.shipped, s.marker)
		}
	}
}
