package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestNetScript runs the scripts of testdata/script-net, which talk to a
// net/http server on loopback (never the network): $SERVER is its URL.
// Run "go test ./cmd/relurl -run TestNetScript/NAME" for one script.
func TestNetScript(t *testing.T) {
	testscript.Run(t, extParams("testdata/script-net"))
}

// TestFSScript runs the scripts of testdata/script-fs, which kill relurl
// in the middle of a tree and look at what it left, and take permissions
// away ([root] is true when they cannot, because the tests run as root).
func TestFSScript(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and kills trees of files")
	}
	testscript.Run(t, extParams("testdata/script-fs"))
}

// extParams are the Params of the scripts that need commands of their own.
func extParams(dir string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			srv := httptest.NewServer(testSite())
			env.Defer(srv.Close)
			env.Setenv("SERVER", srv.URL)
			env.Setenv("RELURL_FOREIGN", os.Getenv("RELURL_FOREIGN"))
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			if cond == "foreign" {
				// RELURL_FOREIGN: a directory this user may write
				// holding an a.html of another owner (.ci/run makes
				// it for its run as nobody).
				return os.Getenv("RELURL_FOREIGN") != "" && os.Geteuid() != 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"gentree":  cmdGentree,
			"waitnew":  cmdWaitnew,
			"oldornew": cmdOldornew,
			"status":   cmdStatus,
			"hardlink": cmdHardlink,
			"notemp":   cmdNotemp,
			"mkfile":   cmdMkfile,
		},
	}
}

// testSite is the server of the fetch scripts.
func testSite() http.Handler {
	mux := http.NewServeMux()
	page := func(ct, body string, header ...string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			for i := 0; i+1 < len(header); i += 2 {
				w.Header().Set(header[i], header[i+1])
			}
			if ct != "" {
				w.Header().Set("Content-Type", ct)
			}
			fmt.Fprint(w, body)
		}
	}
	redirect := func(code int, loc string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", loc)
			w.WriteHeader(code)
		}
	}
	const html = "text/html; charset=utf-8"
	mux.Handle("/dir/page.html", page(html, `<a href="a.html">a</a> <img src="../img/b.png">`))
	// A chain: absolute path, then relative Location (RFC 9110 §10.2.2
	// resolves it against the URL that sent it).
	mux.Handle("/start", redirect(http.StatusFound, "/moved/here"))
	mux.Handle("/moved/here", redirect(http.StatusMovedPermanently, "../final/page.html"))
	mux.Handle("/final/page.html", page(html, `<a href="next.html">next</a> <a href="/top.html">top</a>`))
	mux.Handle("/loop", redirect(http.StatusFound, "/loop"))
	mux.Handle("/offsite", redirect(http.StatusFound, "http://offsite.invalid/page"))
	mux.HandleFunc("/nolocation", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusFound) })
	// Content-Location counts only with --content-location.
	mux.Handle("/cl", page(html, `<a href="x.html">x</a>`, "Content-Location", "/elsewhere/doc.html"))
	// <base> outranks the URL.
	mux.Handle("/based", page(html, `<head><base href="https://cdn.example/assets/"></head><a href="x.html">x</a>`))
	// RFC 8288 §3.1: Link header targets against the response URL, not the <base>.
	mux.Handle("/linked/page", page(html, `<base href="https://cdn.example/"><a href="p">p</a>`, "Link", `<x.js>; rel=modulepreload, </a,b.css>; rel=preload`))
	mux.Handle("/latin1", page("text/html; charset=windows-1252", "<a href=\"caf\xe9.html?q=\xe9\">caf\xe9</a>"))
	// A link that cannot be resolved: data, named on stderr.
	mux.Handle("/badlink", page(html, `<a href="//[bad/x">x</a> <a href="y.html">y</a>`))
	mux.Handle("/big", page(html, strings.Repeat("<p>filler</p>\n", 1000)))
	mux.Handle("/image.png", page("image/png", "\x89PNG\r\n\x1a\n"))
	// The kind of a page is base's: by its Content-Type, else by its bytes.
	mux.Handle("/page.xhtml", page("application/xhtml+xml", `<html xmlns="http://www.w3.org/1999/xhtml"><a href="x.html">x</a></html>`))
	// XHTML with XHTML's root is read as XML (base.FormatOfContent): a
	// <textarea> holds markup, an empty element stays "/>".
	mux.Handle("/root.xhtml", page("application/xhtml+xml", `<?xml version="1.0"?>`+"\n"+
		`<html xmlns="http://www.w3.org/1999/xhtml"><body><textarea><a href="in-textarea.html"/></textarea><a href="b.html"/></body></html>`))
	mux.Handle("/gzipped.xhtml", page("application/xhtml+xml", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03binary"))
	mux.Handle("/sheet.css", page("text/css", `a { background: url(x.png) }`))
	untyped := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = nil // net/http would sniff one
			fmt.Fprint(w, body)
		}
	}
	mux.Handle("/untyped-page", untyped(`<!DOCTYPE html><a href="x.html">x</a>`))
	mux.Handle("/untyped-text", untyped(`just text, <a href="x.html">not a page</a>`))
	// Brotli, then gzip over it (fetch printed the bytes).
	mux.HandleFunc("/br", func(w http.ResponseWriter, r *http.Request) {
		var b1, b2 bytes.Buffer
		bw := brotli.NewWriter(&b1)
		io.WriteString(bw, `<a href="x.html">x</a>`)
		bw.Close()
		gw := gzip.NewWriter(&b2)
		gw.Write(b1.Bytes())
		gw.Close()
		w.Header().Set("Content-Type", html)
		w.Header().Set("Content-Encoding", "br, gzip")
		w.Write(b2.Bytes())
	})
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "gone", http.StatusGone) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	return mux
}

