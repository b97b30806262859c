package main

import (
	"strings"
	"testing"
)

// TestBestFlagsReachTheRanking checks that the objectives' weights, --lex
// and --tolerance change what best recommends as documented, on handMadeDB.
// Its means (two seeds, +0.15): victim 10.15, 10.65, 10.95, 11.15, 2.15
// along ccti_timer 100..500us, 12.15 at (400us, 2); fairness 0.99, 0.97,
// 0.9 at marking_rate 1, 2, 4. Scaled to [0, 1] over the 15 points, victim
// is 0.8, 0.85, 0.88, 0.9, 0 and 1 at (400us, 2); fairness 1, 7/9, 0.
func TestBestFlagsReachTheRanking(t *testing.T) {
	db := handMadeDB(t)
	best := func(args ...string) string {
		t.Helper()
		out, stderr, code := ccsweep(t, append([]string{"best", db, "--top", "0"}, args...)...)
		if code != 0 {
			t.Fatalf("best %s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		return out
	}
	line := func(out, prefix string) string {
		t.Helper()
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
		t.Fatalf("no line %q in:\n%s", prefix, out)
		return ""
	}
	for _, tc := range []struct {
		name   string
		args   []string
		prefix string
		want   string
	}{
		// Equal weights: (400us, 1) scores (0.9+1)/2 = 0.95, (400us, 2)
		// (1+7/9)/2 = 0.889.
		{"equal weights", []string{"--maximize", "victim_gbps", "--maximize", "fairness_jain"},
			"recommended: ", "recommended: ccti_timer=400us marking_rate=1"},
		// victim:4: (400us, 1) scores (3.6+1)/5 = 0.92, (400us, 2)
		// (4+7/9)/5 = 0.956.
		{"victim weighs 4", []string{"--maximize", "victim_gbps:4", "--maximize", "fairness_jain"},
			"recommended: ", "recommended: ccti_timer=400us marking_rate=2"},
		// Lexicographic, victim first: nothing within 0.05 of (400us, 2).
		{"lex", []string{"--maximize", "victim_gbps", "--maximize", "fairness_jain", "--lex"},
			"recommended: ", "recommended: ccti_timer=400us marking_rate=2"},
		// Within 0.3 on victim the fairness of (400us, 1) decides.
		{"lex, tolerance 0.3", []string{"--maximize", "victim_gbps", "--maximize", "fairness_jain", "--lex", "--tolerance", "0.3"},
			"recommended: ", "recommended: ccti_timer=400us marking_rate=1"},
		// The region, equal weights: scores 0.95, 0.94 (300us, 1), 0.925
		// (200us, 1), then 0.9 (100us, 1) and below.
		{"region 0.015", []string{"--maximize", "victim_gbps", "--maximize", "fairness_jain", "--tolerance", "0.015"},
			"region ", "region (2 points within 0.015 of the best's score): ccti_timer 300us..400us (2 values), marking_rate 1"},
		{"region 0.03", []string{"--maximize", "victim_gbps", "--maximize", "fairness_jain", "--tolerance", "0.03"},
			"region ", "region (3 points within 0.03 of the best's score): ccti_timer 200us..400us (3 values), marking_rate 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := best(tc.args...)
			if got := line(out, tc.prefix); got != tc.want {
				t.Errorf("got  %s\nwant %s\n%s", got, tc.want, out)
			}
		})
	}
}
