package htmlrewrite

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// referLog is a Referrer that writes down what it is told.
type referLog struct {
	loads    []string
	keys     []string
	charset  string
	ends     int
	restarts int
}

func (r *referLog) Load(l link.Link) {
	if l.Line != 0 || l.Offset != 0 {
		panic("a Load with a position")
	}
	r.loads = append(r.loads, loadString(l))
}
func (r *referLog) End(keys []string, charset string) { r.keys, r.charset = keys, charset; r.ends++ }
func (r *referLog) Restart()                          { r.loads, r.keys = nil, nil; r.restarts++ }

func loadString(l link.Link) string {
	return fmt.Sprintf("%s %s %s %s %v %q inert=%v err=%v", l.Tag, l.Attr, l.Kind, l.URL, l.Rel, l.Raw, l.Inert, l.Err != nil)
}

// TestReferrer: Options.Referrer is told, in the pass of Rewrite (into a
// rewindable output, the single pass that starts again at a late
// <base>, and into any other) and of Links, exactly the Import links and
// the links of <link> elements that Links reports (resolved against the
// deciding base, Inert in a <template> and in an inert srcdoc, without
// position), then the import map's bare keys once the document ends; a
// pass that starts again says so first.
func TestReferrer(t *testing.T) {
	late := `<script type=module src="m.js"></script><link rel=stylesheet href=s.css>` +
		strings.Repeat(`<a href="x.html">x</a>`, 3000) + `<base href="/other/">`
	docs := []string{
		`<link rel=manifest href=app.json><link rel="stylesheet icon" href="s.css" style="background:url(b.png)">` +
			`<script type=importmap>{"imports":{"lodash":"./l.js","./rel.js":"./r.js"},"scopes":{"/s/":{"x":"./y.js"}}}</script>` +
			`<script type=module src="a.js"></script><script src="classic.js"></script><link rel=modulepreload href="/p.js">` +
			`<script type=module>import "./inline.js"; import "lodash"; import "nope";</script>` +
			`<template><script type=module src="t.js"></script></template><img src=i.png><a href="//[bad">x</a><link rel=icon href="//["><link rel=stylesheet href="//[">`,
		late,
		"<meta charset=koi8-r><link rel=stylesheet href=\"\xe9.css\">",
		`<iframe srcdoc="<link rel=stylesheet href=in.css><script type=module src=in.js></script>"></iframe>` +
			`<template><iframe srcdoc="<script type=module src=inert.js></script>"></iframe></template>`,
	}
	for i, doc := range docs {
		opts := Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://example.org/d/p.html"}}, Srcdoc: true}
		var want []string
		var log referLog
		o := opts
		o.Referrer = &log
		_, err := Links(strings.NewReader(doc), o, func(l link.Link) error {
			legacy := strings.Contains(doc, "koi8-r")
			if l.Kind == link.Import || l.Tag == "link" && (slices.Contains(l.Rel, "stylesheet") && legacy || slices.Contains(l.Rel, "manifest")) {
				want = append(want, loadString(link.Link{Raw: l.Raw, URL: l.URL, Err: l.Err, Tag: l.Tag, Attr: l.Attr, Kind: l.Kind, Rel: l.Rel, Inert: l.Inert}))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 {
			t.Fatalf("doc %d: no link to tell", i)
		}
		check := func(name string, log *referLog, restarts int) {
			t.Helper()
			if strings.Join(log.loads, "\n") != strings.Join(want, "\n") {
				t.Errorf("doc %d, %s: loads\n%s\nwant\n%s", i, name, strings.Join(log.loads, "\n"), strings.Join(want, "\n"))
			}
			if log.ends != 1 || log.restarts != restarts {
				t.Errorf("doc %d, %s: %d ends, %d restarts, want 1, %d", i, name, log.ends, log.restarts, restarts)
			}
		}
		restarts := 0
		if doc == late {
			restarts = 1 // the single pass meets the deciding <base> after links
		}
		check("Links", &log, restarts)
		if i == 0 && strings.Join(log.keys, " ") != "lodash x" {
			t.Errorf("keys %q", log.keys)
		}
		if want := map[bool]string{false: "utf-8", true: "koi8-r"}[strings.Contains(doc, "koi8-r")]; log.charset != want {
			t.Errorf("doc %d: charset %q, want %q", i, log.charset, want)
		}
		log = referLog{}
		if _, err := Rewrite(&rewindBuffer{}, strings.NewReader(doc), o); err != nil {
			t.Fatal(err)
		}
		check("Rewrite, rewindable", &log, restarts)
		log = referLog{}
		if _, err := Rewrite(io.MultiWriter(io.Discard), strings.NewReader(doc), o); err != nil {
			t.Fatal(err)
		}
		check("Rewrite", &log, 0)
		log = referLog{}
		d, err := Open(strings.NewReader(doc), o)
		if err != nil {
			t.Fatal(err)
		}
		d.Links(func(link.Link) error { return nil })
		check("Document.Links", &log, 0)
		// A pass that fn stops has not read the document: no End.
		log = referLog{}
		stop := errors.New("stop")
		d, err = Open(strings.NewReader(doc), o)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Links(func(link.Link) error { return stop }); !errors.Is(err, stop) {
			t.Fatal(err)
		}
		if log.ends != 0 {
			t.Errorf("doc %d: End after a stopped pass", i)
		}
	}
}
