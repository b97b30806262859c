//go:build !unix

package atomicfile

import (
	"context"
	"os"
)

// openFIFO opens the FIFO at path for writing; ctx is not consulted.
func openFIFO(_ context.Context, path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY, 0)
}
