package archive

import (
	"errors"
	"io"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/link"
)

// A Document is one document an archive holds, as the archive yields it:
// an MHTML part (Message.Documents, Message.RewriteDocuments) or a WARC
// record's payload (ScanWARC). The archive decides what it knows of the
// document (its bytes, its kind by package base's rule for typed content,
// its base layers below its own content) and chooses no reader: the
// caller reads it as it reads a file of that kind (package extract does).
type Document struct {
	// Body reads the document's decoded bytes from the first; it is
	// valid during the call it is given to only.
	Body io.Reader
	// Format is the document's kind by its media type and first bytes
	// (base.FormatOfContent): never base.Other, base.MHTML nor base.WARC.
	Format base.Format
	// ContentType is the document's media type with its charset, in the
	// syntax the readers parse.
	ContentType string
	// Context holds the document's base layers below its own content:
	// its header fields (§3.2: Content-Base, Content-Location; an HTTP
	// response's), the enclosing entity's base or the record's
	// WARC-Target-URI (§3.3), the default (§3.4).
	Context base.Context
	// Offset is where the document is in the archive file: an MHTML
	// part's stored body (before its transfer encoding is undone), a WARC
	// record (its start, in the file as stored: compressed or not).
	Offset int64
	// Part is an MHTML part's path ("1", "2.1"); Record and Target a WARC
	// record's offset and WARC-Target-URI. Link sets them on each link.
	Part   string
	Record int64
	Target string
	// Map, in a rewrite, writes the links that name another part of the
	// archive as Options.Local says (RFC 2557 §8) and leaves those
	// resolved against thismessage:/ as written; nil when no link needs
	// it. It is the reader's Map.
	Map func(link.Link) (string, bool)
	// Warnings are the reader's warnings about the document, appended by
	// the caller: a WARC scan reports them with the record's offset
	// (WARCStats.Warnings).
	Warnings []string

	m    *Message // the MHTML message, for TargetPart
	warc bool
}

// Own returns the base the reader decided for the document (its <base>
// on its layers, or its layers' own) as the archive reports it: in an
// MHTML archive, RFC 2557's thismessage:/ handed down to the part is the
// default layer, whatever carried it.
func (d *Document) Own(b base.Result) base.Result {
	if d.m != nil {
		return thisMessage(b)
	}
	return b
}

// Link gives the link l of the document its place in the archive: the
// part it is in and the part its URL names (Link.TargetPart), or the
// record it is in and that record's target.
func (d *Document) Link(l *link.Link) {
	switch {
	case d.m != nil:
		l.Part = d.Part
		if l.URL != "" {
			if t := d.m.Find(l.URL); t != nil {
				l.TargetPart = t.Path
			}
		}
	case d.warc:
		l.Record, l.Target = d.Record, d.Target
	}
}

// A DocumentError is what a document's reader found wrong with the
// document itself, returned by the caller's function to the archive:
// the archive notes it and reads on (a part's warning; a WARC record
// error), or, for an MHTML part the reader failed on, stops with an
// *Error naming the part. Any other error the function returns stops the
// archive as it is.
type DocumentError struct {
	Err error
	// Unread says the document was not read at all: its bytes are in an
	// encoding that cannot be read as they are (ISO-2022-JP, UTF-16 where
	// it cannot be, "replacement"). That is no error of the archive, and
	// is said as a warning ("not read for links: ...", "left as stored:
	// ...").
	Unread bool
}

func (e *DocumentError) Error() string { return e.Err.Error() }

// Text is the error without the package names, as a command shows it.
func (e *DocumentError) Text() string  { return errtext.Of(e.Err) }
func (e *DocumentError) Unwrap() error { return e.Err }

// documentError returns err's *DocumentError, if it is one.
func documentError(err error) (*DocumentError, bool) {
	return errors.AsType[*DocumentError](err)
}

// PartStats is what a part's rewrite did, as the caller of
// RewriteDocuments reports it.
type PartStats struct {
	Links     int // URL values seen
	Rewritten int // values changed
	Failed    int // values that could not be resolved (left as written)
	Mapped    int // values changed by Document.Map
	// Changed reports whether the rewrite wrote anything other than the
	// body's bytes (a streamed part's, which is not compared here).
	Changed bool
}
