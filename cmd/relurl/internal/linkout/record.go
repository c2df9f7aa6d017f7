package linkout

import (
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/link"
)

// linkRecord is one line of the JSON Lines output.
type linkRecord struct {
	Raw    string   `json:"raw"`
	URL    string   `json:"url,omitempty"`
	Error  string   `json:"error,omitempty"`
	Tag    string   `json:"tag"`
	Attr   string   `json:"attr"`
	Kind   string   `json:"kind"`
	Rel    []string `json:"rel"`
	Line   int      `json:"line"`
	Column int      `json:"column"`
	Offset int64    `json:"offset"`
	File   string   `json:"file"`
	// FileEncoding is "percent" when File is not valid UTF-8 and was
	// percent-encoded (tree.JSONName); absent otherwise.
	FileEncoding string  `json:"file_encoding,omitempty"`
	Part         *string `json:"part,omitempty"`        // MHTML: the part the link is in
	TargetPart   string  `json:"target_part,omitempty"` // MHTML: the part the URL names
	Record       *int64  `json:"record,omitempty"`      // WARC: the record's offset
	Target       string  `json:"target,omitempty"`      // WARC: the record's target URI
	Base         string  `json:"base"`
	BaseSource   string  `json:"base_source"`
	// Inert: the link is in the inert contents of an HTML <template>
	// (link.Link.Inert); absent otherwise.
	Inert bool `json:"inert,omitempty"`

	// cache holds the encodings of File, Base and BaseSource, which stay
	// the same across a document's records; nil: none.
	cache *recordCache
}

// record fills r with the JSON record of l, found in the file the records
// name name (tree.JSONName: nameEncoding is its file_encoding), its error
// in the user's terms; the MHTML and WARC fields are the caller's to set.
func record(r *linkRecord, l *link.Link, name, nameEncoding string, m *Mode) {
	b := &l.Base
	*r = linkRecord{
		Raw: l.Raw, URL: l.URL, Tag: l.Tag, Attr: l.Attr, Kind: l.Kind.String(), Rel: l.Rel,
		Line: l.Line, Column: l.Column, Offset: l.Offset, File: name, FileEncoding: nameEncoding,
		Base: b.URL, BaseSource: b.Source.String(), Inert: l.Inert,
	}
	if l.Err != nil {
		r.Error = errtext.Of(l.Err) // data, in the user's terms too
	}
}
