package params

import (
	"fmt"
	"slices"
	"strings"
)

// The congestion-control schemes, the values of CCConfig.Scheme.
const (
	SchemeOff     = "off"     // no congestion control
	SchemeIB      = "ib"      // IB CC (SPEC §2)
	SchemeSantos  = "santos"  // ECN marking variants with AIMD/FIMD/LIPD sources, window 1 (reference 001)
	SchemeNICRate = "nicrate" // NIC rate control with admission (reference 004)
	SchemeDRB     = "drb"     // distributed routing balancing over LMC paths (reference 003)
)

// Schemes lists the schemes in the order users see them.
var Schemes = []string{SchemeOff, SchemeIB, SchemeSantos, SchemeNICRate, SchemeDRB}

// ccWord is the canonical spelling of scheme s as the value of parameter
// cc. IB CC keeps "on", its spelling from before cc named a scheme, so that
// every point already in a database keeps its identity; "ib" is read as
// "on" everywhere.
func ccWord(s string) string {
	if s == SchemeIB {
		return "on"
	}
	return s
}

// schemeParam is parameter cc: the scheme, with on/true/ib for IB CC and
// off/false for none, as before cc named a scheme.
func schemeParam() *Param {
	return &Param{Name: "cc", Kind: KindEnum, Choices: Schemes,
		Doc:     "congestion-control scheme: off, ib (IB CC; on is the same), santos, nicrate or drb",
		aliases: map[string]string{"on": "on", "ib": "on", "true": "on", "false": "off"},
		get:     func(c *Config) any { return ccWord(c.CC.Scheme) },
		set: func(c *Config, v any) {
			if c.CC.Scheme = v.(string); c.CC.Scheme == "on" {
				c.CC.Scheme = SchemeIB
			}
		}}
}

// IBMarking reports whether the scheme runs IB CC's switch marking, BECNs
// and CCTI machinery: IB CC itself, and DRB, which opens paths on BECNs.
func (c *CCConfig) IBMarking() bool {
	return c.Scheme == SchemeIB || c.Scheme == SchemeDRB
}

// schemeParams are the parameters of the schemes other than ib, each
// named SCHEME.NAME with Param.Scheme set.
var schemeParams = slices.Concat(santosParams, nicrateParams, drbParams)

// forScheme marks ps as parameters of scheme s.
func forScheme(s string, ps ...*Param) []*Param {
	for _, p := range ps {
		p.Scheme = s
	}
	return ps
}

// SchemeParamError reports a scheme's parameter set for a run of another
// scheme, where it would do nothing.
type SchemeParamError struct {
	Name   string // the parameter
	Scheme string // its scheme
	CC     string // the run's scheme
}

func (e *SchemeParamError) Error() string {
	return fmt.Sprintf("%s is a parameter of cc %s, but the run's cc is %s: select %s with cc = %q or leave %s out",
		e.Name, e.Scheme, e.CC, e.Scheme, e.Scheme, e.Name)
}

// AppliesTo reports whether p acts in a run of the given scheme: a
// parameter of no scheme always does, a scheme's only in that scheme's runs.
func (p *Param) AppliesTo(scheme string) bool { return p.Scheme == "" || p.Scheme == scheme }

// CheckSchemeParams reports a *SchemeParamError if any parameter named in
// names belongs to a scheme other than c's.
func (c *Config) CheckSchemeParams(names []string) error {
	for _, name := range names {
		if p := LookupParam(name); p != nil && !p.AppliesTo(c.CC.Scheme) {
			return &SchemeParamError{Name: name, Scheme: p.Scheme, CC: c.CC.Scheme}
		}
	}
	return nil
}

// SchemeOf returns the scheme named by a canonical value of cc ("on" is
// "ib").
func SchemeOf(ccValue string) string {
	if ccValue == "on" {
		return SchemeIB
	}
	return ccValue
}

// validateScheme checks the scheme and its parameters.
func (c *Config) validateScheme() error {
	if !slices.Contains(Schemes, c.CC.Scheme) {
		return &ParamError{Name: "cc", Value: c.CC.Scheme, Reason: "want one of " + strings.Join(Schemes, ", ")}
	}
	if c.CC.Scheme == SchemeSantos {
		return c.Santos.validate(c)
	}
	return nil
}
