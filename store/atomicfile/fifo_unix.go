//go:build unix

package atomicfile

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// fifoPoll is how often openFIFO looks for a reader.
const fifoPoll = 20 * time.Millisecond

// openFIFO opens the FIFO at path for writing once a reader has it open,
// or fails with ctx's error when ctx is done first. A non-blocking open
// fails with ENXIO while there is no reader; the file it returns is
// non-blocking too, which Go's poller handles.
func openFIFO(ctx context.Context, path string) (*os.File, error) {
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if !errors.Is(err, syscall.ENXIO) {
			return f, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(fifoPoll):
		}
	}
}
