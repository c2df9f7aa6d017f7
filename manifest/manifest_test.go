package manifest

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

const manifestURL = "https://app.example/pwa/manifest.webmanifest"

func opts() Options {
	return Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: manifestURL}}}
}

// TestLinks: docs/formats.md §5 and checklist #12 — every URL member against
// the manifest URL, id against start_url's origin, protocol handler %s
// kept; members that are not URLs (name, sizes, type, protocol, purpose)
// are not reported wherever they are.
func TestLinks(t *testing.T) {
	m := `{"name":"icons/x.png","start_url":"./?src=pwa","id":"app","scope":".",` +
		`"icons":[{"src":"icons\/192.png","sizes":"192x192","type":"image/png","purpose":"any"}],` +
		`"shortcuts":[{"name":"s","url":"s\u002ehtml","icons":[{"src":"i.png"}]}],` +
		`"protocol_handlers":[{"protocol":"web+x","url":"handle?u=%s"}],` +
		`"share_target":{"action":"share","method":"GET"},"related_applications":[{"platform":"web","url":"https://o.example/x"}],` +
		`"nested":{"start_url":"no"},"theme_color":"#fff","display":"standalone"}`
	var got []string
	_, err := Links(strings.NewReader(m), opts(), func(l link.Link) error {
		if l.Kind != link.Manifest || l.Err != nil {
			t.Errorf("%+v", l)
		}
		if m[l.Offset] == '"' {
			t.Errorf("offset %d is the quote", l.Offset)
		}
		got = append(got, l.Attr+" "+l.URL)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"start_url https://app.example/pwa/?src=pwa",
		"id https://app.example/app",
		"scope https://app.example/pwa/",
		"icons[].src https://app.example/pwa/icons/192.png",
		"shortcuts[].url https://app.example/pwa/s.html",
		"shortcuts[].icons[].src https://app.example/pwa/i.png",
		"protocol_handlers[].url https://app.example/pwa/handle?u=%s",
		"share_target.action https://app.example/pwa/share",
		"related_applications[].url https://o.example/x",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRewrite(t *testing.T) {
	in := "{\n  \"start_url\": \"../start\",\n  \"icons\": [ { \"src\" : \"a\\/b \\\"c\\\".png\" } ],\n  \"name\": \"x\"\n}\n"
	want := "{\n  \"start_url\": \"https://app.example/start\",\n  \"icons\": [ { \"src\" : \"https://app.example/pwa/a/b%20%22c%22.png\" } ],\n  \"name\": \"x\"\n}\n"
	var b bytes.Buffer
	if _, err := Rewrite(&b, strings.NewReader(in), opts()); err != nil {
		t.Fatal(err)
	}
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	// Idempotence and identity: nothing left to change.
	var again bytes.Buffer
	st, err := Rewrite(&again, strings.NewReader(want), opts())
	if err != nil || again.String() != want || st.Rewritten != 0 {
		t.Errorf("second rewrite: %q, %+v, %v", again.String(), st, err)
	}
	// Not JSON: copied unchanged, with an error.
	var bad bytes.Buffer
	if _, err := Rewrite(&bad, strings.NewReader(`{"a":`), opts()); err == nil || bad.String() != `{"a":` {
		t.Errorf("bad JSON: %q, %v", bad.String(), err)
	}
}

func FuzzRewrite(f *testing.F) {
	f.Add(`{"start_url":"./?a","icons":[{"src":"\ud83d\ude00.png"}],"id":"x"}`)
	f.Add(`[1,{"a":[true,null,-1e5]}]`)
	f.Fuzz(func(t *testing.T, m string) {
		var b bytes.Buffer
		_, err := Rewrite(&b, strings.NewReader(m), opts())
		if err != nil && b.String() != m {
			t.Fatalf("failed rewrite changed the input")
		}
		if err == nil {
			var again bytes.Buffer
			Rewrite(&again, strings.NewReader(b.String()), opts())
			if _, err := Links(strings.NewReader(b.String()), opts(), func(link.Link) error { return nil }); err != nil {
				t.Fatalf("output is not a manifest: %v", err)
			}
		}
	})
}

// A manifest nested deeper than the parser goes is refused by name, not
// as "not a JSON object".
func TestTooDeep(t *testing.T) {
	doc := `{"icons":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`
	_, err := Links(strings.NewReader(doc), Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG}}}, func(link.Link) error { return nil })
	var e *link.IncompleteError
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "nested deeper than 512 levels") || errors.Is(err, ErrSyntax) {
		t.Errorf("err = %v", err)
	}
}
