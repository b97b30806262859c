package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals are the signals that stop any command promptly: the command
// cancels its work, keeps what is finished (a sweep's stored points), and
// ccsweep exits with status 128+signal number, as a shell reports a process
// killed by that signal. A second signal kills at once.
var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// signalError is the cause of a context cancelled by a stop signal.
type signalError struct{ sig syscall.Signal }

func (e signalError) Error() string { return "stopped by " + signalName(e.sig) }

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// withSignals returns a context cancelled, with a signalError as its cause,
// by the first stop signal; after it the signals' default action is restored
// so that a second one ends the process. stop releases the handler.
func withSignals(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			signal.Reset(stopSignals...)
			sig, _ := s.(syscall.Signal)
			cancel(signalError{sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// signalStatus returns the exit status for a command that ended with code:
// 128+signal number if a stop signal cancelled ctx and the command did not
// finish cleanly, saying so on stderr; code otherwise.
func signalStatus(ctx context.Context, code int, stderr io.Writer) int {
	var se signalError
	if code == 0 || !errors.As(context.Cause(ctx), &se) {
		return code
	}
	fmt.Fprintf(stderr, "ccsweep: %v; finished work is kept\n", se)
	return 128 + int(se.sig)
}

// stoppedBySignal reports whether err is only the cancellation a stop
// signal caused, which needs no message of its own.
func stoppedBySignal(ctx context.Context, err error) bool {
	var se signalError
	return errors.Is(err, context.Canceled) && errors.As(context.Cause(ctx), &se)
}
