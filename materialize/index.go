package materialize

import (
	"bytes"
	"cmp"
	"encoding/json"
	"html"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/relurl/relurl/internal/errtext"
)

// A URLRecord is one line of DIR/urls.jsonl: a captured URL and its file.
type URLRecord struct {
	URL         string `json:"url"`                // the captured URL (the capture chosen)
	File        string `json:"file"`               // its file, slash-separated, relative to DIR
	Kind        string `json:"kind"`               // "page", "resource", "redirect", or "stale" (a file of an earlier run, kept: only url, file and file_digest are set)
	Status      int    `json:"status"`             // HTTP status; 200 for resource records and MHTML parts
	ContentType string `json:"content_type"`       // as captured ("" when none)
	Time        string `json:"time"`               // capture time, RFC 3339 ("" when unknown)
	Digest      string `json:"digest"`             // payload digest: WARC-Payload-Digest, else "sha1:" and the base32 SHA-1 of the payload
	Redirect    string `json:"redirect,omitempty"` // for a redirect, where its chain ends
	Rewritten   bool   `json:"rewritten"`          // links were pointed at the tree, so the file differs from the payload
	Revisit     bool   `json:"revisit,omitempty"`  // the capture is a revisit; the payload is its original's
	Input       string `json:"input"`              // the input (and WARC inside a WACZ) the payload was read from
	FileDigest  string `json:"file_digest"`        // "sha256:" and the hex SHA-256 of the file as written: a later run removes it as stale only if it still holds these bytes
}

// writeIndex writes DIR/urls.jsonl (every URL of the tree) and
// DIR/index.html (the pages, by host).
func (r *run) writeIndex() {
	var jsonl bytes.Buffer
	enc := json.NewEncoder(&jsonl)
	enc.SetEscapeHTML(false)
	type page struct{ url, file, title string }
	byHost := map[string][]page{}
	for _, e := range r.entries {
		if !e.written {
			continue
		}
		c := e.c
		rec := URLRecord{
			URL: c.url, File: e.file, Kind: e.kind, Status: c.status, ContentType: c.ctype,
			Digest: c.digest, Redirect: e.final, Revisit: c.orig != c,
			Rewritten:  e.rewritten,
			Input:      r.streams[c.orig.stream].String(),
			FileDigest: fileDigest(e.sum),
		}
		if !c.date.IsZero() {
			rec.Time = c.date.UTC().Format(time.RFC3339)
		}
		enc.Encode(rec)
		if e.kind == "page" {
			w := c.webURL()
			host := w.Host()
			if host == "" {
				host = w.Scheme() + ":"
			}
			byHost[host] = append(byHost[host], page{c.url, e.file, e.title})
		}
	}
	for _, rec := range r.kept {
		enc.Encode(rec)
	}
	if err := r.put("urls.jsonl", jsonl.Bytes()); err != nil {
		r.problem(r.opts.Dir, "urls.jsonl", errtext.Of(err))
	}
	var b strings.Builder
	b.WriteString(indexHead)
	rel := relativizer("index.html")
	for _, host := range slices.Sorted(maps.Keys(byHost)) {
		pages := byHost[host]
		slices.SortFunc(pages, func(a, b page) int { return cmp.Compare(a.url, b.url) })
		b.WriteString("<h2>" + html.EscapeString(host) + "</h2>\n<ul>\n")
		for _, p := range pages {
			b.WriteString("<li><a href=\"" + html.EscapeString(rel(p.file)) + "\">" + html.EscapeString(p.url) + "</a>")
			if p.title != "" {
				b.WriteString(" — " + html.EscapeString(p.title))
			}
			b.WriteString("</li>\n")
		}
		b.WriteString("</ul>\n")
	}
	b.WriteString("</body></html>\n")
	if err := r.put("index.html", []byte(b.String())); err != nil {
		r.problem(r.opts.Dir, "index.html", errtext.Of(err))
	}
}
