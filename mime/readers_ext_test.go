package mime_test

import (
	"io"

	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/mime"
)

func init() {
	mime.SetReaders(
		func(d *mime.Document, o mime.Options, fn func(link.Link) error) error {
			return extract.ArchivedLinks(d, options(o), fn)
		},
		func(dst io.Writer, d *mime.Document, o mime.Options) (mime.PartStats, error) {
			return extract.RewriteArchived(dst, d, options(o))
		})
}

// options are extract's options for an archive read with o.
func options(o mime.Options) extract.Options {
	return extract.Options{MIME: o, HTML: htmlrewrite.Options{Spec: o.Spec}}
}
