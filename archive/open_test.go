package archive

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relurl/relurl/resolve"
)

// openCases are messages whose structure the header pass must find as
// the whole read does: line ends, empty and one-line bodies, a header
// ended by a line that is not a field, nested multiparts, a preamble and
// an epilogue, lines that look like delimiters, a missing close.
var openCases = []string{
	"Content-Type: multipart/related; boundary=b\r\n\r\n--b\r\nContent-Type: text/html\r\nContent-Location: http://a.example/p/\r\n\r\n<a href=x>1</a>\r\n\r\n--b\r\nContent-Type: text/css\r\nContent-Location: x\r\n\r\n\r\n--b--\r\n",
	"Content-Type: multipart/related; boundary=b\n\npreamble\n--b-x\n--b\nContent-Type: text/html\nContent-Location: http://a.example/\n\n<a href=y>\n--bb\n-- b\n<a href=z>\n--b\nContent-Type: text/html\n\n--b--\nepilogue\n--b\nnot a part\n",
	"Content-Type: multipart/related; boundary=b\n\n--b\nContent-Type: multipart/alternative; boundary=c\n\n--c\nContent-Type: text/html\nContent-Location: http://a.example/c\n\n<img src=i>\n--b\nContent-Type: text/html\n\n<a href=\"http://a.example/c\">\n--c--\n--b--\n",
	"Content-Type: multipart/related; boundary=b\n\n--b\nContent-Type: text/html\nthis is no field\n<a href=x>\n--b\n\n<a href=y>\n--b\nContent-Type: text/html\n  folded start\nX: y\n\n",
	"From someone\nContent-Type: multipart/related; boundary=\"b\"\n\n--b  \nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\nContent-ID: <p1>\n\n<a href=3D\"cid:p2\">=\n</a>\n--b\nContent-Type: image/svg+xml\nContent-ID: <p2>\n\n<svg xmlns=\"http://www.w3.org/2000/svg\"><a href=\"q\"/></svg>",
	"Content-Type: text/html\nContent-Location: http://a.example/\n\n<a href=only>\n",
	"Content-Type: multipart/related; boundary=b\n\n--b\nContent-Type: message/rfc822\n\nContent-Type: text/html\n\n<a href=m>\n--b--\n",
	"Content-Type: multipart/related; boundary=b\n\n--b\nContent-Type: text/html\n\n" + strings.Repeat("<a href=long>", 10000) + "\n--b\nContent-Type: text/html\n\n\r\r\n\n--b--",
	"Content-Type: multipart/related; boundary=b\n\n--b\nContent-Type: text/html\nContent-Transfer-Encoding: base64\n\nPGEgaHJlZj14Pg==\n--b--\n",
	"no header at all\n",
	"",
	// message/* (RFC 2046 §5.2): an enclosed message with a multipart of
	// its own and a Content-Location that is the base of its parts
	// (RFC 2557 §5(c)); nested twice; an HTTP message with its start line
	// (message/http); encoded, hence opaque; empty, ended by the
	// delimiter; message/partial (not enclosing); and one whose header
	// ends at a line that is not a field (read whole).
	"Content-Type: multipart/related; boundary=b\r\nContent-Location: http://top.example/\r\n\r\n--b\r\nContent-Type: text/html\r\n\r\n<a href=t>\r\n--b\r\nContent-Type: message/rfc822\r\n\r\nFrom: x@example\r\nContent-Location: http://inner.example/dir/\r\nContent-Type: multipart/related; boundary=c\r\n\r\n--c\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<a href=3D\"in.html\">=\r\n</a><img src=3D\"cid:i1\">\r\n--c\r\nContent-Type: text/css\r\nContent-ID: <i1>\r\nContent-Transfer-Encoding: base64\r\n\r\nYm9keXtiYWNrZ3JvdW5kOnVybChiZy5wbmcpfQ==\r\n--c--\r\n\r\n--b--\r\n",
	"Content-Type: message/rfc822\n\nContent-Type: message/rfc822\nContent-Location: http://two.example/a/\n\nFrom something\nContent-Type: text/html\n\n<a href=deep>\n",
	"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: message/http\n\nHTTP/1.1 200 OK\nContent-Type: text/html\nContent-Location: http://h.example/x/\n\n<a href=h>\n--b\nContent-Type: message/http\n\nGET http://h.example/ HTTP/1.1\nHost: h.example\n\n--b--\n",
	"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\nQ29udGVudC1UeXBlOiB0ZXh0L2h0bWwKCjxhIGhyZWY9eD4K\n--b\nContent-Type: message/rfc822\n--b\nContent-Type: message/news\n\n\n--b\nContent-Type: message/partial; id=x\n\nContent-Type: text/html\n\n<a href=p>\n--b--\n",
	"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: message/rfc822\nnot a field\nContent-Type: text/html\n\n<a href=p>\n--b--\n",
	"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: message/rfc822\nFrom x@y Mon\nContent-Type: text/html\nContent-Location: http://f.example/\n\n<a href=p>\n--b\nContent-Type: message/http\nHTTP/1.1 200 OK\nContent-Type: text/html\n\n<a href=q>\n--b\nContent-Type: message/http\n--b\nContent-Type: message/rfc822\nFrom x\n--b--\n",
	"Content-Type: message/rfc822\nFrom a\nFrom b\nContent-Type: message/http\nGET / HTTP/1.1\n\n",
	// Body lines longer than the header pass's buffer that start like a
	// delimiter: only one that is a delimiter and padding so far may
	// still be one.
	"Content-Type: multipart/related; boundary=b\n\n--b\nContent-Type: text/html\n\n--b" + strings.Repeat("x<a href=l>", 7000) + "\n--" + strings.Repeat("<a href=m>", 7000) + "\r\n--b--\n",
}

