package archive

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/relurl/relurl/resolve"
)

// transferCases are bodies whose decoding and encoding turn on what
// follows a byte: "=" before hex, before whitespace and a line end, at
// the end; whitespace runs before line ends and the end; CR without LF;
// lines of exactly 75, 76 and 77 characters; base64 with padding inside,
// a lone sextet, junk between characters.
var transferCases = []string{
	"", "=", "==", "=4", "=41", "=4g", "a=\r\nb", "a= \t\r\nb", "a=\nb", "a =  x", "a \t\r\n", "a\r \n", "a\r", "=\r", "=\r\r\n",
	"x=4A=", "=A=", "a   ", "\r\n", "\n", "\r", "  \n  ", "=\t5A", "abc=  ", "=4 \n1",
	strings.Repeat("x", 75) + "\n", strings.Repeat("x", 76) + "\n", strings.Repeat("x", 77) + "\r\n", strings.Repeat("x", 76),
	strings.Repeat("x", 74) + "\xff\n", strings.Repeat("x", 75) + " \n", strings.Repeat(" ", 200) + "x\n" + strings.Repeat("\t", 90),
	"PGEgaHJlZj14Pg==", "PGEg\r\naHJl\nZj14Pg", "QQ==QQ==", "Q", "QUJD\nR", "QU=JD!!RA", "=====",
	strings.Repeat("PGEgaHJlZj14Pg==", 30) + "\r\n",
}

// FuzzTransferStreams: the streaming decoders read any body as decodeQP
// and decodeBase64 read it whole, through windows of any size, and the
// streaming encoders write any body, given in pieces of any size, as
// encodeBody writes it whole, in both line-end styles, with and without
// a final line end; storedLineEnd tells what lineEnd does.
func FuzzTransferStreams(f *testing.F) {
	for _, c := range transferCases {
		f.Add([]byte(c), uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, split uint8) {
		checkTransfer(t, data, int(split))
	})
}

func TestTransferStreams(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	inputs := append([]string(nil), transferCases...)
	alphabet := []string{"a", "=", " ", "\t", "\r", "\n", "\r\n", "=3D", "=\r\n", "\xff", "<a href=x>", "Q", "+/"}
	for range 400 {
		var b strings.Builder
		for range r.Intn(300) {
			b.WriteString(alphabet[r.Intn(len(alphabet))])
		}
		inputs = append(inputs, b.String())
	}
	for i, in := range inputs {
		for _, split := range []int{1, 2, 3, 5, 7, 64, 100} {
			if t.Failed() {
				t.Fatalf("input %d: %q", i, in)
			}
			checkTransfer(t, []byte(in), split)
		}
	}
}

func checkTransfer(t *testing.T, data []byte, split int) {
	t.Helper()
	window := max(3, split%70)
	got, err := io.ReadAll(oneByteAtTimes(newQPReader(bytes.NewReader(data), int64(len(data)), window), split))
	if want := decodeQP(data); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("qp decode, window %d: %q\n got %q, %v\nwant %q", window, data, got, err, want)
	}
	got, err = io.ReadAll(oneByteAtTimes(newBase64Reader(bytes.NewReader(data), window), split))
	if want, werr := decodeBase64(data); err != nil || werr != nil || !bytes.Equal(got, want) {
		t.Fatalf("base64 decode, %d: %q\n got %q, %v\nwant %q, %v", window, data, got, err, want, werr)
	}
	m := &Message{file: bytes.NewReader(data)}
	eol, endsLF, err := m.storedLineEnd(&Part{end: len(data)})
	if err != nil || eol != lineEnd(data) || endsLF != bytes.HasSuffix(data, []byte("\n")) {
		t.Fatalf("storedLineEnd(%q) = %q %v %v", data, eol, endsLF, err)
	}
	for _, orig := range []string{"x\r\n", "x\ny", "x\n", "x\r\ny"} {
		eol, endsLF := lineEnd([]byte(orig)), strings.HasSuffix(orig, "\n")
		for _, cte := range []string{QuotedPrintable, Base64, EightBit} {
			var out bytes.Buffer
			w := newEncoder(&out, cte, eol, endsLF)
			for p := data; len(p) > 0; {
				n := min(len(p), max(split, 1))
				if _, err := w.Write(p[:n]); err != nil {
					t.Fatal(err)
				}
				p = p[n:]
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if want := encodeBody(cte, data, []byte(orig)); !bytes.Equal(out.Bytes(), want) {
				t.Fatalf("%s encode, original %q, pieces of %d: %q\n got %q\nwant %q", cte, orig, split, data, out.Bytes(), want)
			}
		}
	}
}

