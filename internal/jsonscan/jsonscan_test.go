package jsonscan

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestScanValid: RFC 8259's grammar — §2 (whitespace, one value), §4
// objects, §5 arrays, §6 numbers, §7 strings — as JSON.parse applies it.
func TestScanValid(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{`{}`, true}, {` [ ] `, true}, {`"s"`, true}, {`0`, true}, {`-0.5e+10`, true}, {`1E9`, true},
		{`true`, true}, {`null`, true}, {`{"a":[1,{"b":null}],"c":"\u00e9\ud83d\ude00\/"}`, true},
		{"\t\n\r {}", true},
		{``, false}, {`{`, false}, {`{"a"}`, false}, {`{"a":1,}`, false}, {`[1,]`, false}, {`[1 2]`, false},
		{`01`, false}, {`1.`, false}, {`.5`, false}, {`+1`, false}, {`1e`, false}, {`-`, false},
		{`tru`, false}, {`nul`, false}, {`True`, false}, {`'a'`, false}, {`{a:1}`, false},
		{"\"a\tb\"", false}, {`"\x41"`, false}, {`"\u12"`, false}, {`"abc`, false}, {`{} {}`, false},
		{"\f{}", false}, {`[1]x`, false}, {strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), true},
		{strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), false},
	} {
		err := Scan([]byte(c.in), func(Value) {})
		if (err == nil) != c.ok {
			t.Errorf("Scan(%.40q) = %v, want ok %v", c.in, err, c.ok)
		}
		var se *SyntaxError
		if err != nil && !errors.As(err, &se) {
			t.Errorf("Scan(%.40q): %T, not a *SyntaxError", c.in, err)
		}
	}
}

// TestScanValues: every value and key with its span, decoded text and
// path; a string's span is its content, quotes excluded, so that a
// rewrite replaces exactly those bytes.
func TestScanValues(t *testing.T) {
	src := `{"a": ["x", 1, {"b\/c": "\u002e/d"}], "e": null}`
	var got []string
	err := Scan([]byte(src), func(v Value) {
		s := strings.Join(v.Path, ".") + " "
		switch {
		case v.Key:
			s += "key " + v.Text
		case v.Kind == String:
			s += "string " + v.Text
		case v.Kind == Object:
			s += "object"
		case v.Kind == Array:
			s += "array"
		default:
			s += "scalar " + src[v.Start:v.End]
		}
		if v.Kind == String && src[v.Start-1] != '"' || v.Kind == String && src[v.End] != '"' {
			t.Errorf("span of %q: %q", v.Text, src[v.Start:v.End])
		}
		got = append(got, s)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := " object| key a|a array|a.[] string x|a.[] scalar 1|a.[] object|a.[] key b/c|a.[].b/c string ./d| key e|e scalar null"
	if strings.Join(got, "|") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, "|"), want)
	}
}

// TestQuote: RFC 8259 §7 escapes, and "<" in HTML.
func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"a/b": "a/b", `q"\`: `q\"\\`, "\n\x01": `\n\u0001`, "</script>": `\u003c/script>`, "é": "é",
	} {
		if got := Quote(in, true); got != want {
			t.Errorf("Quote(%q) = %q, want %q", in, got, want)
		}
		var back string
		if err := json.Unmarshal([]byte(`"`+Quote(in, true)+`"`), &back); err != nil || back != in {
			t.Errorf("Quote(%q) does not read back: %q %v", in, back, err)
		}
	}
}

// FuzzScan: Scan accepts what encoding/json accepts (within MaxDepth),
// decodes strings as it does, and its spans hold the strings.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`{"imports":{"a":"./a.js"}}`, `[1,-2.5e3,true,null,"\ud83d\ude00"]`, `{"a":"\u00"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var strs []Value
		depth := 0
		err := Scan(data, func(v Value) {
			if v.Kind == String {
				strs = append(strs, v)
			}
			depth = max(depth, len(v.Path))
		})
		if depth >= MaxDepth-1 {
			return
		}
		if valid := json.Valid(data); valid != (err == nil) && !(valid && strings.Contains(err.Error(), "deep")) {
			t.Fatalf("Scan: %v, json.Valid: %v", err, valid)
		}
		if err != nil {
			return
		}
		for _, v := range strs {
			if v.Start < 1 || v.End >= len(data) || data[v.Start-1] != '"' || data[v.End] != '"' {
				t.Fatalf("bad span %d-%d", v.Start, v.End)
			}
			var want string
			raw := data[v.Start-1 : v.End+1]
			if json.Unmarshal(raw, &want) == nil && utf8.Valid(raw) && want != v.Text {
				t.Fatalf("%q decoded as %q, want %q", raw, v.Text, want)
			}
		}
	})
}

// BenchmarkScan: a 1 MB manifest-like JSON text.
func BenchmarkScan(b *testing.B) {
	data := []byte(`{"icons":[` + strings.Repeat(`{"src":"icons/i\u002e192.png","sizes":"192x192","n":-1.5e3,"ok":true},`, 12000) + `null]}`)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Scan(data, func(Value) {}); err != nil {
			b.Fatal(err)
		}
	}
}