// TestOpenAgreesWithRead: a message opened (headers read, bodies skipped
// and read again from the file) has the parts, headers, bodies, bases,
// warnings, links and rewrite of the message read whole, for every MHTML
// fixture and the cases above, from a file and from a reader spooled.
func TestOpenAgreesWithRead(t *testing.T) {
	var inputs []string
	for _, p := range []string{"mhtml/*/*.mht", "mhtml/*/*.mhtml", "mime/*.mht", "mime/*.eml", "base/*.eml"} {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", p))
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, string(b))
		}
	}
	if len(inputs) < 20 {
		t.Fatalf("only %d fixtures", len(inputs))
	}
	inputs = append(inputs, openCases...)
	// None is read whole, message/* parts included (RFC 2046 §5.2: the
	// enclosed entity's header is read like any other).
	for i, in := range inputs {
		if _, _, err := skeleton(strings.NewReader(in), int64(len(in)), Limits{}.withDefaults()); err != nil {
			t.Errorf("%d: read whole (%v): %.80q", i, err, in)
		}
	}
	padded := "Content-Type: multipart/related; boundary=b\n\n--b\n\n--b" + strings.Repeat(" ", 70000) + "\n--b--\n"
	if _, _, err := skeleton(strings.NewReader(padded), int64(len(padded)), Limits{}.withDefaults()); err != errWhole {
		t.Errorf("a delimiter with 70,000 bytes of padding: %v, want read whole", err)
	}
	inputs = append(inputs, padded)
	for i, in := range inputs {
		for _, spec := range []resolve.Spec{resolve.RFC3986, resolve.WHATWG} {
			opts := Options{Spec: spec, Local: LocalCID}
			checkOpen(t, fmt.Sprint(i), []byte(in), opts)
		}
	}
}

func checkOpen(t *testing.T, name string, data []byte, opts Options) {
	t.Helper()
	want := describe(Parse(data, opts))
	f, err := os.CreateTemp(t.TempDir(), "m")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write([]byte("skip"))
	f.Write(data)
	f.Seek(4, io.SeekStart)
	m, err := Open(f, opts)
	if got := describe(m, err); got != want {
		t.Errorf("%s: opened file differs: %s", name, firstDiff(got, want))
	}
	if m != nil {
		m.Close()
	}
	m, err = Open(io.MultiReader(bytes.NewReader(data)), opts)
	if got := describe(m, err); got != want {
		t.Errorf("%s: spooled differs: %s", name, firstDiff(got, want))
	}
	if m != nil {
		m.Close()
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got %.400s\nwant %.400s", i, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}

// describe writes down everything a caller can see of m.
func describe(m *Message, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	var links []Link
	lerr := m.Links(func(l Link) error { links = append(links, l); return nil })
	fmt.Fprintf(&b, "links err %v\n", lerr)
	for _, l := range links {
		fmt.Fprintf(&b, "%+v\n", l)
	}
	for _, p := range m.Parts() {
		d, derr := m.Decode(p)
		fmt.Fprintf(&b, "part %q %q %q %q %v %q %v %+v %q\n raw %q\n header %q\n decoded %q %v\n", p.Path, p.StartLine, p.MediaType, p.Encoding, p.Params, p.Header, p.Truncated, p.Base, p.Warnings, m.Raw(p), m.RawHeader(p), d, derr)
		c, ct := m.PartContext(p)
		fmt.Fprintf(&b, " location %q id %q type %q retrieval %q %q header %v\n", m.Location(p), p.ContentID(), ct, c.Retrieval, c.HeaderOf, c.Header)
	}
	var out bytes.Buffer
	st, rerr := m.Rewrite(&out)
	if rerr != nil {
		// What a failed rewrite wrote is not its output: parts streamed
		// are written as they are read, parts held only once complete.
		out.Reset()
	}
	fmt.Fprintf(&b, "rewrite %+v %v\n%q\n", st, rerr, out.Bytes())
	return b.String()
}

// FuzzOpen: for any input, Open agrees with Parse (see TestOpenAgreesWithRead).
func FuzzOpen(f *testing.F) {
	addFixtures(f, "mhtml/*/*.mht", "mhtml/*/*.mhtml", "mime/*.mht", "mime/*.eml")
	for _, c := range openCases {
		f.Add([]byte(c))
	}
	r := rand.New(rand.NewSource(1))
	for range 8 {
		f.Add([]byte(encodedArchive(r)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkOpen(t, "fuzz", data, Options{Spec: resolve.RFC3986, Local: LocalCID, Limits: Limits{Depth: 8, Parts: 200, HeaderBytes: 4 << 10, DecodedBytes: 1 << 20}})
	})
}

// TestOpenSkipsBodies: the opened message holds its headers and
// delimiters, not its bodies.
func TestOpenSkipsBodies(t *testing.T) {
	body := strings.Repeat("<p><a href=x>link</a></p>\n", 40000)
	data := "Content-Type: multipart/related; boundary=b\n\n--b\nContent-Type: text/html\nContent-Location: http://a.example/\n\n" + body + "--b\nContent-Type: text/css\n\n" + body + "--b--\n"
	opts := Options{Spec: resolve.RFC3986}
	f, err := os.CreateTemp(t.TempDir(), "m")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(data)
	f.Seek(0, io.SeekStart)
	m, err := Open(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	if m.file == nil || len(m.src) > 512 {
		t.Fatalf("held %d bytes of %d (streamed %v)", len(m.src), len(data), m.file != nil)
	}
	checkOpen(t, "big", []byte(data), opts)
}
