// The prescan below is golang.org/x/net/html/charset's (v0.62.0,
// charset.go: prescan and fromMetaElement), copied so that Encoding learns
// from the prescan itself whether a <meta> decided, in one pass: x/net keeps
// it unexported. Copyright 2013 The Go Authors; BSD-style licence, in
// prescan.LICENSE. Changes: it returns the name only (the encoding is
// looked up by the caller) and keeps the attributes seen in a slice, not a
// map.

package base

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding/htmlindex"
)

// determineEncoding is charset.DetermineEncoding's decision (HTML Standard
// §13.2.3.1: byte order mark, Content-Type charset, the <meta> prescan of
// §13.2.3.2, else a guess: UTF-8 when the bytes are UTF-8 with a high bit,
// else windows-1252), returning the name and the layer that decided. The
// name is the same as DetermineEncoding's for every input
// (FuzzDetermineEncoding).
func determineEncoding(content []byte, contentType string) (name, source string) {
	if len(content) > 1024 {
		content = content[:1024]
	}
	switch {
	case bytes.HasPrefix(content, []byte{0xfe, 0xff}):
		return "utf-16be", ByBOM
	case bytes.HasPrefix(content, []byte{0xff, 0xfe}):
		return "utf-16le", ByBOM
	case bytes.HasPrefix(content, []byte{0xef, 0xbb, 0xbf}):
		return "utf-8", ByBOM
	}
	if contentType != "" {
		if _, params, err := mime.ParseMediaType(contentType); err == nil {
			if cs, ok := params["charset"]; ok {
				if name := lookupName(cs); name != "" {
					return name, ByContentType
				}
			}
		}
	}
	if len(content) > 0 {
		if name := prescan(content); name != "" {
			return name, ByMeta
		}
	}
	// The guess: a partial rune at the end is dropped first.
	for i := len(content) - 1; i >= 0 && i > len(content)-4; i-- {
		b := content[i]
		if b < 0x80 {
			break
		}
		if utf8.RuneStart(b) {
			content = content[:i]
			break
		}
	}
	if !isASCIIBytes(content) && utf8.Valid(content) {
		return "utf-8", ByDefault
	}
	return "windows-1252", ByDefault
}

// lookupName is charset.Lookup's name: the Encoding Standard's canonical
// name of label, or "".
func lookupName(label string) string {
	e, err := htmlindex.Get(label)
	if err != nil {
		return ""
	}
	name, _ := htmlindex.Name(e)
	return name
}

// prescan is HTML Standard §13.2.3.2 "prescan a byte stream to determine
// its encoding" as x/net/html/charset implements it (with its tokenizer):
// the name a <meta charset> or <meta http-equiv=content-type content=...>
// declares, or "" when none does.
func prescan(content []byte) string {
	z := html.NewTokenizer(bytes.NewReader(content))
	var seen []string
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""

		case html.StartTagToken, html.SelfClosingTagToken:
			tagName, hasAttr := z.TagName()
			if !bytes.Equal(tagName, []byte("meta")) {
				continue
			}
			seen = seen[:0]
			gotPragma := false

			const (
				dontKnow = iota
				doNeedPragma
				doNotNeedPragma
			)
			needPragma := dontKnow

			name := ""
			found := false
			for hasAttr {
				var key, val []byte
				key, val, hasAttr = z.TagAttr()
				if seenKey(seen, key) {
					continue
				}
				seen = append(seen, string(key))
				for i, c := range val {
					if 'A' <= c && c <= 'Z' {
						val[i] = c + 0x20
					}
				}

				switch string(key) {
				case "http-equiv":
					if bytes.Equal(val, []byte("content-type")) {
						gotPragma = true
					}

				case "content":
					if !found {
						name = fromMetaElement(string(val))
						if name != "" {
							name = lookupName(name)
							if name != "" {
								found = true
								needPragma = doNeedPragma
							}
						}
					}

				case "charset":
					name = lookupName(string(val))
					found = name != ""
					needPragma = doNotNeedPragma
				}
			}

			if needPragma == dontKnow || needPragma == doNeedPragma && !gotPragma {
				continue
			}

			if strings.HasPrefix(name, "utf-16") {
				name = "utf-8"
				found = true
			}

			if found {
				return name
			}
		}
	}
}

func seenKey(seen []string, key []byte) bool {
	for _, s := range seen {
		if s == string(key) {
			return true
		}
	}
	return false
}

// fromMetaElement is the HTML Standard's "algorithm for extracting a
// character encoding from a meta element" on a content value.
func fromMetaElement(s string) string {
	for s != "" {
		csLoc := strings.Index(s, "charset")
		if csLoc == -1 {
			return ""
		}
		s = s[csLoc+len("charset"):]
		s = strings.TrimLeft(s, " \t\n\f\r")
		if !strings.HasPrefix(s, "=") {
			continue
		}
		s = s[1:]
		s = strings.TrimLeft(s, " \t\n\f\r")
		if s == "" {
			return ""
		}
		if q := s[0]; q == '"' || q == '\'' {
			s = s[1:]
			closeQuote := strings.IndexRune(s, rune(q))
			if closeQuote == -1 {
				return ""
			}
			return s[:closeQuote]
		}

		end := strings.IndexAny(s, "; \t\n\f\r")
		if end == -1 {
			end = len(s)
		}
		return s[:end]
	}
	return ""
}
