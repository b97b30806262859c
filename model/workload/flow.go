package workload

// Role is what a flow is in a scenario's metrics.
type Role string

// Flow roles.
const (
	Victim      Role = "victim"
	Contributor Role = "contributor"
	Background  Role = "background"
)

// FlowSpec is one greedy flow of a scenario: a reliable connection from Src
// to Dst (host names) that starts at StartPhase phases and runs to the end.
type FlowSpec struct {
	Name       string
	Src, Dst   string
	Role       Role
	StartPhase int
	SL         int
	// RateGbps is the payload rate the flow requests under the nicrate
	// scheme; 0 asks for nicrate.rates' entry or an equal share.
	RateGbps float64
}

// App is the role of the flows that carry applications' messages.
const App Role = "app"