// oneByteAtTimes reads r in reads of at most n bytes.
func oneByteAtTimes(r io.Reader, n int) io.Reader {
	return readerFunc(func(p []byte) (int, error) { return r.Read(p[:min(len(p), max(n, 1))]) })
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// TestQPWhitespaceBeyondWindow: a run of whitespace longer than the
// decoder's window, followed by content, is read again from the body.
func TestQPWhitespaceBeyondWindow(t *testing.T) {
	data := []byte("a" + strings.Repeat(" \t", 5000) + "b=\r\n" + strings.Repeat(" ", 9000) + "\r\nc" + strings.Repeat(" ", 9000) + "=\n" + strings.Repeat(" ", 9000) + "=4")
	q := newQPReader(bytes.NewReader(data), int64(len(data)), 64)
	got, err := io.ReadAll(q)
	if want := decodeQP(data); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("got %d bytes %v, want %d", len(got), err, len(want))
	}
	if cap(q.buf) > 64 || cap(q.out) > 4*64 {
		t.Errorf("held %d + %d bytes", cap(q.buf), cap(q.out))
	}
}

// encodedArchive builds an MHTML archive whose parts are of every kind
// read for links, in every transfer encoding, with line ends, line
// lengths and final line ends of all sorts, and links that a rewrite
// changes or leaves as they are.
func encodedArchive(r *rand.Rand) string {
	eol := []string{"\r\n", "\n"}[r.Intn(2)]
	var b strings.Builder
	b.WriteString("MIME-Version: 1.0" + eol + "Content-Type: multipart/related; boundary=\"=_b\"" + eol + eol)
	kinds := []struct{ typ, body string }{
		{"text/html; charset=utf-8", "<html><head><title>t\u00e9</title></head><body><a href=\"page.html\">x</a> <img src=\"https://abs.example/i.png\"> =41 \t" + strings.Repeat("w", 90) + "<a href='../up/x?q=1'>y</a></body></html>"},
		{"text/html", "<p>nothing relative here: <a href=\"https://abs.example/\">a</a></p>  "},
		{"text/css", "body { background: url(img/bg.png) }\n@import 'x.css';" + strings.Repeat(" ", 80) + "\n"},
		{"text/css", "p{color:red}"},
		{"image/svg+xml", "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"><image xlink:href=\"pic.png\"/></svg>"},
		{"application/xml", "<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"><a href=\"q\"/></svg>"},
		{"text/xml", "<?xml version=\"1.0\"?><note><to>x</to></note>"},
		{"application/manifest+json", "{\"start_url\": \"./start\", \"icons\": [{\"src\": \"icon.png\"}]}"},
		{"text/plain", "<a href=x>"},
	}
	encs := []string{"quoted-printable", "base64", "Base64", "8bit", "7bit", "", "binary", "x-unknown"}
	for i := range 1 + r.Intn(6) {
		k := kinds[r.Intn(len(kinds))]
		enc := encs[r.Intn(len(encs))]
		body := k.body
		for range r.Intn(4) {
			if strings.Contains(k.typ, "json") {
				break // one JSON object
			}
			body += []string{"\n", "\r\n", " \n", "\t", "=", "\xc3\xa9", strings.Repeat("z", 70+r.Intn(10))}[r.Intn(7)] + k.body
		}
		fmt.Fprintf(&b, "--=_b%sContent-Type: %s%sContent-Location: https://gen.example/d%d/p%d%s", eol, k.typ, eol, i, i, eol)
		if enc != "" {
			b.WriteString("Content-Transfer-Encoding: " + enc + eol)
		}
		b.WriteString(eol)
		stored := []byte(body)
		partEOL := []string{eol, "\r\n", "\n"}[r.Intn(3)]
		switch strings.ToLower(enc) {
		case "quoted-printable":
			stored = encodeQP(stored, partEOL)
			if r.Intn(3) == 0 {
				// Another encoder's line lengths and soft breaks.
				stored = bytes.ReplaceAll(stored, []byte("a"), []byte("=61=\n"))
			}
		case "base64":
			s := encodeBase64(stored, partEOL)
			if r.Intn(3) == 0 {
				// 60-column lines, as some producers write.
				s = []byte(strings.Join(chunks(strings.ReplaceAll(string(s), partEOL, ""), 60), partEOL))
			}
			stored = s
		}
		b.Write(stored)
		if r.Intn(4) > 0 {
			b.WriteString(partEOL)
		}
		b.WriteString(eol)
	}
	b.WriteString("--=_b--" + eol)
	return b.String()
}

func chunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		out, s = append(out, s[:n]), s[n:]
	}
	return append(out, s)
}

// TestOpenEncodedParts: the parts in quoted-printable and base64 read
// decoded from the file (links) and rewritten and encoded again as they
// are read agree with the parts held whole, on 300 generated archives.
func TestOpenEncodedParts(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	for i := range 300 {
		data := encodedArchive(r)
		for _, spec := range []resolve.Spec{resolve.RFC3986, resolve.WHATWG} {
			checkOpen(t, fmt.Sprint(i), []byte(data), Options{Spec: spec, Local: LocalCID})
		}
		if t.Failed() {
			t.Fatalf("archive %d:\n%s", i, data)
		}
	}
}

