package token

import (
	"bytes"
	"strings"
	"testing"
)

// TestReset: a tokenizer Reset to an input splits it into the tokens a new
// one does, whatever state the previous input left it in (inside raw
// text, script data, a comment, a tag with many attributes, after an
// error, with settings changed), and Reset keeps its buffer.
func TestReset(t *testing.T) {
	before := []string{
		"<title>unterminated",
		"<script><!--<script>",
		"<!-- comment",
		"<plaintext>",
		`<p ` + strings.Repeat(`a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10 k=11 l=12 m=13 n=14 o=15 p=16 q=17 A=18 `, 2),
		"<a href=x",
		strings.Repeat("x", 9000),
	}
	inputs := []string{
		"",
		"plain",
		`<!DOCTYPE html><html><head><meta charset="koi8-r"><title>t</title>`,
		`<meta a=1 A=2 b=3><style>p{}</style><textarea><b></textarea>`,
		"<![CDATA[x]]><svg><![CDATA[y]]></svg>",
	}
	for _, b := range before {
		for _, in := range inputs {
			z := NewTokenizer(strings.NewReader(b))
			z.SetChunk(3)
			z.SetMaxBuf(64)
			z.AllowCDATA(true)
			for z.Next() != ErrorToken {
			}
			z.Reset(strings.NewReader(in))
			buf := z.buf[:cap(z.buf)]
			got := tokens(z)
			want := tokens(NewTokenizer(strings.NewReader(in)))
			if got != want {
				t.Errorf("after %.20q, Reset(%q):\n got %s\nwant %s", b, in, got, want)
			}
			if len(in) < cap(buf) && &z.buf[:cap(z.buf)][0] != &buf[0] {
				t.Errorf("after %.20q, Reset(%q) did not keep the buffer", b, in)
			}
		}
	}
	var z Tokenizer // a zero Tokenizer becomes a working one
	z.Reset(strings.NewReader("<meta charset=x>"))
	if got, want := tokens(&z), tokens(NewTokenizer(strings.NewReader("<meta charset=x>"))); got != want {
		t.Errorf("zero Tokenizer: got %s, want %s", got, want)
	}
}

// tokens describes every token of z: type, raw bytes, tag name and
// attributes, and the final error.
func tokens(z *Tokenizer) string {
	var b bytes.Buffer
	for {
		tt := z.Next()
		if tt == ErrorToken {
			b.WriteString("error " + z.Err().Error())
			return b.String()
		}
		raw := z.Raw()
		b.WriteString(tt.String() + " " + string(raw))
		name, attrs := z.Tag(nil)
		if tt == StartTagToken || tt == SelfClosingTagToken {
			b.WriteString(" name=" + string(raw[name[0]:name[1]]))
			for _, a := range attrs {
				b.WriteString(" " + string(raw[a.Key[0]:a.Key[1]]) + "=" + string(raw[a.Val[0]:a.Val[1]]))
			}
		}
		b.WriteString("|")
	}
}
