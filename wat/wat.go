// Package wat reads and writes WAT files (Web Archive Transformation),
// the WARC files of JSON metadata records Common Crawl publishes beside
// every crawl WARC, which its web-graph jobs read in place of the HTML.
//
// A WAT record is a WARC "metadata" record of Content-Type
// application/json whose block is an Envelope: the source record's WARC
// headers, its HTTP status and headers, and for HTML the head (title,
// base, metas, head links, scripts) and the links, each as written with
// its place as a path such as "A@/href" (element, then attribute) or
// "STYLE/#text" (in an element's text), in the vocabulary of IIPC's
// webarchive-commons, which produces Common Crawl's WAT files.
//
// Links reads the links of a WAT file resolved as relurl resolves a
// page's links (the embedded base, Head.Base, then the retrieval URL,
// WARC-Target-URI). Converter writes a WAT file for WARC files from the
// link records of `relurl links`, adding what webarchive-commons does not
// report (srcset candidates, CSS url() and @import, SVG links, the base
// that decided and its layer).
package wat

// Envelope is the JSON of a WAT metadata record, the fields this package
// writes and reads.
type Envelope struct {
	Envelope Body `json:"Envelope"`
}

// Body is what an Envelope holds.
type Body struct {
	Format             string            `json:"Format"`
	WARCHeaderLength   string            `json:"WARC-Header-Length,omitempty"`
	WARCHeaderMetadata map[string]string `json:"WARC-Header-Metadata"`
	PayloadMetadata    PayloadMetadata   `json:"Payload-Metadata"`
}

// PayloadMetadata is the metadata of the source record's payload.
type PayloadMetadata struct {
	ActualContentType    string                `json:"Actual-Content-Type,omitempty"`
	HTTPResponseMetadata *HTTPResponseMetadata `json:"HTTP-Response-Metadata,omitempty"`
}

// HTTPResponseMetadata is the HTTP response of a response record.
type HTTPResponseMetadata struct {
	ResponseMessage ResponseMessage   `json:"Response-Message"`
	Headers         map[string]string `json:"Headers"`
	HTMLMetadata    *HTMLMetadata     `json:"HTML-Metadata,omitempty"`
}

// ResponseMessage is an HTTP status line.
type ResponseMessage struct {
	Version string `json:"Version"`
	Status  string `json:"Status"`
	Reason  string `json:"Reason"`
}

// HTMLMetadata is what an HTML payload holds: its head and its links.
type HTMLMetadata struct {
	Head  Head   `json:"Head"`
	Links []Link `json:"Links"`
	// Base is the base the links were resolved against and its §3
	// layer, which webarchive-commons does not report: a consumer that
	// reads it need not decide the base again.
	Base *BaseDecided `json:"Relurl-Base,omitempty"`
}

// Head is an HTML page's head.
type Head struct {
	Title   string              `json:"Title,omitempty"`
	Base    string              `json:"Base,omitempty"`
	Metas   []map[string]string `json:"Metas,omitempty"`
	Link    []Link              `json:"Link,omitempty"`
	Scripts []Link              `json:"Scripts,omitempty"`
}

// Link is one link entry: its path ("A@/href", "STYLE/#text") and its URL
// as written. Rel, Text, Title and Alt are kept when present. Kind is
// the relurl link kind, written for every entry so that a reader need not
// map paths back.
type Link struct {
	Path  string `json:"path"`
	URL   string `json:"url"`
	Rel   string `json:"rel,omitempty"`
	Text  string `json:"text,omitempty"`
	Title string `json:"title,omitempty"`
	Alt   string `json:"alt,omitempty"`
	Kind  string `json:"relurl-kind,omitempty"`
}

// BaseDecided is the base a record's links were resolved against.
type BaseDecided struct {
	URL    string `json:"url"`
	Source string `json:"source"`
}
