package archive_test

import (
	"io"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
)

func init() {
	archive.SetReaders(
		func(d *archive.Document, o archive.Options, fn func(link.Link) error) error {
			return extract.ArchivedLinks(d, options(o), fn)
		},
		func(dst io.Writer, d *archive.Document, o archive.Options) (archive.PartStats, error) {
			return extract.RewriteArchived(dst, d, options(o))
		})
}

// options are extract's options for an archive read with o.
func options(o archive.Options) extract.Options {
	return extract.Options{MIME: o, HTML: htmlrewrite.Options{Document: link.Document{Context: base.Context{Spec: o.Spec}}}}
}
