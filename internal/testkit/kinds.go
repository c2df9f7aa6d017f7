package testkit

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"mime/quotedprintable"
	"os"
	"path/filepath"

	"github.com/klauspost/compress/zstd"
)

// A KindDoc is one document of a kind relurl reads, with the URL and
// media type it is served under in the archives WriteKindArchives writes.
type KindDoc struct {
	Name string // its file name, which tells its kind (base.FormatOf)
	URL  string // its URL: an MHTML part's Content-Location, a WARC record's target
	Type string // its Content-Type
	Body string
}

// KindDocs returns one document of each kind relurl reads: HTML, a page
// holding an import map, CSS, SVG, Atom, RSS, a web app manifest and a JS
// module served as text/javascript; each has links of its reader's kinds.
func KindDocs() []KindDoc {
	const site = "https://site.example/"
	return []KindDoc{
		{"page.html", site + "page.html", "text/html; charset=utf-8",
			"<!doctype html><title>p</title><link rel=stylesheet href=\"style.css\">\n<a href=\"/about\">about</a> <img src=\"img/logo.png\" srcset=\"img/a.png 1x, img/b.png 2x\">\n<script type=module src=\"app.mjs\"></script>\n"},
		{"importmap.html", site + "maps/importmap.html", "text/html",
			"<!doctype html><script type=importmap>{\"imports\":{\"lib\":\"/js/lib.mjs\",\"util/\":\"./util/\"},\"scopes\":{\"/js/\":{\"dep\":\"../dep.mjs\"}}}</script>\n<script type=module src=\"main.mjs\"></script>\n"},
		{"style.css", site + "css/style.css", "text/css",
			"@import \"reset.css\";\nbody { background: url(img/bg.png) }\n@font-face { src: url('/fonts/f.woff2') format(\"woff2\") }\n"},
		{"icon.svg", site + "img/icon.svg", "image/svg+xml",
			"<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n<use href=\"sprite.svg#a\"/><image xlink:href=\"i.png\"/>\n<a href=\"/home\"><text>h</text></a></svg>\n"},
		{"feed.atom", site + "blog/feed.atom", "application/atom+xml",
			"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"><link rel=\"self\" href=\"feed.atom\"/>\n<entry xml:base=\"/posts/\"><link href=\"one\"/><content type=\"html\" src=\"one.html\"/></entry></feed>\n"},
		{"feed.rss", site + "news/feed.rss", "application/rss+xml",
			"<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><link>https://site.example/news/</link>\n<item><link>https://site.example/news/1</link><enclosure url=\"https://site.example/a.mp3\" type=\"audio/mpeg\" length=\"1\"/></item></channel></rss>\n"},
		{"app.webmanifest", site + "app/app.webmanifest", "application/manifest+json",
			"{\"start_url\": \"./start\", \"scope\": \"/app/\",\n \"icons\": [{\"src\": \"icons/192.png\", \"sizes\": \"192x192\"}]}\n"},
		{"app.mjs", site + "js/app.mjs", "text/javascript",
			"import { x } from \"./dep.mjs\";\nexport * from \"/lib/util.mjs\";\nconst m = import(\"./lazy.mjs\");\nconst u = new URL(\"data.json\", import.meta.url);\n"},
	}
}

// Archive names WriteKindArchives writes.
const (
	KindsMHTML   = "kinds.mhtml"
	KindsWARC    = "kinds.warc"
	KindsWARCGz  = "kinds.warc.gz"
	KindsWARCZst = "kinds.warc.zst"
)

// WriteKindArchives writes each of KindDocs into dir as a file of its
// own, and all of them into an MHTML archive (each a part, under its URL;
// bodies in 8bit, quoted-printable and base64 in turn) and a WARC file
// (each a response record, with its URL as target), plain, one gzip
// member a record and one zstd frame a record.
func WriteKindArchives(dir string) error {
	docs := KindDocs()
	for _, d := range docs {
		if err := os.WriteFile(filepath.Join(dir, d.Name), []byte(d.Body), 0o644); err != nil {
			return err
		}
	}
	var mh bytes.Buffer
	const boundary = "----kinds-boundary"
	fmt.Fprintf(&mh, "From: <Saved by a test>\r\nSnapshot-Content-Location: %s\r\nSubject: kinds\r\nMIME-Version: 1.0\r\nContent-Type: multipart/related;\r\n\ttype=\"text/html\";\r\n\tboundary=\"%s\"\r\n\r\n", docs[0].URL, boundary)
	for i, d := range docs {
		fmt.Fprintf(&mh, "--%s\r\nContent-Type: %s\r\nContent-Location: %s\r\n", boundary, d.Type, d.URL)
		switch i % 3 {
		case 0:
			fmt.Fprintf(&mh, "Content-Transfer-Encoding: 8bit\r\n\r\n%s\r\n", d.Body)
		case 1:
			mh.WriteString("Content-Transfer-Encoding: quoted-printable\r\n\r\n")
			qp := quotedprintable.NewWriter(&mh)
			qp.Binary = true // the body's own line ends, so that offsets agree with the file's
			qp.Write([]byte(d.Body))
			qp.Close()
			mh.WriteString("\r\n")
		default:
			mh.WriteString("Content-Transfer-Encoding: base64\r\n\r\n")
			enc := base64.StdEncoding.EncodeToString([]byte(d.Body))
			for len(enc) > 76 {
				mh.WriteString(enc[:76] + "\r\n")
				enc = enc[76:]
			}
			mh.WriteString(enc + "\r\n")
		}
	}
	fmt.Fprintf(&mh, "--%s--\r\n", boundary)
	if err := os.WriteFile(filepath.Join(dir, KindsMHTML), mh.Bytes(), 0o644); err != nil {
		return err
	}
	var plain, gz, zs bytes.Buffer
	zw, err := zstd.NewWriter(nil)
	if err != nil {
		return err
	}
	defer zw.Close()
	for i, d := range docs {
		rec := warcResponse(d, i)
		plain.Write(rec)
		g := gzip.NewWriter(&gz)
		g.Write(rec)
		g.Close()
		zs.Write(zw.EncodeAll(rec, nil))
	}
	for name, data := range map[string][]byte{KindsWARC: plain.Bytes(), KindsWARCGz: gz.Bytes(), KindsWARCZst: zs.Bytes()} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// warcResponse is the WARC response record of d.
func warcResponse(d KindDoc, i int) []byte {
	http := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s", d.Type, len(d.Body), d.Body)
	var b bytes.Buffer
	fmt.Fprintf(&b, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\nWARC-Date: 2026-01-02T03:04:05Z\r\nWARC-Target-URI: %s\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", i, d.URL, len(http), http)
	return b.Bytes()
}
