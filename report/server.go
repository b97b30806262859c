package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/ccsweep/ccsweep/store"
)

// ServerOptions configure a Server.
type ServerOptions struct {
	// Assets are the ECharts scripts; nil means EmbeddedAssets. Shipped or
	// read from a folder, the server serves them itself at /assets/.
	Assets *Assets
	// Version is the ccsweep version shown on the page.
	Version string
}

// Server serves a page to browse a database: pick a grid, a metric and two
// dimensions, fix the others, click a point for its time series. It only
// reads the database, so it may run while a sweep writes to it; every
// request sees what is committed at that moment. It is safe for concurrent
// use.
type Server struct {
	db  *store.DB
	opt ServerOptions
	mux *http.ServeMux
	// slots holds a token per request being answered: at most
	// MaxConcurrentRequests read the database at once, so a flood of
	// requests queues instead of opening a connection (and its file
	// handles) each.
	slots chan struct{}
}

// NewServer returns a Server for db, which the caller keeps open while the
// server runs and closes afterwards.
func NewServer(db *store.DB, opt ServerOptions) *Server {
	if opt.Assets == nil {
		opt.Assets = EmbeddedAssets()
	}
	s := &Server{db: db, opt: opt, mux: http.NewServeMux(), slots: make(chan struct{}, MaxConcurrentRequests)}
	s.mux.HandleFunc("GET /{$}", s.handlePage)
	s.mux.HandleFunc("GET /api/grids", s.handleGrids)
	s.mux.HandleFunc("GET /api/view", s.handleView)
	s.mux.HandleFunc("GET /api/point", s.handlePoint)
	s.mux.HandleFunc("GET /assets/{file}", s.handleAsset)
	return s
}

// MaxConcurrentRequests is how many requests a Server answers at once;
// more wait their turn (or until their client gives up).
const MaxConcurrentRequests = 8

// ServeHTTP answers a request. Only GET is allowed, and query parameters
// are checked: a malformed query, an unknown or repeated parameter or a
// value the grid does not have gets 400 Bad Request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
	if _, err := url.ParseQuery(r.URL.RawQuery); err != nil {
		http.Error(w, "malformed query: "+err.Error(), http.StatusBadRequest)
		return
	}
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	case <-r.Context().Done():
		return // the client left while waiting
	}
	s.mux.ServeHTTP(w, r)
}

// ListenAndServe serves on addr until ctx ends, then shuts down gracefully.
// On a loopback address it refuses requests whose Host header names
// another host, so that a web page cannot reach the server by DNS
// rebinding. ready, if not nil, is called with the bound address once the
// server listens.
func (s *Server) ListenAndServe(ctx context.Context, addr string, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	var h http.Handler = s
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
		h = loopbackOnly(s)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute,
		WriteTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdown); err != nil {
			return err
		}
		if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// LoopbackHost reports whether host (a name or an IP address, IPv6 with or
// without brackets, no port) is "localhost" or a loopback address.
func LoopbackHost(host string) bool {
	host = strings.Trim(host, "[]")
	ip := net.ParseIP(host)
	return host == "localhost" || (ip != nil && ip.IsLoopback())
}

// loopbackOnly rejects requests whose Host is not a loopback name.
func loopbackOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if !LoopbackHost(host) {
			http.Error(w, "ccsweep serve answers only requests to a loopback host name", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// badRequest is a query the server refuses, with the reason.
type badRequest struct{ msg string }

func (e *badRequest) Error() string { return e.msg }

func badf(format string, args ...any) error { return &badRequest{fmt.Sprintf(format, args...)} }

// fail writes err as a 400 for bad requests and a 500 otherwise.
func fail(w http.ResponseWriter, err error) {
	var bad *badRequest
	if errors.As(err, &bad) {
		http.Error(w, bad.msg, http.StatusBadRequest)
		return
	}
	http.Error(w, "ccsweep serve: "+err.Error(), http.StatusInternalServerError)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// checkQuery checks that q holds only the allowed names (and names starting
// with one of the allowed prefixes), each at most once.
func checkQuery(q url.Values, names []string, prefixes ...string) error {
	for k, vs := range q {
		if !slices.Contains(names, k) && !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(k, p) }) {
			return badf("unknown query parameter %q", k)
		}
		if len(vs) > 1 {
			return badf("query parameter %q given %d times", k, len(vs))
		}
	}
	return nil
}

func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	if err := checkQuery(r.URL.Query(), nil); err != nil {
		fail(w, err)
		return
	}
	p := newPage(&Overview{Path: s.db.Path()}, Options{Assets: s.opt.Assets, Version: s.opt.Version})
	p.Serve, p.Title = true, "ccsweep serve: "+s.db.Path()
	p.data.Mode = "serve"
	if s.opt.Assets.Inline() {
		p.Scripts = s.opt.Assets.tags("/assets/")
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := p.render(w); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

func (s *Server) handleAsset(w http.ResponseWriter, r *http.Request) {
	code, ok := s.opt.Assets.file(r.PathValue("file"))
	if !ok || len(r.URL.RawQuery) > 0 {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "max-age=86400")
	http.ServeContent(w, r, r.PathValue("file"), time.Time{}, strings.NewReader(code))
}

// gridSummary is a grid as the explorer's controls need it.
type gridSummary struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Scenario string `json:"scenario"`
	Planned  int    `json:"planned"`
	Done     int    `json:"done"`
	Failed   int    `json:"failed"`
	Missing  int    `json:"missing"`
	// PlanError says why Planned and Missing are unknown (Grid.PlanError).
	PlanError string       `json:"plan_error,omitempty"`
	Metrics   []*Metric    `json:"metrics"`
	Dims      []dimSummary `json:"dims"`
	View      viewQuery    `json:"view"` // what to show first
}

type dimSummary struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
	Unset  bool     `json:"unset,omitempty"` // some points leave it at the model default
}

