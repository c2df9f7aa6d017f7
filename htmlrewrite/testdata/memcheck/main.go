// Command memcheck rewrites a generated HTML document of any size, to
// show that the rewriter's memory does not grow with the document. Run by
// hand (it is not a test: the document is 1 GB by default):
//
//	go build -o /tmp/memcheck ./htmlrewrite/testdata/memcheck
//	/usr/bin/time -v /tmp/memcheck -size 1073741824            # a stream
//	/usr/bin/time -v /tmp/memcheck -size 1073741824 -file /tmp/1g.html  # a seekable file
//
// and read "Maximum resident set size".
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// chunk is a page-like run of markup with links of every common form.
const chunk = `<div class="item"><a href="articles/%d.html?a=1&amp;b=2" rel="nofollow">Article %d</a>
<img src="img/%d.png" srcset="img/%d.png 1x, img/%d@2x.png 2x" alt="">
<p style="background:url('bg/%d.png')">Some text &copy; with <b>markup</b> and a <a href="#top">fragment</a>.</p>
<script>var x = "<a href='not-a-link'>";</script></div>
`

func generate(w io.Writer, size int64) error {
	bw := bufio.NewWriter(w)
	var n int64
	for i := 0; n < size; i++ {
		k, err := fmt.Fprintf(bw, chunk, i, i, i, i, i, i)
		if err != nil {
			return err
		}
		n += int64(k)
	}
	return bw.Flush()
}

func main() {
	size := flag.Int64("size", 1<<30, "bytes of HTML to generate")
	file := flag.String("file", "", "write the document to this file and rewrite it from there (seekable); default: a pipe")
	flag.Parse()
	var src io.Reader
	if *file != "" {
		f, err := os.Create(*file)
		if err != nil {
			log.Fatal(err)
		}
		if err := generate(f, *size); err != nil {
			log.Fatal(err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			log.Fatal(err)
		}
		defer os.Remove(*file)
		src = f
	} else {
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(generate(pw, *size)) }()
		src = pr
	}
	opts := htmlrewrite.Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://example.com/dir/page.html"}}}
	cw := &counter{}
	st, err := htmlrewrite.Rewrite(cw, src, opts)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("wrote %d bytes; links %d, rewritten %d, skipped %d, failed %d\n", cw.n, st.Links, st.Rewritten, st.Skipped, st.Failed)
}

type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }
