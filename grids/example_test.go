package grids_test

import (
	"fmt"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
)

func ExampleParse() {
	g, err := grids.Parse("fig.toml", []byte(`
name     = "fig"
scenario = "testbed-s1"
cc       = "on"
where    = "ccti_timer < 300 || marking_rate == 0"   # microseconds

[sweep]
ccti_timer   = { from = "100us", to = "300us", step = "100us" }
marking_rate = [0, 8]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range g.Points() {
		fmt.Println(p.Params, p.Seed)
	}
	// Output:
	// [{cc on} {ccti_timer 100us} {marking_rate 0}] 1
	// [{cc on} {ccti_timer 100us} {marking_rate 8}] 1
	// [{cc on} {ccti_timer 200us} {marking_rate 0}] 1
	// [{cc on} {ccti_timer 200us} {marking_rate 8}] 1
	// [{cc on} {ccti_timer 300us} {marking_rate 0}] 1
}

func ExampleError() {
	_, err := grids.Parse("fig.toml", []byte(`
name     = "fig"
scenario = "testbed-s1"

[sweep]
ccti_timer = { from = "50us", to = "2000us", step = "0us" }
threshold  = [15, 16]
`))
	fmt.Println(err)
	// Output:
	// fig.toml:6: sweep.ccti_timer: step "0us" must be positive
	// fig.toml:7: sweep.threshold: 16: out of range 0..15
}

func ExamplePointID() {
	p := grids.Point{Scenario: "testbed-s1", Params: []grids.Param{{Name: "cc", Value: "on"}}, Seed: 1}
	fmt.Println(len(grids.PointID(p, model.Version)))
	// Output: 32
}
