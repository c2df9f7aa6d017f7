package wat_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/wat"
)

// ccRecord is a metadata record as Common Crawl's WAT files have it
// (webarchive-commons: no relurl-kind, no Relurl-Base).
const ccJSON = `{"Envelope":{"Format":"WARC","WARC-Header-Metadata":{"WARC-Type":"response","WARC-Target-URI":"https://www.example.com/a/page.html"},"Payload-Metadata":{"Actual-Content-Type":"application/http; msgtype=response","HTTP-Response-Metadata":{"Response-Message":{"Version":"HTTP/1.1","Status":"200","Reason":"OK"},"Headers":{"Content-Type":"text/html","Link":"</hdr.css>; rel=preload"},"HTML-Metadata":{"Head":{"Title":"T","Base":"../b/","Link":[{"path":"LINK@/href","url":"s.css","rel":"stylesheet"}],"Scripts":[{"path":"SCRIPT@/src","url":"x.js"}]},"Links":[{"path":"A@/href","url":"next.html","text":"next"},{"path":"IMG@/src","url":"i.png"},{"path":"STYLE/#text","url":"bg.png"},{"path":"FORM@/action","url":"/go"}]}}}}}`

func record(block string) string {
	return fmt.Sprintf("WARC/1.0\r\nWARC-Type: metadata\r\nWARC-Target-URI: https://www.example.com/a/page.html\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", len(block), block)
}

// TestLinksCommonCrawl reads a Common Crawl-style record: kinds from the
// paths, Head.Base resolved against the target and deciding, the Link
// header against the target.
func TestLinksCommonCrawl(t *testing.T) {
	var got []string
	st, err := wat.Links(strings.NewReader(record(ccJSON)), resolve.WHATWG, func(l link.Link) error {
		got = append(got, fmt.Sprintf("%s %s %s %s %s %s", l.Tag, l.Attr, l.Kind, l.URL, l.Base.URL, l.Base.Source))
		return nil
	}, nil)
	if err != nil || st.Records != 1 {
		t.Fatalf("%v, %d records", err, st.Records)
	}
	want := []string{
		" link header https://www.example.com/hdr.css https://www.example.com/a/page.html retrieval",
		"link href resource https://www.example.com/b/s.css https://www.example.com/b/ embedded",
		"script src resource https://www.example.com/b/x.js https://www.example.com/b/ embedded",
		"a href navigation https://www.example.com/b/next.html https://www.example.com/b/ embedded",
		"img src resource https://www.example.com/b/i.png https://www.example.com/b/ embedded",
		"style  css https://www.example.com/b/bg.png https://www.example.com/b/ embedded",
		"form action form https://www.example.com/go https://www.example.com/b/ embedded",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLinksBadJSON: a record whose JSON does not parse is a record error,
// and the next record is read.
func TestLinksBadJSON(t *testing.T) {
	var errs []string
	n := 0
	_, err := wat.Links(strings.NewReader(record("{not json")+record(ccJSON)), resolve.WHATWG, func(link.Link) error { n++; return nil },
		func(e *archive.RecordError) error { errs = append(errs, e.Error()); return nil })
	if err != nil || len(errs) != 1 || n != 7 {
		t.Fatalf("err %v, record errors %q, %d links", err, errs, n)
	}
}

func TestPath(t *testing.T) {
	for _, c := range [][3]string{{"a", "href", "A@/href"}, {"style", "", "STYLE/#text"}, {"img", "srcset", "IMG@/srcset"}} {
		if got := wat.Path(c[0], c[1]); got != c[2] {
			t.Errorf("Path(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