// TestEncodedPartsStream: quoted-printable and base64 HTML parts far
// larger than Limits.DecodedBytes are read for links and rewritten as
// they are read, not held: the whole read refuses them as too large.
func TestEncodedPartsStream(t *testing.T) {
	page := "<p>" + strings.Repeat("<a href=\"rel/x.html\">\u00e9 link</a> text =&amp; \n", 4000) + "<a href=the-end.html>end</a>"
	data := "Content-Type: multipart/related; boundary=b\r\n\r\n" +
		"--b\r\nContent-Type: text/html; charset=utf-8\r\nContent-Location: https://a.example/q/\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + string(encodeQP([]byte(page), "\r\n")) + "\r\n" +
		"--b\r\nContent-Type: text/html; charset=utf-8\r\nContent-Location: https://a.example/b/\r\nContent-Transfer-Encoding: base64\r\n\r\n" + string(encodeBase64([]byte(page), "\r\n")) + "\r\n" +
		"--b--\r\n"
	small := Options{Spec: resolve.RFC3986, Limits: Limits{DecodedBytes: 4 << 10}}
	var want bytes.Buffer
	whole, err := Parse([]byte(data), Options{Spec: resolve.RFC3986})
	if err != nil {
		t.Fatal(err)
	}
	wst, err := whole.Rewrite(&want)
	if err != nil || wst.Changed != 2 {
		t.Fatalf("whole read: %+v %v", wst, err)
	}
	f := tempFile(t, data)
	m, err := Open(f, small)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var links []string
	if err := m.Links(func(l Link) error { links = append(links, l.URL); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(links) != 8002 || links[len(links)-1] != "https://a.example/b/the-end.html" {
		t.Errorf("%d links, last %q", len(links), links[len(links)-1:])
	}
	var got bytes.Buffer
	st, err := m.Rewrite(&got)
	if err != nil || st.Changed != 2 || len(st.Warnings) != 0 {
		t.Fatalf("rewrite: %+v %v", st, err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("streamed rewrite differs from the whole read's: %s", firstDiff(got.String(), want.String()))
	}
}

func tempFile(t *testing.T, data string) *os.File {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "m")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if _, err := f.WriteString(data); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestEnclosedMessageStreams: an archive with message/rfc822 parts is
// read through like any other (headers first, each body from the file),
// and each enclosed entity's parts get their base from the nearest
// enclosing entity's Content-Location (RFC 2557 §5(c), the draft's §3.2,
// recursively).
func TestEnclosedMessageStreams(t *testing.T) {
	in := openCase(t, "http://inner.example/dir/")
	m, err := Open(tempFile(t, in), Options{Spec: resolve.RFC3986})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.file == nil {
		t.Fatal("read whole")
	}
	var got []string
	if err := m.Links(func(l Link) error {
		got = append(got, l.Part+" "+l.URL+" "+l.Base.URL+" "+l.TargetPart)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"1 http://top.example/t http://top.example/ ",
		"2.1.1 http://inner.example/dir/in.html http://inner.example/dir/ ",
		"2.1.1 cid:i1 http://inner.example/dir/ 2.1.2",
		"2.1.2 http://inner.example/dir/bg.png http://inner.example/dir/ ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("links:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	nested, err := Open(tempFile(t, openCase(t, "http://two.example/a/")), Options{Spec: resolve.RFC3986})
	if err != nil {
		t.Fatal(err)
	}
	defer nested.Close()
	if nested.file == nil {
		t.Fatal("nested: read whole")
	}
	if p := nested.Part("1.1"); p == nil || p.Base.URL != "http://two.example/a/" {
		t.Errorf("nested: part 1.1 base %+v", p)
	}
}

// TestOpenSizeBoundsHeaders: for a message read through, Limits.Size (the
// CLI's --max-size) bounds what is held, its headers and delimiters, not
// the size of the message or of a part.
func TestOpenSizeBoundsHeaders(t *testing.T) {
	part := "--b\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\nContent-Location: http://a.example/\r\n\r\n" + string(encodeBase64([]byte(strings.Repeat("<a href=x>y</a>", 2000)), "\r\n")) + "\r\n"
	data := "Content-Type: multipart/related; boundary=b\r\n\r\n" + part + part + "--b--\r\n"
	m, err := Open(tempFile(t, data), Options{Spec: resolve.RFC3986, Limits: Limits{Size: 1024}})
	if err != nil {
		t.Fatalf("a message far over Limits.Size: %v", err)
	}
	var out bytes.Buffer
	if st, err := m.Rewrite(&out); err != nil || st.Changed != 2 {
		t.Errorf("rewrite: %+v %v", st, err)
	}
	m.Close()
	many := "Content-Type: multipart/related; boundary=b\r\n\r\n" + strings.Repeat(part, 20) + "--b--\r\n"
	if _, err := Open(tempFile(t, many), Options{Spec: resolve.RFC3986, Limits: Limits{Size: 1024}}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("headers over Limits.Size: %v", err)
	}
}

// openCase returns the one of openCases that holds marker.
func openCase(t *testing.T, marker string) string {
	t.Helper()
	for _, c := range openCases {
		if strings.Contains(c, marker) {
			return c
		}
	}
	t.Fatalf("no open case holds %q", marker)
	return ""
}
