package tree

import (
	"bytes"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
)

// FuzzSavedFrom: any head either yields no URL or a URL that the head
// really carries.
func FuzzSavedFrom(f *testing.F) {
	f.Add([]byte("<!-- saved from url=(0022)https://example.org/a/ -->"))
	f.Add([]byte("<!DOCTYPE html>\r\n<!-- saved from url=(0014)about:internet -->"))
	f.Add([]byte("<!-- saved from url=(9999)x"))
	f.Fuzz(func(t *testing.T, head []byte) {
		u, ok := SavedFrom(head)
		if !ok {
			if u != "" {
				t.Fatalf("SavedFrom(%q) = %q, false", head, u)
			}
			return
		}
		if !bytes.Contains(head, []byte(u)) {
			t.Fatalf("SavedFrom(%q) = %q, not in the head", head, u)
		}
	})
}

// FuzzKindOf: the extension decides for MHTML and WARC, and whatever the
// head holds, a file named .html with a NUL byte (and no UTF-16 BOM) is
// never taken for HTML.
func FuzzKindOf(f *testing.F) {
	f.Add("a.html", []byte("<!doctype html>"))
	f.Add("x", []byte("\xff\xfe<\x00"))
	f.Add("x.htm", []byte("\x00"))
	f.Fuzz(func(t *testing.T, name string, head []byte) {
		k := base.FormatOf(name, head)
		if k < base.Other || k > base.WARC {
			t.Fatalf("FormatOf(%q, %q) = %d", name, head, k)
		}
		if strings.HasSuffix(strings.ToLower(name), ".mht") && !strings.ContainsAny(name, "/\\") && base.FormatOf(name, head) != base.MHTML {
			t.Fatalf("FormatOf(%q) = %v, want mhtml", name, k)
		}
	})
}
