package main

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// writeManyURLsWARC writes a record-at-time .warc.gz of n captures of
// small documents, as a wide crawl has them: pages of 200 hosts linking to
// their neighbours and to an image, one capture in four an image, one in
// ten an identical-payload revisit of an earlier image.
func writeManyURLsWARC(t *testing.T, path string, n int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	z, _ := gzip.NewWriterLevel(bw, gzip.BestSpeed)
	uri := func(i int) string {
		if i%4 == 3 {
			return fmt.Sprintf("https://www.host%03d.example/assets/images/photo-%07d.png", i%200, i)
		}
		return fmt.Sprintf("https://www.host%03d.example/articles/2026/%07d/a-title-of-some-length?ref=feed", i%200, i)
	}
	for i := range n {
		var block, head string
		switch {
		case i%10 == 7 && i > 20:
			// A revisit of the image captured 4 records before (i-4 ≡ 3 mod 4).
			head = fmt.Sprintf("WARC-Type: revisit\r\nWARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest\r\nWARC-Refers-To: <urn:uuid:%08d-0000-4000-8000-000000000000>\r\nWARC-Truncated: length\r\nWARC-Payload-Digest: sha1:IMG%07d\r\n", i-4, i-4)
			block = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n"
		case i%4 == 3:
			head = fmt.Sprintf("WARC-Type: response\r\nWARC-Payload-Digest: sha1:IMG%07d\r\n", i)
			block = fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 12\r\n\r\npng%09d", i)
		default:
			page := fmt.Sprintf(`<!doctype html><title>%d</title><a href="%s">next</a> <a href="%s">prev</a> <img src="%s"> <a href="https://elsewhere.example/%d">out</a>`,
				i, uri(i+1), uri(max(0, i-1)), uri(i|3), i)
			head = "WARC-Type: response\r\n"
			block = fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s", len(page), page)
		}
		fmt.Fprintf(z, "WARC/1.1\r\n%sWARC-Record-ID: <urn:uuid:%08d-0000-4000-8000-000000000000>\r\nWARC-Date: 2026-01-02T03:04:05Z\r\nWARC-Target-URI: %s\r\n"+
			"Content-Type: application/http;msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", head, i, uri(i), len(block), block)
		z.Close()
		z.Reset(bw)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
}

// TestMaterializeManyURLs measures what `relurl materialize` holds per
// captured URL (the index every link needs: URL, file, capture data): peak
// RSS over captures of N/4 and N small documents, and their difference per
// URL. Set RELURL_MEMCHECK_URLS=N to run it (README: 200000); it writes
// N files.
func TestMaterializeManyURLs(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("RELURL_MEMCHECK_URLS"))
	if err != nil || n < 1000 {
		t.Skip("set RELURL_MEMCHECK_URLS=N (at least 1000) to measure materialize's memory per URL")
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Fatal("/usr/bin/time is needed (Debian package time)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "relurl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var rss [2]int64
	for k, m := range []int{n / 4, n} {
		warc := filepath.Join(dir, fmt.Sprintf("many%d.warc.gz", m))
		writeManyURLsWARC(t, warc, m)
		tree := filepath.Join(dir, fmt.Sprintf("tree%d", m))
		r, d := materializePeakRSS(t, fmt.Sprintf("%s materialize --json -o %s %s > %s.json", bin, tree, warc, tree))
		sum, _ := os.ReadFile(tree + ".json")
		t.Logf("%d captures: peak RSS %.1f MiB, %.1f s (machine shared, under load); %s", m, float64(r)/(1<<20), d.Seconds(), sum)
		rss[k] = r
		os.RemoveAll(tree)
	}
	per := float64(rss[1]-rss[0]) / float64(n-n/4)
	t.Logf("peak RSS per captured URL: %.0f bytes", per)
}

var maxRSSLine = regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`)

// materializePeakRSS runs the shell command cmd under /usr/bin/time -v and
// returns its peak resident set size in bytes and its wall time.
func materializePeakRSS(t *testing.T, cmd string) (int64, time.Duration) {
	t.Helper()
	start := time.Now()
	out, err := exec.Command("/usr/bin/time", "-v", "sh", "-c", cmd).CombinedOutput()
	d := time.Since(start)
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	m := maxRSSLine.FindSubmatch(out)
	if m == nil {
		t.Fatalf("no peak RSS in /usr/bin/time -v output:\n%s", out)
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10, d
}
