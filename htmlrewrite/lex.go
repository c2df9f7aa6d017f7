package htmlrewrite

// The tokenizer keeps its attribute spans private and TagAttr copies and
// lower-cases every key and value, so the start tags are lexed again here
// from Raw(), step for step as x/net/html's readTag, readTagAttrKey and
// readTagAttrVal do (HTML Standard §13.2.5.32–13.2.5.40), to get each
// attribute's byte span. Like TagAttr (x/net ≥ v0.55.0), only the first of
// attributes whose ASCII-lower-cased names are equal counts.

// attr is one attribute of a start tag, as spans of the tag's raw bytes.
type attr struct {
	id     attrID
	k0, k1 int  // the name
	v0, v1 int  // the value, without quotes
	quote  byte // '"', '\'' or 0 for an unquoted or absent value
	hasVal bool // an "=" and a value follow the name
}

// tag is a lexed start tag.
type tag struct {
	name    [maxName]byte // the lower-cased name, if it fits
	nameLen int           // len(name) when it fits, else -1
	id      tagID
	attrs   []attr // the known attributes, first occurrence only
	seen    attrSet
}

const maxName = 24

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f'
}

// lower writes the ASCII-lower-cased b to dst and reports its length, or
// -1 when b does not fit.
func lower(dst *[maxName]byte, b []byte) int {
	if len(b) > len(dst) {
		return -1
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst[i] = c
	}
	return len(b)
}

// lexTag lexes the start tag raw (from its "<" to its ">") into t, keeping
// only the attributes attrIDOf knows.
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
	t.nameLen = lower(&t.name, raw[1:i])
	t.id = 0
	if t.nameLen >= 0 {
		t.id = tagIDOf(t.name[:t.nameLen])
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

// get returns t's attribute id, or nil.
func (t *tag) get(id attrID) *attr {
	if !t.seen.has(id) {
		return nil
	}
	for i := range t.attrs {
		if t.attrs[i].id == id {
			return &t.attrs[i]
		}
	}
	return nil
}