// viewQuery is what /api/view draws.
type viewQuery struct {
	Metric string            `json:"metric"`
	X      string            `json:"x"`
	Y      string            `json:"y"`
	At     map[string]string `json:"at"` // fixed values of other dimensions
}

func (s *Server) handleGrids(w http.ResponseWriter, r *http.Request) {
	if err := checkQuery(r.URL.Query(), nil); err != nil {
		fail(w, err)
		return
	}
	recs, err := s.db.Grids(r.Context())
	if err != nil {
		fail(w, err)
		return
	}
	out := []gridSummary{}
	for _, rec := range recs {
		g, err := loadGrid(r.Context(), s.db, rec, false)
		if err != nil {
			fail(w, err)
			return
		}
		out = append(out, summarizeGrid(g))
	}
	writeJSON(w, out)
}

func summarizeGrid(g *Grid) gridSummary {
	sum := gridSummary{ID: g.ID, Name: g.Name, Scenario: g.Scenario, Planned: g.Planned, Done: g.Done,
		Failed: g.Failed, Missing: g.Missing, PlanError: g.PlanError, Metrics: []*Metric{}, Dims: []dimSummary{},
		View: viewQuery{Metric: g.PrimaryMetric(), At: map[string]string{}}}
	for _, m := range g.Metrics {
		sum.Metrics = append(sum.Metrics, metricOf(m))
	}
	for i, d := range g.Dims {
		unset := slices.ContainsFunc(g.Cells, func(c *Cell) bool { return c.Key[i] == "" })
		sum.Dims = append(sum.Dims, dimSummary{Name: d.Name, Values: d.Values, Unset: unset})
	}
	switch {
	case len(g.Surfaces) > 0:
		s := g.Surfaces[0]
		sum.View.X, sum.View.Y = s.XName, s.YName
		if len(s.Slices) > 0 {
			for k, o := range s.Others {
				sum.View.At[g.Dims[o].Name] = s.Slices[s.Default].Values[k]
			}
		}
	case g.Lines != nil:
		sum.View.X = g.Lines.XName
	}
	return sum
}

// gridByID loads the grid the query names.
func (s *Server) gridByID(ctx context.Context, id string, picks bool) (*Grid, int, error) {
	if id == "" {
		return nil, 0, badf("query parameter grid is required")
	}
	recs, err := s.db.Grids(ctx)
	if err != nil {
		return nil, 0, err
	}
	i := slices.IndexFunc(recs, func(g store.GridRecord) bool { return g.ID == id })
	if i < 0 {
		return nil, 0, badf("no grid %q in the database", id)
	}
	g, err := loadGrid(ctx, s.db, recs[i], picks)
	return g, i, err
}

// viewResponse is what /api/view returns: the charts and the cells they
// index.
type viewResponse struct {
	GridIndex int      `json:"grid_index"`
	Status    string   `json:"status"`
	Charts    []*Chart `json:"charts"`
	Cells     []*Cell  `json:"cells"`
}

func (s *Server) handleView(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if err := checkQuery(q, []string{"grid", "metric", "x", "y"}, "at."); err != nil {
		fail(w, err)
		return
	}
	g, gi, err := s.gridByID(r.Context(), q.Get("grid"), false)
	if err != nil {
		fail(w, err)
		return
	}
	v := viewQuery{Metric: q.Get("metric"), X: q.Get("x"), Y: q.Get("y"), At: map[string]string{}}
	for k, vs := range q {
		if name, ok := strings.CutPrefix(k, "at."); ok {
			v.At[name] = vs[0]
		}
	}
	charts, err := viewCharts(g, gi, v)
	if err != nil {
		fail(w, err)
		return
	}
	status := fmt.Sprintf("%d of %d points done, %d failed, %d missing", g.Done, g.Planned, g.Failed, g.Missing)
	if !g.PlannedExact {
		status = fmt.Sprintf("%d points done, %d failed; planned and missing unknown (%s)", g.Done, g.Failed, g.PlanError)
	}
	writeJSON(w, viewResponse{GridIndex: gi, Status: status, Charts: charts, Cells: g.Cells})
}

