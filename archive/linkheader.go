package archive

import (
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// LinkValue is one link-value of an HTTP Link header (RFC 8288 §3).
type LinkValue struct {
	Target string      // the URI-Reference between < and >, as written
	Offset int         // where Target starts in the header value
	Rel    []string    // the relation types (§3.3), registered ones lower-cased
	Anchor *string     // the anchor parameter (§3.2), nil when absent
	Params []LinkParam // every parameter, in order, names lower-cased
}

// LinkParam is one link-param: a name and its value, a quoted-string
// unquoted (RFC 9110 §5.6.4).
type LinkParam struct{ Name, Value string }

// ParseLinkHeader parses one Link header field value into its link-values
// (RFC 8288 §3, with the lenient algorithm of its Appendix B.2: a value
// that does not start with "<" is skipped up to the next comma; of
// repeated rel and anchor parameters the first counts). Commas inside
// <...> and quoted strings belong to them.
func ParseLinkHeader(v string) []LinkValue {
	var out []LinkValue
	i := 0
	for i < len(v) {
		for i < len(v) && (v[i] == ' ' || v[i] == '\t' || v[i] == ',') {
			i++
		}
		if i >= len(v) {
			break
		}
		if v[i] != '<' {
			i = skipTo(v, i, ',')
			continue
		}
		end := strings.IndexByte(v[i+1:], '>')
		if end < 0 {
			break
		}
		lv := LinkValue{Target: v[i+1 : i+1+end], Offset: i + 1}
		i += end + 2
		relSeen := false
		for {
			for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
				i++
			}
			if i >= len(v) || v[i] == ',' {
				break
			}
			if v[i] != ';' {
				i = skipTo(v, i, ',')
				break
			}
			i++
			for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
				i++
			}
			n0 := i
			for i < len(v) && !strings.ContainsRune("=;, \t", rune(v[i])) {
				i++
			}
			name := strings.ToLower(v[n0:i])
			for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
				i++
			}
			val := ""
			if i < len(v) && v[i] == '=' {
				i++
				for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
					i++
				}
				if i < len(v) && v[i] == '"' {
					var b strings.Builder
					i++
					for i < len(v) && v[i] != '"' {
						if v[i] == '\\' && i+1 < len(v) {
							i++
						}
						b.WriteByte(v[i])
						i++
					}
					i++
					val = b.String()
				} else {
					v0 := i
					for i < len(v) && !strings.ContainsRune(";, \t", rune(v[i])) {
						i++
					}
					val = v[v0:i]
				}
			}
			if name == "" {
				continue
			}
			lv.Params = append(lv.Params, LinkParam{name, val})
			switch {
			case name == "rel" && !relSeen:
				relSeen = true
				for _, r := range strings.Fields(val) {
					if !strings.Contains(r, ":") {
						r = strings.ToLower(r) // registered types are case-insensitive (§2.1.1)
					}
					lv.Rel = append(lv.Rel, r)
				}
			case name == "anchor" && lv.Anchor == nil:
				a := val
				lv.Anchor = &a
			}
		}
		out = append(out, lv)
	}
	return out
}

// skipTo returns the index of the next c at or after i outside quoted
// strings and <...>, or len(v).
func skipTo(v string, i int, c byte) int {
	for i < len(v) && v[i] != c {
		switch v[i] {
		case '"':
			if j := strings.IndexByte(v[i+1:], '"'); j >= 0 {
				i += j + 1
			}
		case '<':
			if j := strings.IndexByte(v[i+1:], '>'); j >= 0 {
				i += j + 1
			}
		}
		i++
	}
	return i
}

// HeaderLinks calls fn for the target of every link-value of the Link
// header values, resolved against the URL the response was retrieved
// from, as RFC 8288 §3.1 says ("any base URI carried in the payload body
// is NOT used"; Content-Location is not a base since RFC 7231 Appendix
// B). The link's kind is link.Header, its Attr "link", its Rel the
// relation types; the anchor (the context, §3.2) is not the target's base
// and is not reported as a link. Offset and Column count from the start
// of each header value; Line is the value's index, 1-based.
func HeaderLinks(values []string, spec resolve.Spec, retrieval string, fn func(link.Link) error) error {
	res, rerr := resolve.NewResolver(spec, retrieval, resolve.Options{})
	if retrieval == "" {
		res, rerr = nil, resolve.ErrNoBase
	}
	var b base.Result
	if retrieval != "" {
		b = base.Result{URL: retrieval, Source: base.Retrieval, Detail: "the response's URL"}
	}
	for n, v := range values {
		for _, lv := range ParseLinkHeader(v) {
			ref := strings.TrimSpace(lv.Target)
			l := link.Link{Raw: lv.Target, Attr: "link", Kind: link.Header, Rel: lv.Rel,
				Line: n + 1, Column: lv.Offset + 1, Offset: int64(lv.Offset), Base: b}
			if rerr != nil {
				l.Err = rerr
			} else if u, err := res.Reference(ref); err != nil {
				l.Err = err
			} else {
				l.URL = u
			}
			if err := fn(l); err != nil {
				return err
			}
		}
	}
	return nil
}
