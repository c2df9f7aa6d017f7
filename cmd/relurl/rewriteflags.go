package main

import (
	"flag"
	"fmt"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/htmlrewrite"
)

// addRewriteFlags binds the flags that choose how documents are rewritten
// (htmlrewrite.Options and archive.Options.Local) to fs.
func addRewriteFlags(fs *flag.FlagSet, t *treeFlags) {
	fs.Func("base-element", `what becomes of <base href> elements: "keep" (default), "remove", or "absolute" (the deciding one's href set to the absolute base)`, func(v string) error {
		m, ok := map[string]htmlrewrite.BaseMode{"keep": htmlrewrite.BaseKeep, "remove": htmlrewrite.BaseRemove, "absolute": htmlrewrite.BaseAbsolute}[v]
		if !ok {
			return fmt.Errorf(`want "keep", "remove" or "absolute"`)
		}
		t.html.Base = m
		return nil
	})
	fs.BoolVar(&t.html.Absolute, "absolute", false, "also resolve references that carry a scheme, normalizing them (mailto:, javascript: and data: change too)")
	fs.BoolVar(&t.html.Fragments, "fragments", false, `make fragment-only references ("#top") absolute too (a saved page's in-page links then lead to the live site)`)
	fs.BoolVar(&t.html.Srcdoc, "srcdoc", false, "rewrite the documents inside <iframe srcdoc> too")
	fs.BoolVar(&t.html.LazyLoad, "lazy-load", false, "treat lazy-loading attributes (data-src, data-srcset, data-original, ...) as links")
	fs.Func("local", `MHTML: write a link that names a part of the archive as "cid" (the part's cid: URL) or "location" (its Content-Location), so the saved page stays self-contained; default "none"`, func(v string) error {
		m, ok := map[string]archive.LocalMode{"none": archive.LocalNone, "cid": archive.LocalCID, "location": archive.LocalLocation}[v]
		if !ok {
			return fmt.Errorf(`want "none", "cid" or "location"`)
		}
		t.local = m
		return nil
	})
}