// viewCharts validates a view against the grid and draws it: a surface and
// its heat map for two dimensions, lines for one.
func viewCharts(g *Grid, gi int, v viewQuery) ([]*Chart, error) {
	if !slices.Contains(g.Metrics, v.Metric) {
		return nil, badf("metric %q: want one of %s", v.Metric, strings.Join(g.Metrics, ", "))
	}
	dim := func(name string) (int, error) {
		i := slices.IndexFunc(g.Dims, func(d Dim) bool { return d.Name == name })
		if i < 0 || len(g.Dims[i].Values) < 2 {
			var names []string
			for _, d := range g.Dims {
				if len(d.Values) > 1 {
					names = append(names, d.Name)
				}
			}
			return 0, badf("axis %q: want one of %s", name, strings.Join(names, ", "))
		}
		return i, nil
	}
	x, err := dim(v.X)
	if err != nil {
		return nil, err
	}
	y := -1
	if v.Y != "" {
		if y, err = dim(v.Y); err != nil {
			return nil, err
		}
		if y == x {
			return nil, badf("x and y are both %q", v.X)
		}
	}
	for name, val := range v.At {
		i := slices.IndexFunc(g.Dims, func(d Dim) bool { return d.Name == name })
		switch {
		case i < 0 || i == x || i == y:
			return nil, badf("at.%s: not a dimension other than the axes", name)
		case val != "" && !slices.Contains(g.Dims[i].Values, val):
			return nil, badf("at.%s=%q: want one of %s", name, val, strings.Join(g.Dims[i].Values, ", "))
		}
	}
	if y < 0 {
		l := g.lines(x, g.others(x))
		l.Series = slices.DeleteFunc(l.Series, func(ls *LineSeries) bool {
			for k, o := range l.Others {
				if val, ok := v.At[g.Dims[o].Name]; ok && ls.Values[k] != val {
					return true
				}
			}
			return false
		})
		c := lineChart(g, gi, l, v.Metric)
		c.ID = "x-heat"
		return []*Chart{c}, nil
	}
	s := g.surface(x, y)
	want := make([]string, len(s.Others))
	for k, o := range s.Others {
		want[k] = v.At[g.Dims[o].Name]
	}
	i := slices.IndexFunc(s.Slices, func(sl *Slice) bool { return slices.Equal(sl.Values, want) })
	if i < 0 {
		return nil, badf("no points with these values of the other dimensions")
	}
	s.Slices, s.Default = s.Slices[i:i+1], 0
	surf, heat := surfacePair(g, gi, 0, s, v.Metric)
	surf.ID, heat.ID = "x-3d", "x-heat"
	return []*Chart{surf, heat}, nil
}

// pointResponse is a point's time series chart, its apps' iteration
// times and its parameters.
type pointResponse struct {
	Title string      `json:"title"`
	Rows  [][2]string `json:"rows"`
	Chart *Chart      `json:"chart,omitempty"`
	// Iterations draws the point's apps' iteration times, if it has any.
	Iterations *Chart `json:"iterations,omitempty"`
}

func (s *Server) handlePoint(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if err := checkQuery(q, []string{"grid", "point"}); err != nil {
		fail(w, err)
		return
	}
	g, gi, err := s.gridByID(r.Context(), q.Get("grid"), false)
	if err != nil {
		fail(w, err)
		return
	}
	id := q.Get("point")
	ci := slices.IndexFunc(g.Cells, func(c *Cell) bool { return slices.Contains(c.Points, id) })
	if id == "" || ci < 0 {
		fail(w, badf("no point %q in grid %s", id, g.Name))
		return
	}
	c := g.Cells[ci]
	resp := pointResponse{Title: fmt.Sprintf("%s · seed %d · point %s", g.describe(c), c.seedOf[id], id[:min(12, len(id))])}
	for _, p := range c.Params {
		resp.Rows = append(resp.Rows, [2]string{p.Name, p.Value})
	}
	for _, m := range g.Metrics {
		if v, ok := c.Mean[m]; ok {
			text := numberText(v)
			if c.Done > 1 {
				text += fmt.Sprintf(" ± %s (mean ± sd over %d seeds)", numberText(c.SD[m]), c.Done)
			}
			resp.Rows = append(resp.Rows, [2]string{m, text})
		}
	}
	for _, e := range c.Errors {
		resp.Rows = append(resp.Rows, [2]string{"error", e})
	}
	if c.Status == CellDone {
		p, err := g.readPick(r.Context(), s.db, ci, id)
		if err != nil {
			fail(w, err)
			return
		}
		resp.Chart = seriesChart(g, gi, 0, p)
		resp.Chart.ID = "x-series"
		if it := iterationsChart(gi, 0, p); it != nil {
			it.ID = "x-iterations"
			resp.Iterations = it
		}
	}
	writeJSON(w, resp)
}
