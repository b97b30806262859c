// Package report draws what a ccsweep database holds: one self-contained
// HTML report (Write) and a server to browse a database live (Server).
//
// For every grid the report shows an overview (the grid as run, point counts
// done, failed and missing, simulation time, provenance of each run), then
// for every pair of numeric dimensions the 3D surfaces of victim_gbps,
// contributors_gbps and var (the paper's figures 11, 12 and 14, drawn with
// echarts-gl) each beside a heat map giving exact values, with selectors for
// the values of the other dimensions; a grid with one numeric dimension gets
// line charts instead, a line per value of the others (CC off and on).
// When cc sweeps several congestion-control schemes, a side-by-side view
// follows: the compared surface as one heat map per scheme, each metric on
// one colour scale, and a table of each scheme's best point by the user's
// objectives (or the primary metric), ranked among its own points.
// Seeds are averaged; heat-map cells and line tooltips give mean ± sd.
// Failed points and points not stored yet are marked on every chart, and
// failed points are listed with their errors. The per-flow time series of
// the best and worst points, of the testbed's defaults and of CC off (when
// the grid has them) follow, with each contributor's share of the
// bottleneck as fairness bars.
//
// Chart options are built with go-echarts (github.com/go-echarts/go-echarts)
// and drawn in the browser by echarts 5.6.0 and echarts-gl 2.0.9, which
// ccsweep ships (assets/, embedded: EmbeddedAssets) and inlines by default
// so that a report is one file that works with no network; LoadAssets reads
// them from a folder instead, and CDNAssets loads them from
// cdn.jsdelivr.net with integrity hashes. Charts
// are drawn as they scroll into view, and only a few WebGL surfaces are kept
// alive at once, because browsers allow a page about sixteen WebGL contexts.
//
// Load and LoadGrid compute what the charts show as plain values (Grid,
// Cell, Surface, Lines, Pick), which the tests compare with golden files.
// They take the rules from their homes: grids rebuilds each grid from its
// stored canonical form and expands its planned points, where constraints
// and all; model gives the metrics' names, labels and units (MetricList)
// and the measurement window.
//
// The package only reads the database.
//
// # Imports
//
// Of ccsweep, report imports engine, grids, model, model/params (the
// parameters and schemes a figure names), model/workload (the
// flow roles a figure groups by), report/rank, store and
// store/atomicfile. It must never import sweep: drawing a database never
// runs a point.
package report
