package main

import (
	"io"
	"os"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/harvest"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/linkfilter"
	"github.com/relurl/relurl/wat"
)

// watLinks reads the links of the WAT file src for `relurl links
// --input-format wat`, through hv's filter and resolved under its spec,
// each given to fn as a WARC record's link.
func watLinks(src io.Reader, hv *harvest.Reader, fn func(base.Format, *link.Link) error, onRecordError func(*archive.RecordError) error) harvest.Result {
	// A file or a stream is decompressed ahead of the links on a
	// goroutine of its own.
	o := wat.Options{Spec: hv.Spec, Pipelined: true}
	o.Stream, _ = src.(*archive.Stream)
	st, err := wat.LinksWith(src, o, func(l link.Link) error {
		if l.Err == nil {
			u, ok := hv.Filter.Apply(l.Kind, l.URL, linkfilter.Site{Document: l.Target})
			if !ok {
				return nil
			}
			l.URL = u
		}
		return fn(base.WARC, &l)
	}, onRecordError)
	return harvest.Result{Records: st.Records, RecordErrors: st.RecordErrors, Err: err}
}

// watFileLinks is watLinks of the file path.
func watFileLinks(path string, hv *harvest.Reader, fn func(base.Format, *link.Link) error, onRecordError func(*archive.RecordError) error) harvest.Result {
	f, err := os.Open(path)
	if err != nil {
		return harvest.Result{Err: err}
	}
	defer f.Close()
	return watLinks(f, hv, fn, onRecordError)
}
