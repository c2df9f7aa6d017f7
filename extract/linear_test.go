package extract

import (
	"bytes"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
)

// The links of an MHTML archive's quoted-printable HTML part take time
// linear in the part: its decoded body, whose Seek decodes again from the
// start, is not read by the HTML single pass that seeks back as it goes.
func TestLinearTimeEncodedPart(t *testing.T) {
	dir := t.TempDir()
	mhtml := func(n int) string {
		var qp bytes.Buffer
		w := quotedprintable.NewWriter(&qp)
		w.Write([]byte(strings.Repeat("<p>text, text and text <a href=\"x.html\">x</a>\n", n)))
		w.Close()
		doc := "MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"b\"; type=\"text/html\"\r\n\r\n" +
			"--b\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\nContent-Location: https://m.example/\r\n\r\n" +
			qp.String() + "\r\n--b--\r\n"
		name := filepath.Join(dir, strings.Repeat("x", n%7)+"p.mht")
		if err := os.WriteFile(name, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	files := map[int]string{40000: mhtml(40000), 80000: mhtml(80000)}
	testkit.Linear(t, 40000, 2.5, func(n int) {
		f, err := os.Open(files[n])
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		count := 0
		if _, err := Links(f, base.MHTML, options("https://m.example/"), func(link.Link) error { count++; return nil }); err != nil || count != n {
			t.Fatalf("%d links, %v", count, err)
		}
	})
}
