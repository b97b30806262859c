package workload

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A schedule holds at most maxOps operations over all ranks (ParseGOAL:
// maxGOALOps): with a limit of 4, two ranks of two operations each are
// read, and the fifth operation, in either rank, is refused at its line,
// naming the limit. Kills goal.go's `total++` turned into `total--` and
// `total > maxOps` into `>=` (the limit of 2^22 is parsed the same way;
// a schedule that size is 50 MB of text).
func TestGOALOperationLimitCountsEveryRank(t *testing.T) {
	schedule := func(ops0, ops1 int) string {
		var b strings.Builder
		b.WriteString("num_ranks 2\n")
		for r, n := range []int{ops0, ops1} {
			fmt.Fprintf(&b, "rank %d {\n", r)
			for i := range n {
				fmt.Fprintf(&b, "c%d: calc %d\n", i, i+1)
			}
			b.WriteString("}\n")
		}
		return b.String()
	}
	tr, err := parseGOAL([]byte(schedule(2, 2)), 4)
	if err != nil {
		t.Fatalf("4 operations under a limit of 4: %v", err)
	}
	if n := len(tr.Ops[0]) + len(tr.Ops[1]); n != 4 {
		t.Fatalf("4 operations read as %d", n)
	}
	for _, c := range []struct{ ops0, ops1, line int }{
		{5, 0, 7}, // the fifth operation is rank 0's fifth
		{3, 2, 9}, // rank 1's second
		{2, 3, 9}, // rank 1's third
		{0, 5, 9}, // rank 1's fifth, rank 0 empty
	} {
		_, err := parseGOAL([]byte(schedule(c.ops0, c.ops1)), 4)
		var ge *GOALError
		if !errors.As(err, &ge) || ge.Line != c.line || ge.Msg != "more than 4 operations" {
			t.Errorf("%d + %d operations under a limit of 4: %v; want line %d: more than 4 operations", c.ops0, c.ops1, err, c.line)
		}
	}
}
