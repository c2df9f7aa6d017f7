package htmlrewrite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/internal/token"
)

// lexTag is the reference for tagOf: it lexes the start tag raw (from its
// "<" to its ">") step for step as x/net/html's readTag, readTagAttrKey
// and readTagAttrVal do (HTML Standard §13.2.5.32–13.2.5.40).
func lexTag(raw []byte, t *tag) {
	t.attrs = t.attrs[:0]
	t.seen = 0
	n := len(raw)
	i := 1
	for i < n { // readTagName
		c := raw[i]
		if isSpace(c) || c == '/' || c == '>' {
			break
		}
		i++
	}
	t.name, t.id = nil, tagOther
	if l := lower(&t.lower, raw[1:i]); l >= 0 {
		t.name, t.id = t.lower[:l], tagIDOf(t.lower[:l])
	}
	if i < n && isSpace(raw[i]) {
		i++
	}
	var key [maxName]byte
	for {
		for i < n && isSpace(raw[i]) {
			i++
		}
		if i >= n || raw[i] == '>' {
			return
		}
		// readTagAttrKey: a leading "=" is part of the name.
		k0 := i
		for i < n {
			c := raw[i]
			if c == '=' && i == k0 {
				i++
				continue
			}
			if c == '=' || isSpace(c) || c == '/' || c == '>' {
				break
			}
			i++
		}
		a := attr{k0: k0, k1: i, v0: i, v1: i}
		// readTagAttrVal
		for i < n && isSpace(raw[i]) {
			i++
		}
		if i < n {
			c := raw[i]
			i++
			switch {
			case c == '/':
			case c != '=':
				i--
			default:
				for i < n && isSpace(raw[i]) {
					i++
				}
				if i >= n {
					break
				}
				q := raw[i]
				i++
				switch q {
				case '>':
					// "a=>": an empty unquoted value.
					i--
					a.hasVal, a.v0, a.v1 = true, i, i
				case '"', '\'':
					a.quote, a.hasVal, a.v0 = q, true, i
					for i < n && raw[i] != q {
						i++
					}
					a.v1 = i
					if i < n {
						i++
					}
				default:
					a.hasVal, a.v0 = true, i-1
					for i < n && !isSpace(raw[i]) && raw[i] != '>' {
						i++
					}
					a.v1 = i
					if i < n && raw[i] != '>' {
						i++
					}
				}
			}
		}
		if a.k1 == a.k0 {
			continue
		}
		if kl := lower(&key, raw[a.k0:a.k1]); kl > 0 {
			if a.id = attrIDOf(key[:kl]); a.id != 0 && !t.seen.has(a.id) {
				t.seen.add(a.id)
				t.attrs = append(t.attrs, a)
			}
		}
	}
}

// checkTags compares tagOf with lexTag on every start tag of doc.
func checkTags(t *testing.T, doc string) {
	z := token.NewTokenizer(strings.NewReader(doc))
	for {
		tt := z.Next()
		if tt == token.ErrorToken {
			return
		}
		if tt != token.StartTagToken && tt != token.SelfClosingTagToken {
			continue
		}
		raw := z.Raw()
		var want, got tag
		lexTag(raw, &want)
		tagOf(raw, z, &got)
		// The lower-cased name may be in raw or in lower: compared as
		// a string, lower itself is scratch.
		require.Equal(t, string(want.name), string(got.name), "%q", raw)
		require.Equal(t, want.name == nil, got.name == nil, "%q", raw)
		want.name, got.name, want.lower, got.lower = nil, nil, [maxName]byte{}, [maxName]byte{}
		require.Equal(t, want, got, "%q", raw)
	}
}

func TestTagOf(t *testing.T) {
	for _, in := range html5libInputs(t) {
		checkTags(t, in)
	}
	for _, s := range fuzzSeeds {
		checkTags(t, s)
	}
	checkTags(t, `<a href=> <a href = "x" SRC='y' style=z/><a href/><a href =><a =x href>`)
	assert.True(t, true)
}

func FuzzTagOf(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(checkTags)
}
