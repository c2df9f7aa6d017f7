package archive_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// A saved page with a relative Content-Location: RFC 2557 §9.3's layout.
// A saved page laid out as RFC 2557 §9.3: relative Content-Locations
// under the multipart heading's. LF-only line ends are accepted.
const page = "MIME-Version: 1.0\n" +
	"Content-Location: http://www.example.org/\n" +
	"Content-Type: multipart/related; boundary=b; type=text/html\n" +
	"\n" +
	"--b\n" +
	"Content-Type: text/html\n" +
	"Content-Location: docs/index.html\n" +
	"\n" +
	"<img src=\"logo.gif\"> <a href=\"/about\">about</a>\n" +
	"--b\n" +
	"Content-Type: image/gif\n" +
	"Content-Location: docs/logo.gif\n" +
	"Content-Transfer-Encoding: base64\n" +
	"\n" +
	"R0lGODlhAQABAAAAACw=\n" +
	"--b--\n"

func ExampleParse() {
	m, err := archive.Parse([]byte(page), archive.Options{Spec: resolve.RFC3986})
	if err != nil {
		panic(err)
	}
	for _, p := range m.Parts() {
		fmt.Printf("part %q %s: base %s (%s)\n", p.Path, p.MediaType, p.Base.URL, p.Base.Detail)
	}
	fmt.Println("logo is part", m.Find("http://www.example.org/docs/logo.gif").Path)
	// Output:
	// part "" multipart/related: base http://www.example.org/ (Content-Location of the message)
	// part "1" text/html: base http://www.example.org/docs/index.html (Content-Location of part 1 (relative, resolved against the composite base))
	// part "2" image/gif: base http://www.example.org/docs/logo.gif (Content-Location of part 2 (relative, resolved against the composite base))
	// logo is part 2
}

// The archive yields its documents, and package extract reads each as a
// file of its kind, with the part it is in and the part a link names.
func ExampleMessage_Documents() {
	o := archive.Options{Spec: resolve.WHATWG}
	m, err := archive.Parse([]byte(page), o)
	if err != nil {
		panic(err)
	}
	err = m.Documents(func(d *archive.Document) error {
		return extract.ArchivedLinks(d, extract.Options{MIME: o}, func(l link.Link) error {
			fmt.Printf("part %s: %s %s=%q -> %s (in archive: %q)\n", l.Part, l.Tag, l.Attr, l.Raw, l.URL, l.TargetPart)
			return nil
		})
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// part 1: img src="logo.gif" -> http://www.example.org/docs/logo.gif (in archive: "2")
	// part 1: a href="/about" -> http://www.example.org/about (in archive: "")
}

func ExampleMessage_RewriteDocuments() {
	o := archive.Options{Spec: resolve.WHATWG}
	m, err := archive.Parse([]byte(page), o)
	if err != nil {
		panic(err)
	}
	_, err = m.RewriteDocuments(os.Stdout, func(w io.Writer, d *archive.Document) (archive.PartStats, error) {
		return extract.RewriteArchived(w, d, extract.Options{MIME: o})
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// MIME-Version: 1.0
	// Content-Location: http://www.example.org/
	// Content-Type: multipart/related; boundary=b; type=text/html
	//
	// --b
	// Content-Type: text/html
	// Content-Location: docs/index.html
	//
	// <img src="http://www.example.org/docs/logo.gif"> <a href="http://www.example.org/about">about</a>
	// --b
	// Content-Type: image/gif
	// Content-Location: docs/logo.gif
	// Content-Transfer-Encoding: base64
	//
	// R0lGODlhAQABAAAAACw=
	// --b--
}

func ExampleNewWARCReader() {
	f, err := os.Open("../testdata/warc/example.warc.gz")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	w := archive.NewWARCReader(f)
	for {
		rec, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		fmt.Println(strings.TrimSpace(fmt.Sprint(rec.Offset, " ", rec.Type, " ", rec.TargetURI)))
	}
	// Output:
	// 0 warcinfo
	// 353 warcinfo
	// 784 response http://example.com/
	// 2012 request http://example.com/
	// 2621 revisit http://example.com/
	// 3207 request http://example.com/
}

// ScanWARC gives each record's own links (a redirect, a Link header) and
// each payload, which package extract reads as a file of its kind.
func ExampleScanWARC() {
	f, err := os.Open("../testdata/mime/redirects.warc.gz")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	o := archive.Options{Spec: resolve.WHATWG}
	show := func(l link.Link) error {
		if l.Target == "http://a.example/start" || l.Target == "http://a.example/next" {
			fmt.Printf("%d %s %s %q -> %s\n", l.Record, l.Target, l.Kind, l.Raw, l.URL)
		}
		return nil
	}
	_, err = archive.ScanWARC(f, o, archive.WARCHandler{
		Link:     show,
		Document: func(d *archive.Document) error { return extract.ArchivedLinks(d, extract.Options{MIME: o}, show) },
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// 146 http://a.example/start redirect "/next" -> http://a.example/next
	// 146 http://a.example/start navigation "/next" -> http://a.example/next
	// 146 http://a.example/start navigation "x" -> http://a.example/x
	// 377 http://a.example/next redirect "https://b.example/final" -> https://b.example/final
}

// A .warc.gz whose middle member is damaged: the damaged record is a
// RecordError, between the links of the others.
func ExampleScanWARC_recordError() {
	var file bytes.Buffer
	var offsets []int
	for _, name := range []string{"a", "b", "c"} {
		doc := `<a href="` + name + `.html">` + name + `</a>`
		http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + doc
		offsets = append(offsets, file.Len())
		z := gzip.NewWriter(&file)
		fmt.Fprintf(z, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.test/%s/\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", name, len(http), http)
		z.Close()
	}
	data := file.Bytes()
	data[offsets[2]-8] ^= 0xff // the second member's CRC-32
	o := archive.Options{Spec: resolve.WHATWG}
	stats, err := archive.ScanWARC(bytes.NewReader(data), o, archive.WARCHandler{
		Document: func(d *archive.Document) error {
			return extract.ArchivedLinks(d, extract.Options{MIME: o}, func(l link.Link) error {
				fmt.Println(l.Record, l.URL)
				return nil
			})
		},
		RecordError: func(e *archive.RecordError) error {
			fmt.Println(e)
			return nil
		},
	})
	fmt.Println(stats.Records, stats.Documents, stats.RecordErrors, err)
	// Output:
	// 0 http://example.test/a/a.html
	// archive: record at 158 (http://example.test/b/): corrupt compressed data: gzip: invalid checksum; resumed at 317
	// 317 http://example.test/c/c.html
	// 3 2 1 <nil>
}
