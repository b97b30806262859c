package report

import (
	"embed"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
)

// The ECharts releases the pages are written for: echarts-gl 2.0.9 is the
// 3D extension for echarts 5.
const (
	EChartsVersion   = "5.6.0"
	EChartsGLVersion = "2.0.9"
)

// asset is a script a page needs: its file name in an npm package's dist
// folder, where ccsweep ships it (under assets/, embedded), its URL on a
// public CDN and the URL's subresource integrity hash.
type asset struct {
	file, shipped, url, integrity string
	// marker is text the file must contain.
	marker string
}

// The integrity hashes are the sha384 of the files jsDelivr serves at the
// URLs, which are the dist files of the releases' npm tarballs (the
// tarballs' registry hashes are in assets/README.md); the shipped copies
// must have them too (TestEmbeddedAssetsArePinnedRelease).
var scripts = []asset{
	{"echarts.min.js", "assets/echarts/echarts.min.js",
		"https://cdn.jsdelivr.net/npm/echarts@" + EChartsVersion + "/dist/echarts.min.js",
		"sha384-pPi0zxBAoDu6+JXW/C68UZLvBUUtU+7zonhif43rqj7pxsGyqyqzcian2Rj37Rss",
		`version="` + EChartsVersion + `"`},
	{"echarts-gl.min.js", "assets/echarts-gl/echarts-gl.min.js",
		"https://cdn.jsdelivr.net/npm/echarts-gl@" + EChartsGLVersion + "/dist/echarts-gl.min.js",
		"sha384-f4gAUkb5Y6LE9n50CbiH1hCBCw7021OeJu0ZrgRpgW6G1CZjPR8cu33e8rCFLqCl",
		`"echarts-gl"`},
}

// shipped holds the pinned releases' scripts, with their licences beside
// them in the source tree (assets/README.md says where each comes from).
//
//go:embed assets/echarts/echarts.min.js assets/echarts-gl/echarts-gl.min.js
var shipped embed.FS

// Assets are the ECharts scripts of a page: the copies shipped in the
// binary or read from a folder, inlined in a report and served by the
// server; or loaded from the CDN.
type Assets struct {
	dir  string
	code []string // file contents, in scripts order; nil for the CDN
}

// EmbeddedAssets are the pinned releases shipped in the ccsweep binary:
// the default, so that a report is one file that draws offline.
func EmbeddedAssets() *Assets {
	a := &Assets{}
	for _, s := range scripts {
		b, err := shipped.ReadFile(s.shipped)
		if err != nil {
			panic(err) // embedded above
		}
		a.code = append(a.code, string(b))
	}
	return a
}

// CDNAssets loads the pinned releases from cdn.jsdelivr.net, checked by
// their integrity hashes: a smaller page that needs the network.
func CDNAssets() *Assets { return &Assets{} }

// LoadAssets reads echarts.min.js and echarts-gl.min.js from dir, as shipped
// in the dist folders of the npm packages echarts@5.6.0 and
// echarts-gl@2.0.9.
func LoadAssets(dir string) (*Assets, error) {
	a := &Assets{dir: dir}
	for _, s := range scripts {
		b, err := os.ReadFile(filepath.Join(dir, s.file))
		if err != nil {
			return nil, fmt.Errorf("assets: %w", err)
		}
		if !strings.Contains(string(b), s.marker) {
			return nil, fmt.Errorf("assets: %s is not the expected release (want echarts %s, echarts-gl %s)",
				filepath.Join(dir, s.file), EChartsVersion, EChartsGLVersion)
		}
		a.code = append(a.code, string(b))
	}
	return a, nil
}

// Inline reports whether the scripts are embedded in the page.
func (a *Assets) Inline() bool { return a.code != nil }

// Dir returns the folder the scripts were read from, or "" (shipped or
// CDN).
func (a *Assets) Dir() string { return a.dir }

// tags returns the script elements that load the assets: inline, or CDN
// elements with integrity hashes; served pages refer to the server's
// /assets/ copies instead when prefix is set.
func (a *Assets) tags(prefix string) template.HTML {
	var b strings.Builder
	for i, s := range scripts {
		switch {
		case a.code != nil && prefix != "":
			fmt.Fprintf(&b, "<script src=\"%s%s\"></script>\n", prefix, s.file)
		case a.code != nil:
			// A script element ends at the first "</script", which minified
			// code only holds inside strings: escape it there.
			b.WriteString("<script>")
			b.WriteString(strings.ReplaceAll(a.code[i], "</script", `<\/script`))
			b.WriteString("</script>\n")
		default:
			fmt.Fprintf(&b, "<script src=\"%s\" integrity=\"%s\" crossorigin=\"anonymous\"></script>\n", s.url, s.integrity)
		}
	}
	return template.HTML(b.String())
}

// Open returns the contents of the named script (echarts.min.js or
// echarts-gl.min.js), unless the scripts come from the CDN.
func (a *Assets) Open(name string) (string, error) {
	if code, ok := a.file(name); ok {
		return code, nil
	}
	return "", fmt.Errorf("assets: no %s here", name)
}

// file returns the contents of the named script, if inlined.
func (a *Assets) file(name string) (string, bool) {
	for i, s := range scripts {
		if s.file == name && a.code != nil {
			return a.code[i], true
		}
	}
	return "", false
}
