// Package report is to draw ccsweep's HTML report from a results database
// and serve it for browsing: 3D surfaces of the metrics over pairs of swept
// axes, per-flow time series and fairness bars. It is not written yet; until
// it is, `ccsweep report` and `ccsweep serve` say so and exit with status 2.
package report
