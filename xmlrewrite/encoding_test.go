package xmlrewrite

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
)

// TestEncoding: the document's encoding is the open step's decision
// (base.XMLEncoding: XML 1.0 §4.3.3, Appendix F, RFC 7303 §3.2); one the
// scanner cannot read as bytes (UTF-16, UTF-32, EBCDIC) is refused with
// htmlrewrite.ErrEncoding, by Rewrite and Links alike, and any other is
// read as it is.
func TestEncoding(t *testing.T) {
	const svg = `<svg xmlns="http://www.w3.org/2000/svg"><image href="a.png"/></svg>`
	wide := func(s string, be bool) string {
		var b strings.Builder
		for _, c := range []byte(s) {
			if be {
				b.WriteByte(0)
			}
			b.WriteByte(c)
			if !be {
				b.WriteByte(0)
			}
		}
		return b.String()
	}
	for _, c := range []struct {
		name, doc, contentType string
		refused                string // the encoding named in the error; "" when read
	}{
		{"F.1 BOM FE FF", "\xfe\xff" + wide(svg, true), "", "utf-16be"},
		{"F.1 BOM FF FE", "\xff\xfe" + wide(svg, false), "", "utf-16le"},
		{"F.1 no BOM 00 3C", wide(svg, true), "", "utf-16be"},
		{"F.1 no BOM 3C 00", wide(svg, false), "", "utf-16le"},
		{"F.1 BOM 00 00 FE FF", "\x00\x00\xfe\xff\x00\x00\x00<", "", "utf-32be"},
		{"F.1 no BOM 00 00 00 3C", "\x00\x00\x00<\x00\x00\x00s", "", "utf-32be"},
		{"F.1 EBCDIC 4C 6F A7 94", "\x4c\x6f\xa7\x94\x93\x40", "", "ebcdic"},
		{"RFC 7303 §3.2 charset utf-16", svg, "image/svg+xml; charset=utf-16", "utf-16le"},
		{"UTF-8", svg, "", ""},
		{"UTF-8 BOM", "\xef\xbb\xbf" + svg, "", ""},
		{"§4.3.3 declared koi8-r", `<?xml version="1.0" encoding="koi8-r"?>` + svg, "", ""},
		{"declared UTF-16 in ASCII bytes", `<?xml version="1.0" encoding="UTF-16"?>` + svg, "", ""},
		{"RFC 7303 §3.2 charset koi8-r", svg, "image/svg+xml; charset=koi8-r", ""},
		// Options.Charset: the open step's decision, taken as it is.
		{"decided utf-16le", svg, "charset=utf-16le", "utf-16le"},
	} {
		o := opts("http://ex.com/d/i.svg")
		o.ContentType = c.contentType
		if cs, ok := strings.CutPrefix(c.contentType, "charset="); ok {
			o.ContentType, o.Charset = "image/svg+xml; charset=koi8-r", cs
		}
		var out bytes.Buffer
		_, err := Rewrite(&out, strings.NewReader(c.doc), o)
		_, lerr := Links(strings.NewReader(c.doc), o, func(link.Link) error { return nil })
		switch {
		case c.refused == "":
			if err != nil || lerr != nil {
				t.Errorf("%s: %v, %v", c.name, err, lerr)
			} else if !strings.Contains(out.String(), `href="http://ex.com/d/a.png"`) {
				t.Errorf("%s: rewrote %q", c.name, out.String())
			}
		case !errors.Is(err, htmlrewrite.ErrEncoding) || !errors.Is(lerr, htmlrewrite.ErrEncoding) || !strings.HasSuffix(err.Error(), ": "+c.refused):
			t.Errorf("%s: errors %v, %v; want ErrEncoding %s", c.name, err, lerr, c.refused)
		}
	}
	// What the first bytes would say (3C 00: UTF-16LE) is not said again.
	o := opts("http://ex.com/d/i.svg")
	o.Charset = "utf-8"
	if _, err := Rewrite(&bytes.Buffer{}, strings.NewReader("<\x00s\x00"), o); err != nil {
		t.Errorf("decided utf-8: %v", err)
	}
}
