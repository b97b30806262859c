package sweep

import (
	"strings"
	"testing"
)

func TestRecoveredPanicKeepsItsStack(t *testing.T) {
	_, err := catchPanic(func() (int, error) { return panicking() })
	if err == nil {
		t.Fatal("the panic was not turned into an error")
	}
	for _, want := range []string{"simulation panicked: boom", "sweep.panicking", "panic_test.go"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not hold %q", err, want)
		}
	}
}

func panicking() (int, error) { panic("boom") }
