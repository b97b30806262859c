//go:build !unix

package main

// addressSpaceLimit is 0: no address-space limit is known.
func addressSpaceLimit() int64 { return 0 }