// genPage is page i of a generated tree: big enough that rewriting a few
// hundred of them takes a while, and full of relative links.
func genPage(i, size int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<title>page %d</title>\n", i)
	for n := 0; b.Len() < size; n++ {
		fmt.Fprintf(&b, "<p><a href=\"p%d.html#s%d\">link %d</a> <img src=\"../img/%d.png\"></p>\n", n%97, n, n, n%13)
	}
	return b.Bytes()
}

func genName(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("d%d", i%10), fmt.Sprintf("p%03d.html", i))
}

// cmdGentree: gentree DIR N SIZE makes N pages of about SIZE bytes.
func cmdGentree(ts *testscript.TestScript, neg bool, args []string) {
	dir, n, size := genArgs(ts, args)
	for i := range n {
		p := genName(dir, i)
		ts.Check(os.MkdirAll(filepath.Dir(p), 0o755))
		ts.Check(os.WriteFile(p, genPage(i, size), 0o644))
	}
}

func genArgs(ts *testscript.TestScript, args []string) (string, int, int) {
	if len(args) != 3 {
		ts.Fatalf("usage: gentree|waitnew|oldornew DIR N SIZE")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	size, err := strconv.Atoi(args[2])
	ts.Check(err)
	return ts.MkAbs(args[0]), n, size
}

// cmdWaitnew: waitnew DIR N SIZE waits until a page of the tree changed.
func cmdWaitnew(ts *testscript.TestScript, neg bool, args []string) {
	dir, n, size := genArgs(ts, args)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for i := range n {
			data, err := os.ReadFile(genName(dir, i))
			if err == nil && !bytes.Equal(data, genPage(i, size)) {
				return
			}
		}
		time.Sleep(time.Millisecond)
	}
	ts.Fatalf("no page changed in 20s")
}

// cmdOldornew: oldornew DIR N SIZE WANTDIR checks that each page holds
// its generated content or the content of the same page under WANTDIR,
// never anything else; it logs how many of each.
func cmdOldornew(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 4 {
		ts.Fatalf("usage: oldornew DIR N SIZE WANTDIR")
	}
	dir, n, size := genArgs(ts, args[:3])
	want := ts.MkAbs(args[3])
	olds, news := 0, 0
	for i := range n {
		data, err := os.ReadFile(genName(dir, i))
		ts.Check(err)
		rel, _ := filepath.Rel(dir, genName(dir, i))
		newData, err := os.ReadFile(filepath.Join(want, rel))
		ts.Check(err)
		switch {
		case bytes.Equal(data, genPage(i, size)):
			olds++
		case bytes.Equal(data, newData):
			news++
		default:
			ts.Fatalf("%s is neither old nor new: %d bytes", rel, len(data))
		}
	}
	ts.Logf("%d pages old, %d new", olds, news)
}

// cmdHardlink: hardlink OLD NEW makes NEW another name of the file OLD.
func cmdHardlink(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: hardlink OLD NEW")
	}
	ts.Check(os.Link(ts.MkAbs(args[0]), ts.MkAbs(args[1])))
}

// cmdNotemp: notemp DIR fails if a temporary file of the writer is left
// anywhere under DIR.
func cmdNotemp(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: notemp DIR")
	}
	filepath.WalkDir(ts.MkAbs(args[0]), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".relurl-") {
			ts.Fatalf("temporary file left: %s", p)
		}
		return nil
	})
}

// cmdMkfile: mkfile NAME CONTENT writes CONTENT to the file NAME, both
// Go-quoted strings, so that a name can hold any byte ("\xff", "\n").
func cmdMkfile(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: mkfile QUOTED-NAME QUOTED-CONTENT")
	}
	name, err := strconv.Unquote(`"` + args[0] + `"`)
	ts.Check(err)
	data, err := strconv.Unquote(`"` + args[1] + `"`)
	ts.Check(err)
	p := ts.MkAbs(name)
	ts.Check(os.MkdirAll(filepath.Dir(p), 0o755))
	ts.Check(os.WriteFile(p, []byte(data), 0o644))
}
