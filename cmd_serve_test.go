package main

import (
	"strings"
	"testing"
)

func TestServeWarnsWhenNotOnLoopback(t *testing.T) {
	tests := []struct {
		addr string
		warn string // a substring; "" wants no warning
	}{
		{"127.0.0.1:8080", ""},
		{"127.0.0.2:8080", ""},
		{"[::1]:8080", ""},
		{"localhost:8080", ""},
		{":8080", "every network interface"},
		{"0.0.0.0:8080", "every network interface"},
		{"[::]:8080", "every network interface"},
		{"192.0.2.7:8080", "listens on 192.0.2.7: the results become visible"},
		{"cluster-login:8080", "listens on cluster-login"},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			got := exposureWarning(tt.addr)
			if (tt.warn == "") != (got == "") || !strings.Contains(got, tt.warn) {
				t.Errorf("exposureWarning(%q) = %q, want %q", tt.addr, got, tt.warn)
			}
		})
	}
}
